"""Per-tier quotas: read from text, checked as a mapping, errors naming the bad part."""

from __future__ import annotations

import pytest

from pipeline.stages.quotas import QuotaError, parse_quotas


def test_parse_quotas_reads_spaces_and_zero_in_tier_order():
    assert parse_quotas(" expert = 0 , easy=50,medium=007") == {"easy": 50, "medium": 7, "expert": 0}


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("", "no quotas given"),
        ("easy=5,,hard=2", "empty quota in 'easy=5,,hard=2'"),
        ("easy=5,", "empty quota"),
        ("easy", "'easy': expected tier=count"),
        ("easy=", "'easy=': the count"),
        ("easy=-1", "'easy=-1': the count"),
        ("easy=1.5", "'easy=1.5': the count"),
        ("easy=ten", "'easy=ten': the count"),
        ("unsolvable=3", "'unsolvable=3': unknown tier 'unsolvable'"),
        ("Easy=3", "'Easy=3': unknown tier 'Easy'"),
        ("=3", "'=3': unknown tier ''"),
        ("hard=1,easy=2,hard=3", "'hard=3': tier hard is given twice"),
    ],
)
def test_parse_quotas_errors_name_the_bad_part(text, named):
    with pytest.raises(QuotaError) as error:
        parse_quotas(text)
    message = str(error.value)
    assert named in message
    assert "\n" not in message
