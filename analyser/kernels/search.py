"""The compiled search players (PIMC), written once here and bound to each game's hooks.

A search policy is a policy of the game's ``POLICY_SIG`` called through its pointer, as a user's
policy is: the engine hands it the public record and the seat's own private record only, so it
reads nothing else (honesty is structural, and the kit's hidden-information check tests it). At a
decision with two or more legal actions it draws worlds from what the seat knows (the game's
``world_nb``, analyser.games.<game>.search), plays every legal action out in each world with the
rollout policy (a built-in of the game, called directly by its kind) on common random numbers (the
same world and streams for every action), and plays the action with the best mean value: the
seat's win share of the unit, or of the part (hand, round) the decision is in (``HORIZON``); on a
tie it keeps the rollout policy's own choice (a search that improves on its heuristic).

What a policy does not otherwise see but a rollout needs, its params row carries after the
search's own parameters (analyser.games.search_specs writes it): the rollout policy's parameter
row and the run's rule settings. Its random stream is the seat's own policy stream
(``pv["rng"]``, of (seed, unit, seat), advanced by each decision), never the deal's; a world's
deal stream and every seat's stream in it are drawn from that one.

The open variant (``row[OPEN]`` 1, ``open=1``) cheats by design, to measure what perfect information
is worth: its worlds are all the real table, which the engine writes into its row before each of its
decisions (analyser.kernels.reveal); its rollouts still differ in their streams (each seat's policy
stream, and the deals of later hands or rounds), so its budget still buys a mean over playouts.

A forced move (one legal action) is played without a search and without a draw from the stream.
The search counts what it did in its own policy memory (search_row: decisions searched, worlds,
rollout steps), for benchmarks and for tests that a forced move costs nothing.
The deciding seat plays its candidate in a world through ``forced_policy`` (the rollouts'
pointer policy that returns its first parameter), for the first step only, as the Python
rollouts do (analyser.kernels.loops._play_worlds); the policies tuple the rules receive holds
only that pointer, and every other step is a built-in called by kind, so the search never calls
itself.
"""
from __future__ import annotations

import warnings

import numpy as np
from numba import njit
from numba.core.errors import NumbaWarning

from analyser.kernels.jit import inline_kernel
from analyser.kernels.loops import bind
from analyser.kernels.records import reset_nb, view_nb
from analyser.kernels.reveal import revealed_nb
from analyser.kernels.rng import below_nb, keyed_seed_nb, next_u64_nb, stream_seed_nb
from analyser.kernels.search_row import (
    BUDGET,
    HORIZON,
    KIND,
    MARGIN,
    OPEN,
    REVEALED,
    ROLLOUT_AT,
    ROW,
    SCALE,
    SEARCHED,
    SEATS,
    SETTINGS_AT,
    STEPS,
    VALUE,
    WORLDS_DRAWN,
    C,
)

POINTER = 0              # analyser.games.dispatch.POINTER: the kind of the forced first step
ROLLOUT_CAP = 2000       # steps a rollout plays at most: a Palace world that cycles would play to the game's
                         # cap (5,000 actions from the decision) at every decision of a game that cycles

# The names a template reads from its game, given by bind().
actions_nb = world_nb = searching_nb = fallback_nb = step_nb = record_nb = current_nb = part_nb = None
new_state_nb = settled_nb = value_nb = fill_legal_nb = default_index_nb = rollout_rows_nb = part_done_nb = None
decide_nb = draw_nb = None
FORCED = RECORD_DTYPE = None
PLAYERS = N_SETTINGS = MAX_CHOICES = 0


def _rollout_rows(row, kind):
    """What the rollouts of a decision play with, from a search seat's row: the rules' settings, every
    seat's params row (the rollout heuristic's), a copy for the forced first step, every seat's kind."""
    settings = np.empty(N_SETTINGS, np.int64)
    for i in range(N_SETTINGS):
        settings[i] = np.int64(row[SETTINGS_AT + i])
    params = np.zeros((PLAYERS, ROW))
    for s in range(PLAYERS):
        params[s, :SETTINGS_AT - ROLLOUT_AT] = row[ROLLOUT_AT:SETTINGS_AT]
    return settings, params, params.copy(), np.full(PLAYERS, kind, np.int64)


def _pimc_body(policies, pb, pv, legal, row):
    """The PIMC decision (the module docstring); ``policies``: PLAYERS times the game's forced_policy."""
    actions = np.empty(MAX_CHOICES, np.int64)
    n = actions_nb(pb, pv, legal, actions)
    kind = np.int64(row[KIND])
    if n == 1:
        return actions[0]
    if n == 0 or not searching_nb(pb):
        return fallback_nb(kind, policies, pb, pv, legal, row[ROLLOUT_AT:SETTINGS_AT].copy())
    if not open_ready_nb(row):
        return -1
    seat = pb["seat"]
    worlds = np.int64(row[BUDGET])
    horizon = np.int64(row[HORIZON])
    settings, params, forced_params, kinds = rollout_rows_nb(row, kind)
    first = kinds.copy()
    first[seat] = POINTER
    streams = np.zeros(PLAYERS, np.int64)
    pub, priv, hid, legal_w = new_state_nb()
    wpub, wpriv, whid = pub.copy(), priv.copy(), hid.copy()
    pub_b, priv_b, hid_b = view_nb(pub, np.uint8), view_nb(priv, np.uint8), view_nb(hid, np.uint8)
    wpub_b, wpriv_b, whid_b = view_nb(wpub, np.uint8), view_nb(wpriv, np.uint8), view_nb(whid, np.uint8)
    log = np.zeros(0, np.int32)
    rec = np.zeros(1, RECORD_DTYPE)
    current = np.zeros((2, PLAYERS))
    values = np.zeros((worlds, n))
    rng = pv["rng"]
    memory = pv["memory"]
    memory[SEARCHED] += 1.0
    steps = 0
    for w in range(worlds):
        reset_nb(pub, priv, hid)
        if not draw_nb(pb, pv, rng, pub, priv, hid, row):
            return fallback_nb(kind, policies, pb, pv, legal, row[ROLLOUT_AT:SETTINGS_AT].copy())
        memory[WORLDS_DRAWN] += 1.0
        key = next_u64_nb(rng)
        wseed = np.int64(key >> np.uint64(1))
        part = part_nb(pub)
        for a in range(n):
            wpub_b[:] = pub_b
            wpriv_b[:] = priv_b
            whid_b[:] = hid_b
            for s in range(PLAYERS):
                wpriv[s]["rng"][0] = keyed_seed_nb(key, s)
            forced_params[seat, 0] = actions[a]
            over = step_nb(wseed, w, settings, streams, policies, first, forced_params, wpub, wpriv, whid, legal_w,
                           log)
            steps += 1
            cut = steps + ROLLOUT_CAP
            done = over or settled_nb(wpub, seat, part, horizon)
            while not done and steps < cut:
                over = step_nb(wseed, w, settings, streams, policies, kinds, params, wpub, wpriv, whid, legal_w, log)
                steps += 1
                done = over or settled_nb(wpub, seat, part, horizon)
            if done:                          # a rollout cut at the cap has no result, as an aborted unit
                values[w, a] = value_nb(pub, hid, wpub, whid, seat, horizon, rec[0], current, row)
    memory[STEPS] += steps
    default = default_index_nb(kind, policies, pb, pv, legal, row, priv, actions, n)
    return actions[pick_nb(values, default, row[MARGIN])]


@njit(cache=True)
def pick_nb(values, default, margin):
    """The action with the best mean over the worlds (``values[w, a]``), if it beats the rollout
    policy's choice (``default``) by more than ``margin`` standard errors of their paired difference
    over the worlds; else that choice. Margin 0: the best mean, the heuristic's choice on a tie."""
    worlds, n = values.shape
    best = default
    best_mean = 0.0
    for a in range(n):
        if a == default:
            continue
        mean = 0.0
        for w in range(worlds):
            mean += values[w, a] - values[w, default]
        mean /= worlds
        var = 0.0
        for w in range(worlds):
            d = values[w, a] - values[w, default] - mean
            var += d * d
        se = np.sqrt(var / max(worlds - 1, 1) / worlds)
        if mean > best_mean and mean > margin * se:
            best, best_mean = a, mean
    return best


def _ismcts_body(policies, pb, pv, legal, row):
    """Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) for the seat to decide:
    one tree of action sequences from its information set, every seat's actions in it; each
    iteration draws a fresh world (the game's world_nb), descends the tree by UCB1 among the
    children whose action is legal in that world (each counted as available, the availability
    counts standing for the parent's visits), adds one node, plays the rest with the rollout policy
    and credits every node on the path with the result of the seat that moved into it. UCB1 reads a
    node's mean result on the range of the results credited so far (0 the lowest, 1 the highest, as
    MuZero normalises its values), so ``c`` means the same for win shares (results 0 or 1: the range
    is 0..1 once both were seen, and until then every node's mean is the same) as for score margins,
    whose spread is a few hundredths. The most visited action at the root is played."""
    actions = np.empty(MAX_CHOICES, np.int64)
    n = actions_nb(pb, pv, legal, actions)
    kind = np.int64(row[KIND])
    if n == 1:
        return actions[0]
    if n == 0 or not searching_nb(pb):
        return fallback_nb(kind, policies, pb, pv, legal, row[ROLLOUT_AT:SETTINGS_AT].copy())
    if not open_ready_nb(row):
        return -1
    iterations = np.int64(row[BUDGET])
    horizon = np.int64(row[HORIZON])
    c = row[C]
    settings, params, forced_params, kinds = rollout_rows_nb(row, kind)
    pointers = np.full(PLAYERS, POINTER, np.int64)
    streams = np.zeros(PLAYERS, np.int64)
    size = iterations + 1
    node_action = np.zeros(size, np.int64)
    node_player = np.zeros(size, np.int64)
    node_child = np.full(size, -1, np.int64)         # first child
    node_next = np.full(size, -1, np.int64)          # next sibling
    visits = np.zeros(size)
    avail = np.zeros(size)
    reward = np.zeros(size)
    path = np.zeros(size, np.int64)
    nodes = 1
    pub, priv, hid, legal_w = new_state_nb()
    log = np.zeros(0, np.int32)
    rec = np.zeros(1, RECORD_DTYPE)
    current = np.zeros((2, PLAYERS))
    acts = np.empty(MAX_CHOICES, np.int64)
    start_pub, start_hid = pub.copy(), hid.copy()
    pub_b, hid_b = view_nb(pub, np.uint8), view_nb(hid, np.uint8)
    start_pub_b, start_hid_b = view_nb(start_pub, np.uint8), view_nb(start_hid, np.uint8)
    values = np.zeros(PLAYERS)
    lo, hi = np.inf, -np.inf                          # the results credited so far: UCB1 reads them as 0..1
    rng = pv["rng"]
    memory = pv["memory"]
    memory[SEARCHED] += 1.0
    steps = 0
    for it in range(iterations):
        reset_nb(pub, priv, hid)
        if not draw_nb(pb, pv, rng, pub, priv, hid, row):
            return fallback_nb(kind, policies, pb, pv, legal, row[ROLLOUT_AT:SETTINGS_AT].copy())
        memory[WORLDS_DRAWN] += 1.0
        start_pub_b[:] = pub_b
        start_hid_b[:] = hid_b
        key = next_u64_nb(rng)
        wseed = np.int64(key >> np.uint64(1))
        for s in range(PLAYERS):
            priv[s]["rng"][0] = keyed_seed_nb(key, s)
        part = part_nb(pub)
        node = 0
        depth = 0
        over = False
        expanded = False
        while not over and not part_done_nb(pub, 0, part, horizon) and not expanded:
            mover = pub[0]["seat"]
            fill_legal_nb(pub[0], priv[mover], legal_w)
            k = actions_nb(pub[0], priv[mover], legal_w, acts)
            chosen = acts[0]
            if k > 1:
                best = -1
                best_score = -1.0
                untried = 0
                for i in range(k):                    # the actions of this world without a child yet
                    child = node_child[node]
                    while child >= 0 and node_action[child] != acts[i]:
                        child = node_next[child]
                    if child < 0:
                        untried += 1
                    else:
                        avail[child] += 1.0
                        q = reward[child] / visits[child]
                        if hi > lo:
                            q = (q - lo) / (hi - lo)
                        score = q + c * np.sqrt(np.log(avail[child]) / visits[child])
                        if score > best_score:
                            best, best_score = child, score
                if untried > 0 and nodes < size:      # expand one of them, chosen at random
                    pick = below_nb(rng, untried)
                    for i in range(k):
                        child = node_child[node]
                        while child >= 0 and node_action[child] != acts[i]:
                            child = node_next[child]
                        if child < 0:
                            if pick == 0:
                                chosen = acts[i]
                                break
                            pick -= 1
                    best = nodes
                    nodes += 1
                    node_action[best] = chosen
                    node_player[best] = mover
                    node_next[best] = node_child[node]
                    node_child[node] = best
                    avail[best] = 1.0
                    expanded = True
                chosen = node_action[best]
                node = best
                path[depth] = node
                depth += 1
            forced_params[mover, 0] = chosen
            over = step_nb(wseed, it, settings, streams, policies, pointers, forced_params, pub, priv, hid, legal_w,
                           log)
            steps += 1
        cut = steps + ROLLOUT_CAP
        done = over or part_done_nb(pub, 0, part, horizon)
        while not done and steps < cut:
            over = step_nb(wseed, it, settings, streams, policies, kinds, params, pub, priv, hid, legal_w, log)
            steps += 1
            done = over or part_done_nb(pub, 0, part, horizon)
        for s in range(PLAYERS):              # a rollout cut at the cap has no result, as an aborted unit
            values[s] = value_nb(start_pub, start_hid, pub, hid, s, horizon, rec[0], current, row) if done else 0.0
        for d in range(depth):
            node = path[d]
            visits[node] += 1.0
            reward[node] += values[node_player[node]]
            lo = min(lo, values[node_player[node]])
            hi = max(hi, values[node_player[node]])
    memory[STEPS] += steps
    default = actions[default_index_nb(kind, policies, pb, pv, legal, row, priv, actions, n)]
    best = -1
    child = node_child[0]
    while child >= 0:
        if best < 0 or visits[child] > visits[best] or (visits[child] == visits[best]
                                                        and node_action[child] == default):
            best = child
        child = node_next[child]
    return node_action[best] if best >= 0 else default


def _default_index(kind, policies, pb, pv, legal, row, priv, actions, n):
    """The place in ``actions`` of what the rollout policy plays here: the search keeps it unless
    another action did strictly better (a tie, common at small budgets, is no reason to leave the
    heuristic's choice). Asked on a copy of the seat's record (``priv``'s, a spare buffer), so its
    stream and memory are not the real ones'."""
    seat = pb["seat"]
    priv[seat] = pv
    choice = fallback_nb(kind, policies, pb, priv[seat], legal, row[ROLLOUT_AT:SETTINGS_AT].copy())
    for a in range(n):
        if actions[a] == choice:
            return a
    return 0


@njit(cache=True, inline="always")
def open_ready_nb(row):
    """Whether an open seat's table is this decision's (the engine stamps the row at each reveal; the
    search takes the stamp), or the seat is an honest one. An open seat asked without a reveal (no
    engine path does that) answers -1, an illegal action, so the run stops loudly."""
    if row[OPEN] == 0.0:
        return True
    if row[OPEN] != REVEALED:
        return False
    row[OPEN] = 1.0
    return True


def _draw(pb, pv, rng, pub, priv, hid, row):
    """A world for the seat: dealt from what it knows (the game's world_nb), or for an open seat the
    table itself, as the engine revealed it (its streams are reseeded by the search, as any world's)."""
    if row[OPEN] == 0.0:
        return world_nb(pb, pv, rng, pub, priv, hid)
    pub[0] = pb
    revealed_nb(row, priv, hid)
    return True


def _part_settled(pub, seat, part, horizon):
    """Whether a world's value for the deciding seat is known before the unit ends: with
    ``horizon`` 1, once the part the decision was in is over (ISMCTS's tree and rollouts, which
    need every seat's value, stop there too, whatever a game's own settled_nb says)."""
    return horizon == 1 and part_nb(pub) != part


def _every_decision(pb):
    """A game whose every decision is searched (the default searching_nb)."""
    return True


def _rollout_fallback(kind, policies, pb, pv, legal, row):
    """The rollout policy's action (the default fallback_nb: the game's decide_nb, for a game whose
    decide_nb takes no more than the policy's arguments)."""
    return decide_nb(kind, policies, pb["seat"], pb, pv, legal, row)


def _part_value(start_pub, start_hid, pub, hid, seat, horizon, rec, current, row):
    """The seat's win share of the unit (``horizon`` 0), or of the part the world started in; with
    ``row[VALUE]`` 1, its score's margin over the best other seat's instead, scaled by ``row[SCALE]``
    (a match won on points is won by the margins of its parts: a finer signal than who won each)."""
    if horizon == 1:
        current_nb(start_pub, start_hid, pub, hid, current)
    else:
        record_nb(rec, 0, pub, hid)
        for s in range(current.shape[1]):
            current[0, s] = rec["win"][s]
            current[1, s] = rec["score"][s]
    if row[VALUE] == 0:
        return current[0, seat]
    best = -np.inf
    for s in range(np.int64(row[SEATS])):
        if s != seat:
            best = max(best, current[1, s])
    return (current[1, seat] - best) * row[SCALE]


# A policy itself: its body called with PLAYERS times the game's forced_policy, a tuple written
# out (numba builds a tuple of functions only from a literal, and caches it only then), one per
# seat count a game can have at most.
def _search2(pb, pv, legal, row):
    """A compiled search player (analyser.kernels.search)."""
    return body_nb((FORCED, FORCED), pb, pv, legal, row)


def _search4(pb, pv, legal, row):
    """A compiled search player (analyser.kernels.search)."""
    return body_nb((FORCED, FORCED, FORCED, FORCED), pb, pv, legal, row)


def _search6(pb, pv, legal, row):
    """A compiled search player (analyser.kernels.search)."""
    return body_nb((FORCED, FORCED, FORCED, FORCED, FORCED, FORCED), pb, pv, legal, row)


_WRAPPERS = {2: _search2, 4: _search4, 6: _search6}
body_nb = None


class SearchPlayers:
    """A game's search players of its ``policy_signature`` (its POLICY_SIG; ``policies_t``: its
    POLICIES_T), ``pimc_policy`` and ``ismcts_policy``, each compiled (or loaded from the cache) when
    first asked for (``policy``), so a run that seats one compiles one: each body inlines its own
    copy of the game's step. ``hooks`` are the game's search module's and rules' functions and
    constants (actions_nb, fill_legal_nb, world_nb, step_nb, record_nb, current_nb, part_nb,
    new_state_nb, FORCED: the game's forced_policy, RECORD_DTYPE, PLAYERS, N_SETTINGS, MAX_CHOICES);
    ``searching_nb(pb)`` and ``fallback_nb(kind, policies, pb, pv, legal, row)``, or instead
    ``decide_nb`` (then every decision is searched, and the rollout policy is asked through it); and
    optionally ``settled_nb(pub, seat, part, horizon)`` and ``value_nb(start_pub, start_hid, pub, hid,
    seat, horizon, rec, current, row)``: when a world's value for the seat is known, and what it is (by
    default the part's or the unit's win share, _part_settled and _part_value)."""

    BODIES = {"pimc_policy": _pimc_body, "ismcts_policy": _ismcts_body}

    def __init__(self, owner: str, policy_signature, policies_t, **hooks):
        games = {k: hooks.get(k) for k in ("part_nb", "current_nb", "record_nb", "decide_nb")}
        hooks["part_done_nb"] = inline_kernel(bind(_part_settled, owner, **games))
        hooks["draw_nb"] = inline_kernel(bind(_draw, owner, world_nb=hooks["world_nb"]))
        for name, template in (("settled_nb", _part_settled), ("value_nb", _part_value),
                               ("searching_nb", _every_decision), ("fallback_nb", _rollout_fallback)):
            if name not in hooks:
                hooks[name] = inline_kernel(bind(template, owner, **games))
        hooks["default_index_nb"] = njit(cache=True, inline="always")(bind(_default_index, owner,
                                                                             fallback_nb=hooks["fallback_nb"]))
        hooks["rollout_rows_nb"] = njit(cache=True)(bind(_rollout_rows, owner, N_SETTINGS=hooks["N_SETTINGS"],
                                                         PLAYERS=hooks["PLAYERS"]))
        self.owner, self.signature, self.hooks = owner, policy_signature, hooks
        self.body_signature = policy_signature.return_type(policies_t, *policy_signature.args)
        self.compiled: dict = {}

    def policy(self, name: str):
        """The compiled ``name`` ("pimc_policy" or "ismcts_policy"); AttributeError for any other name
        (a game's search module hands its ``__getattr__`` here)."""
        if name not in self.BODIES:
            raise AttributeError(name)
        if name not in self.compiled:
            body = njit(self.body_signature, cache=True)(bind(self.BODIES[name], self.owner, **self.hooks))
            wrapper = bind(_WRAPPERS[self.hooks["PLAYERS"]], self.owner, body_nb=body, FORCED=self.hooks["FORCED"])
            with warnings.catch_warnings():   # the tuple's function constants keep this small wrapper out of
                warnings.filterwarnings("ignore", "Cannot cache compiled function", NumbaWarning)  # the cache
                self.compiled[name] = njit(self.signature, cache=True)(wrapper)
        return self.compiled[name]


def _sample_worlds(pb, pv, seed, count, pubs, privs, hids):
    """``count`` worlds of the seat to decide (its game's world_nb) from a stream seeded by ``seed``,
    into pubs[i] (its PUBLIC_DTYPE, shape (count,)), privs[i] ((count, its seats)) and hids[i];
    returns how many were found, the found ones first (for tests and benchmarks)."""
    rng = np.empty(1, np.uint64)
    rng[0] = stream_seed_nb(seed, 0, 0)
    pub, priv, hid, _ = new_state_nb()
    found = 0
    for _ in range(count):
        reset_nb(pub, priv, hid)
        if world_nb(pb, pv, rng, pub, priv, hid):
            pubs[found] = pub[0]
            privs[found] = priv
            hids[found] = hid[0]
            found += 1
    return found


def sample_worlds(owner: str, *, world_nb, new_state_nb):
    """A game's ``sample_worlds_nb`` (_sample_worlds), compiled where it is first called."""
    return njit(cache=True)(bind(_sample_worlds, owner, world_nb=world_nb, new_state_nb=new_state_nb))


@njit(cache=True, inline="always")
def marked_actions_nb(legal, stop, out):
    """The actions marked in legal[:stop], in id order, into ``out``; returns how many (the search's
    actions_nb in a game whose legal array holds its action ids)."""
    n = 0
    for a in range(stop):
        if legal[a]:
            out[n] = a
            n += 1
    return n
