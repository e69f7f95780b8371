// The replay viewer: rebuilds the table at a step from the nearest snapshot and the per-step
// changes of the chosen view ("all" or a seat), and draws it with the decision and the log.
"use strict";
(function () {
  var D = JSON.parse(document.getElementById("data").textContent);
  var n = D.steps.length, every = D.snapshot_every;
  var red = {};
  D.red.forEach(function (c) { red[c] = true; });
  var status = [], last = null;
  D.steps.forEach(function (s) { if (s.s) { last = s.s; } status.push(last); });
  var $ = function (id) { return document.getElementById(id); };
  var view = "all", step = 0, places = null, at = -1, timer = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  // the places of the current view at step i: from the snapshot at or before i, or on from the last step drawn
  function placesAt(i) {
    var stream = D.views[view];
    if (places === null || i < at || Math.floor(i / every) > Math.floor(at / every)) {
      at = Math.floor(i / every) * every;
      places = stream.snapshots[at / every].map(function (p) { return p.slice(); });
    }
    for (; at < i; ) {
      at += 1;
      var diff = stream.diffs[at];
      Object.keys(diff).forEach(function (k) {
        var change = diff[k];
        places[k] = places[k].slice(0, change[0]).concat(change.slice(1));
      });
    }
    return places;
  }

  function drawCards(box, cards, secret) {
    cards.forEach(function (c) {
      if (c < 0) {
        for (var j = 0; j < Math.min(-c, 6); j++) { box.appendChild(el("span", "card back")); }
        box.appendChild(el("span", "more", -c + " face down"));
        return;
      }
      var cls = "card" + (red[c] ? " red" : "") + (secret ? " secret" : "");
      box.appendChild(el("span", cls, D.cards[c]));
    });
  }

  function drawPlace(parent, k, cards) {
    var row = el("div", "place");
    row.dataset.place = D.places[k];
    row.appendChild(el("span", "label", D.labels[k] + " (" + count(cards) + ")"));
    var secret = view === "all" && !D.public[k];
    drawCards(row, cards, secret);
    parent.appendChild(row);
  }

  function count(cards) {
    return cards.reduce(function (a, c) { return a + (c < 0 ? -c : 1); }, 0);
  }

  function moveText(i) {     // the action that led to step i, as the view may read it
    var d = D.steps[i - 1].d;
    if (view !== "all" && D.hidden_moves[view].indexOf(i) >= 0) { return "seat " + d.seat + ": a hidden move"; }
    return "seat " + d.seat + ": " + D.actions[d.chosen];
  }

  function drawTable(p) {
    var shared = $("shared"), seats = $("seats"), d = D.steps[step].d, st = status[step];
    shared.textContent = "";
    seats.textContent = "";
    D.layout.shared.forEach(function (k) { drawPlace(shared, k, p[k]); });
    D.layout.seats.forEach(function (ks, s) {
      var box = el("div", "seat");
      box.dataset.seat = s;
      if (d && d.seat === s) { box.classList.add("to-move"); }
      if (view === String(s)) { box.classList.add("viewer"); }
      var h = el("h2", "", "seat " + s + " \u00b7 " + D.policies[s] + " ");
      h.appendChild(el("span", "note", st.seats[s] || ""));
      box.appendChild(h);
      ks.forEach(function (k) { drawPlace(box, k, p[k]); });
      seats.appendChild(box);
    });
  }

  function drawDecision() {
    var box = $("decision"), d = D.steps[step].d;
    box.textContent = "";
    if (step > 0) { box.appendChild(el("div", "", "last move: " + moveText(step))); }
    if (!d) { box.appendChild(el("div", "", "the " + D.unit + " is over")); return; }
    var mine = view === "all" || view === String(d.seat);
    if (!mine) {
      box.appendChild(el("div", "", "seat " + d.seat + " to move; its choices are its own"));
      return;
    }
    var legal = [];
    for (var j = 0; j < d.legal.length; j++) {
      var digit = parseInt(d.legal[j], 16);
      for (var b = 0; b < 4; b++) { if (digit >> b & 1) { legal.push(D.action_order[4 * j + b]); } }
    }
    box.appendChild(el("div", "", "seat " + d.seat + " to move, " + legal.length +
                       (legal.length === 1 ? " legal action:" : " legal actions:")));
    legal.forEach(function (a) {
      box.appendChild(el("span", "action" + (a === d.chosen ? " chosen" : ""), D.actions[a]));
    });
    var r = D.steps[step].r;
    if (r) { drawRollout(box, r, d.chosen); }
  }

  function pct(x) { return (100 * x).toFixed(1); }

  function drawRollout(box, r, chosen) {
    box.appendChild(el("div", "rollout-head", "rollout over " + r.worlds + " worlds" +
                       (r.open ? " (open cards: overstates what a player can do)" : "") +
                       ": win % [95% interval], vs best in points"));
    var table = box.appendChild(el("table", "rollout", ""));
    r.rows.forEach(function (row, i) {
      var tr = table.appendChild(el("tr", row[0] === chosen ? "chosen" : "", ""));
      tr.appendChild(el("td", "", D.actions[row[0]] || String(row[0])));
      tr.appendChild(el("td", "num", pct(row[1]) + " [" + pct(row[2]) + ", " + pct(row[3]) + "]"));
      tr.appendChild(el("td", "num", i === 0 ? "best" : (100 * row[4]).toFixed(1)));
    });
  }

  var logLines = [];
  function buildLog() {
    var log = $("log");
    log.textContent = "";
    logLines = [];
    if (view === "all") {
      D.log.forEach(function (line) { logLines.push(log.appendChild(el("div", "", line || " "))); });
    }
  }

  function drawLog() {
    var log = $("log"), current;
    if (view === "all") {
      logLines.forEach(function (e) { e.classList.remove("current"); });
      current = logLines[D.lines[step]];
    } else {   // a seat's own record of the moves so far: the full trace shows every hand
      log.textContent = "";
      log.appendChild(el("div", "", "seat " + view + "'s view: the moves so far (the full trace is in the all-seeing view)"));
      for (var i = 1; i <= step; i++) { current = log.appendChild(el("div", "", i + ". " + moveText(i))); }
    }
    if (current) {
      current.classList.add("current");
      var top = current.offsetTop - log.offsetTop;
      if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - 20) {
        log.scrollTop = top - log.clientHeight / 2;
      }
    }
  }

  function show(i) {
    step = Math.max(0, Math.min(n - 1, i));
    var p = placesAt(step), st = status[step];
    drawTable(p);
    drawDecision();
    drawLog();
    $("slider").value = step;
    $("where").textContent = "step " + step + " / " + (n - 1);
    $("sub").textContent = D.sub_unit && st.sub !== undefined ? D.sub_unit + " " + st.sub : "";
    $("info").textContent = st.info;
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    $("play").textContent = "play";
  }

  function play() {
    if (timer !== null) { stop(); return; }
    if (step >= n - 1) { show(0); }
    $("play").textContent = "pause";
    timer = setInterval(function () {
      if (step >= n - 1) { stop(); } else { show(step + 1); }
    }, Number($("speed").value));
  }

  $("title").textContent = D.title;
  $("slider").max = n - 1;
  var choice = $("view");
  choice.appendChild(el("option", "", "all-seeing view")).value = "all";
  for (var s = 0; s < D.players; s++) { choice.appendChild(el("option", "", "seat " + s + "'s view")).value = String(s); }
  choice.addEventListener("change", function () { view = choice.value; places = null; buildLog(); show(step); });
  $("first").addEventListener("click", function () { stop(); show(0); });
  $("back").addEventListener("click", function () { stop(); show(step - 1); });
  $("forward").addEventListener("click", function () { stop(); show(step + 1); });
  $("last").addEventListener("click", function () { stop(); show(n - 1); });
  $("play").addEventListener("click", play);
  $("speed").addEventListener("change", function () { if (timer !== null) { stop(); play(); } });
  $("slider").addEventListener("input", function () { stop(); show(Number($("slider").value)); });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") { return; }
    if (e.key === "ArrowRight") { show(step + 1); } else if (e.key === "ArrowLeft") { show(step - 1); }
  });
  buildLog();
  show(0);
})();
