"""Play records: what play-testers did in the gallery, read back, checked, merged and learnt from.

- ``events``: an attempt's events replayed under the rules, with undo, redo and restart; their counts.

Play records sit above the stages (they read packs, replay by the rules,
write tiers files and curate) and below the reports, which show them.
"""

__all__ = ["events"]
