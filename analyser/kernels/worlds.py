"""The random streams of a rollout's world, one rule for every game's ``play_worlds_nb``.

A world (a position re-dealt for the deciding seat, analyser.games.worlds) is
played out after each candidate action from the same records, so the actions
meet the same future. That future must not be the real unit's: its streams
would deal every world the real unit's later hands and shuffles, a future no
seat knows and the same in every world. So world ``w`` of a rollout seeded
``seed`` gets the streams unit ``w`` of that seed has in the hand (round) the
position is in (analyser.kernels.rng's layout), and its later hands are dealt
from that unit's key as any unit's are.
"""
from analyser.kernels.jit import kernel
from analyser.kernels.rng import DEAL_SLOT, POLICY_SLOT, STREAMS_PER_HAND, keyed_seed_nb, unit_key_nb


@kernel
def reseed_world_nb(seed, world, part, streams, deal_rng, priv):
    """Seed ``deal_rng[0]`` (the hidden record's stream) and each seat's policy stream
    (``priv[s]["rng"][0]``, stream id ``streams[s]``) as hand ``part`` of unit ``world``
    of ``seed``; returns that unit's key (the hidden record's ``key``, where a game deals
    its later hands from one)."""
    key = unit_key_nb(seed, world)
    base = part * STREAMS_PER_HAND
    deal_rng[0] = keyed_seed_nb(key, base + DEAL_SLOT)
    for s in range(priv.size):
        priv[s]["rng"][0] = keyed_seed_nb(key, base + POLICY_SLOT + streams[s])
    return key
