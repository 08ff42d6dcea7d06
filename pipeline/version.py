"""The package's version: what every file it writes records (``blackhole_version``), and what
``blackhole --version`` says.

On the lowest floor, so that any module may read it without importing the package's face,
which re-exports it as ``pipeline.__version__``; pyproject.toml says the same (a test checks).

>>> VERSION.count(".")
2
"""

VERSION = "0.1.0"
