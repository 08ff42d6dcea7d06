"""The compiled bit helpers agree with Python's integers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pipeline.engine.bits import lowest_bit


@given(st.integers(min_value=1, max_value=2**63 - 1))
def test_lowest_bit_is_the_index_of_the_lowest_set_bit(value):
    assert lowest_bit(value) == (value & -value).bit_length() - 1


def test_lowest_bit_of_the_sign_bit():
    assert lowest_bit(-(2**63)) == 63
