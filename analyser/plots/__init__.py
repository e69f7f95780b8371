"""Plots of results: matplotlib figures, built without pyplot (no window, no global state)."""
from analyser.plots.compare import paired_difference
from analyser.plots.figures import PlotFigure, check_plot_path, save_figure
from analyser.plots.simulate import length_distribution, result_figure, win_shares
from analyser.plots.sweep import sweep_curve, sweep_heatmap
from analyser.plots.tournament import head_to_head

__all__ = ["PlotFigure", "check_plot_path", "head_to_head", "length_distribution", "paired_difference",
           "result_figure", "save_figure", "sweep_curve", "sweep_heatmap", "win_shares"]
