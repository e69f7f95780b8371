"""Pure numpy/pandas statistics: tallies of records, intervals, summary tables."""
