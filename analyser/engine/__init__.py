"""What runs a game: a run's configuration, the pipeline that plays a plan's chunks
(executors, stop rules, the run directory) and progress.

Plain Python over the compiled games (analyser.games) and kernels
(analyser.kernels); the analyses (analyser.analyses) are plans over it.
"""
