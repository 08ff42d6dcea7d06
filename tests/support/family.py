"""The family's games as the tests name them, and PySol FC deal 1 of each layout as ``pysol_cards`` writes it."""

from __future__ import annotations

from pipeline.game.games import ALL_IN_A_ROW, DEAD_KING_GOLF, GOLF, RELAXED_GOLF

GOLFS = (DEAD_KING_GOLF, GOLF, RELAXED_GOLF)
FAMILY = (ALL_IN_A_ROW, *GOLFS)
"""Every game but Black Hole."""
FAMILY_NAMES = [game.name for game in FAMILY]
GOLF_NAMES = [game.name for game in GOLFS]

# PySol FC All in a Row deal 1. Free cards: 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H AS.
ALL_IN_A_ROW_1 = """\
Foundations: -
JD QC QH 6D
2D KH 4H 8S
9H 3H AC 8D
JC 2S 4D QS
5D KS 7S 6C
7H 9D 3S 3D
7C QD TD 8C
5H JS 4S TC
KD AH TH 6S
KC 3C 8H 9C
9S 4C 2C 2H
5S 5C JH 6H
AD TS 7D AS
"""
# PySol FC Golf deal 1 (the same deal under the three Golf rule sets).
GOLF_1 = """\
Talon: 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
Foundations: TH
JD 5H KH AS 4H
2D KD 3H AH AC
9H KC 2S 3C 4D
JC 9S KS 4C 7S
5D 5S 9D 5C 3S
7H AD QD TS TD
7C QC JS QH 4S
"""
