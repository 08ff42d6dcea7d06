"""JSON read strictly: the values :func:`json.loads` accepts but no file of ours may hold are marked where they are.

:func:`loads` reads a JSON text as :func:`json.loads` does, except that NaN and
Infinity, a number too large for a float, an integer too long for ``int``, and
an object that gives a key twice come back as a :class:`Refused` value at
their place, so the caller can say where (:func:`walk` visits every value, in
the document's order, with its path). JSON that does not parse raises
:class:`json.JSONDecodeError`; nesting too deep for Python, RecursionError.

>>> found = loads('{"a": [1, NaN], "b": {"c": 2, "c": 3}}')
>>> [(path, value.kind, value.text) for path, value in walk(found) if isinstance(value, Refused)]
[(('a', 1), 'constant', 'NaN'), (('b',), 'key', 'c')]
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Refused:
    """A value refused, of one kind: NaN or Infinity (``constant``), a float out of range (``float``), an
    integer of more digits than ``int`` reads (``integer``), or an object with the key ``text`` twice (``key``)."""

    kind: Literal["constant", "float", "integer", "key"]
    text: str


def loads(text: str) -> Any:
    """The JSON value of ``text``, with :class:`Refused` in place of each value refused."""
    return json.loads(
        text,
        parse_constant=lambda name: Refused("constant", name),
        parse_float=_float,
        parse_int=_int,
        object_pairs_hook=_object,
    )


def walk(found: Any) -> Iterator[tuple[Path, Any]]:
    """Every value of ``found`` with its path of keys and indexes, depth first in the document's order."""
    stack: list[tuple[Path, Any]] = [((), found)]
    while stack:
        path, value = stack.pop()
        yield path, value
        if isinstance(value, dict):
            stack += reversed([((*path, key), item) for key, item in value.items()])
        elif isinstance(value, list):
            stack += reversed([((*path, number), item) for number, item in enumerate(value)])


def _float(text: str) -> float | Refused:
    value = float(text)
    return value if math.isfinite(value) else Refused("float", text)


def _int(text: str) -> int | Refused:
    try:
        return int(text)
    except ValueError:  # longer than sys.get_int_max_str_digits()
        return Refused("integer", text)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any] | Refused:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            return Refused("key", key)
        found[key] = value
    return found
