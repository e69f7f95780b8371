"""Balance reports: is a seat, a player count, a rule setting or a policy unfair, and by how much?

``analyser.report(game, ...)`` (analyser.analyses.report.builder) runs the analyser's
own simulations, comparisons and tournament and reads them with its own
statistics (analyser.analyses.report.sections); analyser.analyses.report.template renders the
Markdown, the notebook's HTML and the JSON, analyser.analyses.report.html the page to send
(the Markdown's sections through analyser.analyses.report.markup, figures embedded), and
analyser.analyses.report.writer writes the Markdown, the JSON and the figures
(analyser.plots.report), or the page and the JSON, all at once or not at all.
"""
