"""What people see: summaries, terminal tables, charts, pictures and the gallery.

- ``summary``: a pack's description (:mod:`pipeline.tally` counts it) as terminal tables and as JSON.
- ``words``: a player's figures and a pack's tiers in a player's words ("about 1 game in 40").
- ``tables``: rich tables for the terminal, from summaries and manifests.
- ``split_tables``: a table too wide for the terminal split into parts that each repeat its key, never cut.
- ``results``: solve and cross-check results as text (black-hole-solver's words) and JSON.
- ``bhs_dialect``: a solve result exactly as black-hole-solver prints it (``Solved!``, its move lines), its exit codes.
- ``board_formats``: the formats ``solve-board`` writes (text, json, jsonl, bhs), light enough for the CLI.
- ``board_answers``: a stream of boards' answers in each format, and the stream's exit code.
- ``charts``: a pack's difficulty histogram, scatter, players' win chances by tier and win rate by block, as PNG files.
- ``picture``: a deal drawn as a player sees it, as a PNG file.
- ``gallery``: a pack as a static web site to browse and play (``gallery_site/`` holds its page and scripts).
- ``play_tables``: play records for the terminal: an import, what play-testers met, the models against play.
- ``play_charts``: the chart of a model's predictions against what play-testers met, as a PNG file.

Reports render what packs, stage results and tallies hold; nothing below imports them. The tools
that test and measure the gallery (its hints answered in Python, headless
Chromium) live outside the package, in ``tests/support/``.
"""

__all__ = [
    "bhs_dialect",
    "board_answers",
    "board_formats",
    "charts",
    "gallery",
    "picture",
    "play_charts",
    "play_tables",
    "results",
    "split_tables",
    "summary",
    "tables",
    "words",
]
