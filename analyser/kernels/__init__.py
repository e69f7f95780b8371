"""Compiled code every game shares: the kernel decorator, random streams, card
bit masks, the event log and the outcome block of a record.

Only what compiled code is made of lives here: the compile cache of every game
is keyed on this folder (see analyser.kernels.cache), so nothing that is not
compiled belongs in it.
"""
