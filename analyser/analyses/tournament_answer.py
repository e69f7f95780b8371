"""A tournament's answer in one line: which policy to play, from the head-to-head and the equilibrium.

The head-to-head pairs are the result to read (the ratings are a transitive summary that may not fit):
a policy whose paired interval is above even against every other (pairs: its win share difference
above 0; mixed tables: its share of finishing above above one half) is the one to play, and is then
the equilibrium's whole support (a Condorcet winner of the meta-game). Without one, the equilibrium's
mix is the answer. Names that are one policy (``same``) are not opponents of each other.
"""
from __future__ import annotations

WHOLE = 0.995                  # an equilibrium weight this high is the whole support


def classes(result) -> list[list[str]]:
    """The policies as the tournament tells them apart: one policy by name (``same``) or as far as its
    deals tell (the equilibrium's ``indistinguishable_from``, which shares their weight), in the
    equilibrium's order (largest weight first)."""
    eq = result.equilibrium.sort_values("weight", ascending=False, kind="stable")
    seen, out = set(), []
    for r in eq.to_dict("records"):
        if r["policy"] in seen:
            continue
        group = {r["policy"], *(x for x in str(r.get("indistinguishable_from") or "").split(", ") if x)}
        group |= {x for pair in result.same if set(pair) & group for x in pair}
        seen |= group
        out.append(sorted(group, key=result.policies.index))
    return out


def margins(result, policy: str, group: list[str]) -> list[tuple[str, float, float, float]]:
    """``policy``'s margin against each policy outside its ``group``: (other, margin, low, high), in
    points of win share (pairs) or of the share of finishing above less one half (mixed tables)."""
    out = []
    for r in result.pairs.to_dict("records"):
        if policy not in (r["a"], r["b"]):
            continue
        mine = "a" if r["a"] == policy else "b"
        other = r["b"] if mine == "a" else r["a"]
        if other in group:
            continue
        if result.mixed:
            m, lo, hi = (r[f"{mine}_{k}"] - 0.5 for k in ("above_share", "ci_low", "ci_high"))
        else:
            sign = 1 if mine == "a" else -1
            m, lo, hi = sign * r["win_diff"], *sorted((sign * r["ci_low"], sign * r["ci_high"]))
        out.append((other, m, lo, hi))
    return out


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"


def _margin_text(other: str, m: float, lo: float, hi: float, mixed: bool) -> str:
    if mixed:
        return f"above {other} in {100 * (m + 0.5):.1f}% [{100 * (lo + 0.5):.1f}, {100 * (hi + 0.5):.1f}] of the plays"
    return f"{_points(m)} points [{_points(lo)}, {_points(hi)}] against {other}"


def answer(result) -> str:
    """The one line (see the module docstring)."""
    eq = result.equilibrium.set_index("policy")
    groups = classes(result)
    for group in groups:
        against = [(p, *x) for p in group for x in margins(result, p, group)]
        if against and all(x[3] > 0 for x in against):
            return _play(result, group, eq, against, beats=True)
    return _play(result, groups[0], eq, [(p, *x) for p in groups[0] for x in margins(result, p, groups[0])],
                 beats=False)


def _play(result, group: list[str], eq, against: list, beats: bool) -> str:
    """The line for ``group`` (its closest margin head to head, its weight in the equilibrium)."""
    weight = float(eq.loc[group, "weight"].sum())
    one = len(group) == 1
    names = " or ".join(group)
    twins = "" if one else (f" ({'they are' if len(group) == 2 else 'all'} one policy as far as these deals tell)")
    closest = min(against, key=lambda x: x[2]) if against else None
    margin = "" if closest is None else (
        ("closest" if result.mixed else "smallest margin") + (" " if one else f": {closest[0]} ")
        + _margin_text(*closest[1:], result.mixed))
    it, beat = ("it", "beats") if one else ("they", "beat")
    whole = weight >= WHOLE
    if closest is None:                 # every policy is one as far as the deals tell
        return f"Play any: {names} are one policy as far as these deals tell, so none is better to play."
    if beats:
        share = (" and {} the equilibrium's whole support".format("is" if one else "are") if whole else
                 f"; the equilibrium gives {'it' if one else 'them'} weight {weight:.2f}")
        return f"Play {names}{twins}: {it} {beat} every other policy head to head ({margin}){share}."
    if whole:
        return (f"Play {names}{twins}: {it} {'is' if one else 'are'} the equilibrium's whole support, though "
                f"{it} {'does' if one else 'do'} not clearly beat every other policy head to head ({margin}).")
    mix = ", ".join(f"{p} {_weight(eq, p)}" for p in eq.sort_values("weight", ascending=False).index
                    if eq.loc[p, "weight"] > 1 - WHOLE)
    return (f"No one policy: none beats every other head to head, and the equilibrium mixes {mix}; play "
            f"{group[0]} if you must play one (its largest weight; {margin}).")


def _weight(eq, policy: str) -> str:
    r = eq.loc[policy]
    return f"{r['weight']:.2f} [{r['weight_ci_low']:.2f}, {r['weight_ci_high']:.2f}]"
