"""Which of many texts came before, in about 9 bytes each: the repeat checks of ``import`` and the stages.

A text is kept as a 64-bit number (:func:`text_number`, the first 64 bits of
its SHA-256), so two different texts may, once in about 10**19 pairs, share
one: a caller that must be exact looks the earlier text up again when
:meth:`SeenNumbers.add` says a number came before.

>>> seen = SeenNumbers()
>>> seen.add(text_number("seed-1-0")), seen.add(text_number("seed-1-1")), seen.add(text_number("seed-1-0"))
(True, True, False)
"""

from __future__ import annotations

import hashlib

import numpy as np


def text_number(text: str) -> int:
    """The first 64 bits of the SHA-256 of ``text`` (UTF-8), as an unsigned integer."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class SeenNumbers:
    """Numbers seen so far: about 9 bytes a number.

    The older ones are kept in one sorted numpy array (8 bytes a number), the
    newest in a set of at most 1/64 as many (and at least :attr:`NEWEST`),
    merged into the array when it is full: each number is looked up as it is
    added, and the merges move each number a logarithmic number of times.
    """

    NEWEST = 8192

    def __init__(self) -> None:
        self.older = np.empty(0, np.uint64)
        self.newest: set[int] = set()

    def add(self, number: int) -> bool:
        """Add ``number``; False, adding nothing, when it was seen before."""
        if number in self.newest:
            return False
        key = np.uint64(number)  # searchsorted with a Python int would compare as objects, 100 times slower
        at = self.older.searchsorted(key)
        if at < len(self.older) and self.older[at] == key:
            return False
        self.newest.add(number)
        if len(self.newest) >= max(self.NEWEST, len(self.older) >> 6):
            self._merge()
        return True

    def _merge(self) -> None:
        size = len(self.older)
        newest = np.sort(np.fromiter(self.newest, np.uint64, len(self.newest)))
        self.older.resize(size + len(newest), refcheck=False)  # in place when it can: never two copies
        self.older[size:] = newest
        self.older.sort(kind="stable")  # two sorted runs: one merge, with a buffer the size of the newest
        self.newest = set()
