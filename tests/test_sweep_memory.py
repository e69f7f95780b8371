"""A sweep holds one setting's per-deal values at a time (and the baseline's), so its memory does not
grow with the number of settings (benchmarks/sweep_memory.py measures the peak)."""
import weakref

import analyser
from analyser.analyses import sweep as sweep_module
from analyser.analyses import sweep_plays


def test_a_sweep_holds_one_settings_per_deal_values_at_a_time(monkeypatch):
    alive, most = [], [0]        # weak references to every Plays a sweep made, the most alive at a row
    concat = sweep_plays.Plays.concat.__func__

    def tracked(cls, blocks):
        plays = concat(cls, blocks)
        alive.append(weakref.ref(plays))
        return plays

    def row(*args, **kwargs):     # no gc.collect(): a Plays is in no cycle, freed when dropped (so with gc off too)
        most[0] = max(most[0], sum(ref() is not None for ref in alive))
        return setting_row(*args, **kwargs)

    setting_row = sweep_module.setting_row
    monkeypatch.setattr(sweep_plays.Plays, "concat", classmethod(tracked))
    monkeypatch.setattr(sweep_module, "setting_row", row)
    r = analyser.sweep("palace", ["pickup:max_pile=0..11"], players=2, deals=300, seed=1, chunk_size=100)
    assert len(r.table) == 12
    # the run's baseline and the setting being reduced; in the re-check, its baseline and best beside them
    assert most[0] <= 3, f"{most[0]} settings' per-deal values held at once"
