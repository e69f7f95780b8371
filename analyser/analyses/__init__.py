"""The analyses, one module per command: simulate, trace, compare, tournament,
sweep, vary, skill (its ladder in skill_ladder) and the balance report, each a
plan over the engine's pipeline (analyser.engine.pipeline), read with analyser.stats.
"""
