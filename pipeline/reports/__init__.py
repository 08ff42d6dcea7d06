"""What people see: summaries, terminal tables, charts, pictures and the gallery.

- ``summary``: a pack's verdicts, win rate, tiers, grade statuses and metric spreads.
- ``tables``: rich tables for the terminal, from summaries and manifests.
- ``results``: solve and cross-check results as text (black-hole-solver's words) and JSON.
- ``charts``: a pack's difficulty histogram and scatter, as PNG files.
- ``picture``: a deal drawn as a player sees it, as a PNG file.
- ``gallery``: a pack as a static web site to browse and play (``gallery_site/`` holds its page and scripts).
- ``hints``: the gallery's hints answered in Python, the reference its in-browser solver is checked against.
- ``chromium``: headless Chromium, to test and measure the gallery in a real browser.

Reports read packs and stage results; nothing below imports them.
"""

__all__ = ["charts", "chromium", "gallery", "hints", "picture", "results", "summary", "tables"]
