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

:class:`Stream` reads a JSON text from a binary file a piece at a time, for
a caller that walks its outer structure itself (``{``, a key, ``,``) and
takes each inner value whole, strictly as :func:`loads` does: a file of any
size is read in the memory of its largest value.

>>> import io
>>> stream = Stream(io.BytesIO(b'{"deals": [{"id": 1}, {"id": 2e999}]}'))
>>> stream.take("{"), stream.key(), stream.take("[")
(None, 'deals', None)
>>> stream.value(), stream.take(","), stream.value()
({'id': 1}, None, {'id': Refused(kind='float', text='2e999')})
>>> stream.take("]"), stream.take("}"), stream.end()
(None, None, None)
"""

from __future__ import annotations

import codecs
import hashlib
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Literal

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


class NotText(ValueError):
    """Bytes that are not UTF-8 text, at the byte offset ``byte`` of the file (from 0)."""

    def __init__(self, byte: int) -> None:
        super().__init__(f"byte {byte}: not UTF-8 text")
        self.byte = byte


class StreamError(ValueError):
    """JSON that does not parse, at line ``lineno`` and column ``colno`` (from 1) of the whole text: ``msg`` says how."""

    def __init__(self, msg: str, lineno: int, colno: int) -> None:
        super().__init__(f"{msg}: line {lineno} column {colno}")
        self.msg, self.lineno, self.colno = msg, lineno, colno


class TooLong(ValueError):
    """One value of more than ``limit`` characters, starting at line ``lineno`` and column ``colno``."""

    def __init__(self, limit: int, lineno: int, colno: int) -> None:
        super().__init__(f"a value longer than {limit:,} characters: line {lineno} column {colno}")
        self.limit, self.lineno, self.colno = limit, lineno, colno


LONGEST_VALUE = 1 << 26
"""The most characters one value read by :meth:`Stream.value` may have (64 Mi): a file is read in the memory
of its largest value, so a value without end (a string from ``/dev/zero`` to a FIFO) stops there."""

_SPACE = re.compile(r"[ \t\n\r]*")
_NEAR_END = (
    16  # an error this close to the end of the text read so far may be the piece's end, not the file's
)
_PIECE = 1 << 20  # bytes read at a time


class Stream:
    """A JSON text read from the binary file ``source`` a piece at a time (see the module).

    Values are read by :meth:`value` as :func:`loads` reads them (with :class:`Refused`
    in place of each value refused; :attr:`refused` counts them); the structure around them
    by :meth:`peek`, :meth:`take` and :meth:`key`. A syntax error is a :class:`StreamError`
    at its line and column in the whole text; bytes that are not UTF-8, :class:`NotText`.
    :attr:`sha256` is the digest of the bytes read so far (of the whole file after :meth:`end`).
    """

    def __init__(self, source: BinaryIO, piece: int | None = None) -> None:
        self._source, self._piece = source, piece or _PIECE
        self._bytes = 0  # bytes read
        self._digest = hashlib.sha256()
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self._text = ""  # the text read and not yet dropped
        self._at = 0  # where reading is in _text
        self._dropped = 0  # characters dropped before _text
        self._lines = 0  # newlines among them
        self._line_start = 0  # where the line of _text[0] starts, in characters from the start
        self._ended = False  # the whole file is in _text
        self._started = False
        self.refused = 0
        self._json = json.JSONDecoder(
            parse_constant=self._constant,
            parse_float=self._float,
            parse_int=self._int,
            object_pairs_hook=self._object,
        )

    @property
    def sha256(self) -> str:
        return self._digest.hexdigest()

    def peek(self) -> str:
        """The next character that is not white space ("" at the end of the text); nothing is taken."""
        while True:
            self._at = _SPACE.match(self._text, self._at).end()  # type: ignore[union-attr]
            if self._at < len(self._text) or self._ended:
                return self._text[self._at : self._at + 1]
            self._more()

    def take(self, char: str) -> None:
        """Take the character ``char`` (after white space); StreamError when another comes."""
        if self.peek() != char:
            raise self._error(_EXPECTED.get(char, f"Expecting {char!r}"), self._at)
        self._at += 1

    def key(self) -> str:
        """An object's key and the ``:`` after it."""
        if self.peek() != '"':
            raise self._error("Expecting property name enclosed in double quotes", self._at)
        found = self.value()
        self.take(":")
        return str(found)

    def value(self) -> Any:
        """The next JSON value, whole."""
        self.peek()
        while True:
            try:
                found, end = self._json.raw_decode(self._text, self._at)
            except json.JSONDecodeError as error:
                cut = error.pos >= len(self._text) - _NEAR_END or error.msg.startswith("Unterminated string")
                if cut and not self._ended:
                    self._grow()
                    continue
                raise self._error(error.msg, error.pos) from None
            if end >= len(self._text) - _NEAR_END and not self._ended:  # a number may go on: "2." of "2.5"
                self._grow()
                continue
            self._at = end
            return found

    def end(self) -> None:
        """Check that nothing but white space is left (StreamError otherwise) and the file was read whole."""
        if self.peek():
            raise self._error("Extra data", self._at)

    def _grow(self) -> None:
        """Read more of the value that starts where reading is; TooLong past :data:`LONGEST_VALUE`."""
        if len(self._text) - self._at > LONGEST_VALUE:
            error = self._error("", self._at)
            raise TooLong(LONGEST_VALUE, error.lineno, error.colno)
        self._more(grow=True)

    def _more(self, *, grow: bool = False) -> None:
        """Read the next piece (when ``grow``, at least as much as is held: a long value is parsed again
        and again as it is read, so the pieces double); the text already taken is dropped first."""
        taken = self._text[: self._at]
        newline = taken.rfind("\n")
        if newline >= 0:
            self._lines += taken.count("\n")
            self._line_start = self._dropped + newline + 1
        self._dropped += self._at
        self._text, self._at = self._text[self._at :], 0
        size = max(self._piece, len(self._text)) if grow else self._piece
        data = self._source.read(size)
        self._digest.update(data)
        pending = len(self._decoder.getstate()[0])
        try:
            text = self._decoder.decode(data, final=not data)
        except UnicodeDecodeError as error:
            raise NotText(self._bytes - pending + error.start) from None
        self._bytes += len(data)
        if not self._started:
            text, self._started = text.removeprefix("\ufeff"), bool(text)
        self._text += text
        self._ended = not data

    def _error(self, msg: str, pos: int) -> StreamError:
        line = self._lines + self._text.count("\n", 0, pos) + 1
        newline = self._text.rfind("\n", 0, pos)
        start = self._dropped + newline + 1 if newline >= 0 else self._line_start
        return StreamError(msg, line, self._dropped + pos - start + 1)

    def _constant(self, name: str) -> Refused:
        self.refused += 1
        return Refused("constant", name)

    def _float(self, text: str) -> float | Refused:
        found = _float(text)
        self.refused += isinstance(found, Refused)
        return found

    def _int(self, text: str) -> int | Refused:
        found = _int(text)
        self.refused += isinstance(found, Refused)
        return found

    def _object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any] | Refused:
        found = _object(pairs)
        self.refused += isinstance(found, Refused)
        return found


_EXPECTED = {
    ":": "Expecting ':' delimiter",
    ",": "Expecting ',' delimiter",
    "{": "Expecting '{'",
    "[": "Expecting '['",
}


def json_type(value: Any) -> str:
    """The JSON type of the parsed value ``value``, for a message.

    >>> [json_type(value) for value in (None, True, 1, 1.5, "", [], {})]
    ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object']
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
