"""What runs a game: the registry of games, a run's configuration, policies and
their parameters, the pipeline that plays a plan's chunks, progress and errors.

Plain Python over the compiled games (analyser.games) and kernels
(analyser.kernels); the analyses (analyser.analyses) are plans over it.
"""
