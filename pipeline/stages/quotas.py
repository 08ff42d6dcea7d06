"""Per-tier quotas of a curated pack: read from ``easy=50,medium=50`` text, or checked when given as a mapping.

>>> parse_quotas("easy=2, expert=1")
{'easy': 2, 'expert': 1}
>>> parse_quotas("easy=2,unsolvable=1")
Traceback (most recent call last):
...
pipeline.stages.quotas.QuotaError: 'unsolvable=1': unknown tier 'unsolvable' (tiers: easy, medium, hard, expert)
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pipeline.errors import BlackholeError
from pipeline.limits import MAX_INT64
from pipeline.packs.labels import SOLVABLE_TIERS

_WHOLE_NUMBER = re.compile(r"[0-9]+")


class QuotaError(BlackholeError, ValueError):
    """Per-tier quotas that are not ``tier=count`` pairs of known tiers and whole numbers."""


def parse_quotas(text: str) -> dict[str, int]:
    """Quotas from ``easy=50,medium=50,...``, in tier order; QuotaError names the bad part.

    >>> parse_quotas("hard=0,easy=10")
    {'easy': 10, 'hard': 0}
    >>> parse_quotas("easy=5,easy=6")
    Traceback (most recent call last):
    ...
    pipeline.stages.quotas.QuotaError: 'easy=6': tier easy is given twice
    """
    if not text.strip():
        raise QuotaError("no quotas given; expected tier=count pairs such as easy=50,medium=50")
    quotas: dict[str, int] = {}
    for part in text.split(","):
        item = part.strip()
        name, equals, count = (word.strip() for word in item.partition("="))
        if not item:
            raise QuotaError(f"empty quota in {text!r}; expected tier=count pairs such as easy=50,medium=50")
        if not equals:
            raise QuotaError(f"{item!r}: expected tier=count, such as easy=50")
        if name not in SOLVABLE_TIERS:
            raise QuotaError(f"{item!r}: unknown tier {name!r} (tiers: {', '.join(SOLVABLE_TIERS)})")
        if not _WHOLE_NUMBER.fullmatch(count):
            raise QuotaError(f"{item!r}: the count must be a whole number, at least 0")
        if len(count.lstrip("0")) > len(str(MAX_INT64)) or int(count) > MAX_INT64:
            raise QuotaError(f"{item!r}: the count must be at most {MAX_INT64}")
        if name in quotas:
            raise QuotaError(f"{item!r}: tier {name} is given twice")
        quotas[name] = int(count)
    return {tier: quotas[tier] for tier in SOLVABLE_TIERS if tier in quotas}


def checked_quotas(per_tier: Mapping[str, int] | None) -> dict[str, int] | None:
    """The quotas ``per_tier`` in tier order (None for none), once they are known tiers and whole counts.

    >>> checked_quotas({"hard": 1, "easy": 2})
    {'easy': 2, 'hard': 1}
    >>> checked_quotas({"easy": -1})
    Traceback (most recent call last):
    ...
    pipeline.stages.quotas.QuotaError: easy=-1: the count must be a whole number, at least 0
    """
    if per_tier is None:
        return None
    for tier, wanted in per_tier.items():
        if tier not in SOLVABLE_TIERS:
            raise QuotaError(f"unknown tier {tier!r} (tiers: {', '.join(SOLVABLE_TIERS)})")
        if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted < 0:
            raise QuotaError(f"{tier}={wanted!r}: the count must be a whole number, at least 0")
        if wanted > MAX_INT64:
            raise QuotaError(f"{tier}={wanted!r}: the count must be at most {MAX_INT64}")
    return {tier: per_tier[tier] for tier in SOLVABLE_TIERS if tier in per_tier}
