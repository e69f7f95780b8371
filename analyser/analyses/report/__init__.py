"""Balance reports: is a seat, a player count, a rule setting or a policy unfair, and by how much?

``analyser.report(game, ...)`` (analyser.analyses.report.builder) runs the analyser's
own simulations, comparisons and tournament and reads them with its own
statistics (analyser.analyses.report.sections); analyser.analyses.report.template renders the
Markdown, HTML and JSON, and analyser.analyses.report.writer writes the Markdown, the
JSON and the figures (analyser.plots.report) all at once or not at all.
"""
