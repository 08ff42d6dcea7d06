"""Play records: what play-testers did in the gallery, read back, checked, merged and learnt from.

- ``events``: an attempt's events replayed under the rules, with undo, redo and restart; their counts.
- ``exports``: a gallery's export file (``plays.schema.json`` beside this module) read and checked.
- ``deals``: the deals of a pack the records name: board, tier, the player models' figures.
- ``checks``: an export checked against its pack: the deals exist, every attempt replays, its counts agree.
- ``merge``: attempts of several exports merged by id, none twice; notes and marks, the later export's.
- ``records``: ``PLAYS.parquet``, written atomically and read back checked.
- ``played``: the records read with their pack, once they belong together.
- ``observed``: what the players met, per deal and per tier, with intervals.
- ``intervals``: Wilson and Student t intervals, Spearman's rank correlation and the seeded bootstrap.
- ``likelihood``: how likely each player model makes the attempts observed.
- ``model_check``: the models checked against play: their rank correlations and the best predictor.
- ``spool``: an import's records on disk meanwhile, checked, merged and handed back in rows.
- ``importing``: ``blackhole plays import``: export files into ``PLAYS.parquet``, a record at a time.
- ``curation``: ``blackhole curate --plays``: rejected deals left out, the order from play.

Play records sit above the stages (they read packs, replay by the rules
and curate) and below the reports, which show them.
"""

__all__ = [
    "checks",
    "curation",
    "deals",
    "events",
    "exports",
    "importing",
    "intervals",
    "likelihood",
    "merge",
    "model_check",
    "observed",
    "played",
    "records",
    "spool",
]
