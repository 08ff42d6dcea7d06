"""PySol FC's deal numbers: which there are.

Apart from :mod:`pipeline.game.pysol`, which deals them (and loads numpy), so that
:mod:`pipeline.game.shuffles` checks a number without loading the dealing, and the
dealing does not import the module that imports it.

>>> MAX_PYSOL_DEAL == 2**33 - 1
True
"""

MAX_PYSOL_DEAL = 2**33 - 1
"""The highest PySol FC deal number (deals run from 1)."""
