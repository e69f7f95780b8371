"""Plots of results: matplotlib figures, built without pyplot (no window, no global state)."""
from analyser.plots.figures import (
    PlotFigure,
    head_to_head,
    length_distribution,
    paired_difference,
    result_figure,
    save_figure,
    sweep_curve,
    sweep_heatmap,
    win_shares,
)

__all__ = ["PlotFigure", "head_to_head", "length_distribution", "paired_difference", "result_figure",
           "save_figure", "sweep_curve", "sweep_heatmap", "win_shares"]
