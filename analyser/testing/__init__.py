"""The test kit a game is checked with (analyser.testing.kit)."""
