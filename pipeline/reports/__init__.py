"""What people see: summaries, terminal tables, charts and pictures.

- ``summary``: a pack's verdicts, win rate, tiers, grade statuses and metric spreads.
- ``tables``: rich tables for the terminal, from summaries and manifests.
- ``results``: solve and cross-check results as text (black-hole-solver's words) and JSON.
- ``charts``: a pack's difficulty histogram and scatter, as PNG files.
- ``picture``: a deal drawn as a player sees it, as a PNG file.

Reports read packs and stage results; nothing below imports them.
"""

__all__ = ["charts", "picture", "results", "summary", "tables"]
