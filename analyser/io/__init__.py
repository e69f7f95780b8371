"""Results files, the one JSON encoder and the one number formatter: leaves
every layer may use, importing nothing of the package above them.
"""
