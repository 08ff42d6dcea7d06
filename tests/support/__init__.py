"""Tools the tests and the benchmarks share, kept out of the installed package.

- ``hints``: the gallery's hints answered in Python, the reference its in-browser solver is checked against.
- ``chromium``: headless Chromium, to test and measure the gallery in a real browser.
- ``bots``: player models playing a deal attempt by attempt, with the events and counts the gallery records.

They check and time the package rather than being part of it: a user of
``pipeline`` never needs them, and ``chromium`` drives Playwright, a
development dependency. The tests import them as ``tests.support.X``; the
benchmarks put the repository's root on ``sys.path`` first.
"""

__all__ = ["bots", "chromium", "hints"]
