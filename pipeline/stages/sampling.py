"""Samples chosen by hashing, so that they depend on the deal alone: not on order, workers or backend.

>>> share("0:seed-7-0") == share("0:seed-7-0"), 0 <= share("0:seed-7-0") < 1
(True, True)
"""

from __future__ import annotations

import hashlib


def share(text: str) -> float:
    """A number in [0, 1) read off the SHA-256 of ``text``: uniform over texts, fixed for each."""
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def graded(deal_id: str, *, fraction: float, seed: int) -> bool:
    """Whether a solved deal is in the grade sample: with probability ``fraction``, by ``seed`` and its id.

    The text hashed starts ``grade:``, so the grade sample is independent of the
    cross-check sample even with the same seed and fraction.
    """
    return fraction >= 1.0 or share(f"grade:{seed}:{deal_id}") < fraction
