"""Free text that users type: the rule a name must keep to become a pack's folder, and text shown escaped.

A run's name and a curated pack's name become folders, and the manifest of
every pack repeats its name: :func:`folder_name_problem` is the one rule that
decides, both where a pack is written (``[run] name``, ``curate --name``) and
where its manifest is read (:mod:`pipeline.packs.manifest`), so nothing
writes a pack that its readers refuse. Deal ids, notes and paths come from
files and command lines too; :func:`printable` shows any of them on a
terminal with its control characters escaped, so an escape sequence in a
deal id cannot recolour, move or clear the terminal that prints it.

>>> folder_name_problem("best") is None
True
>>> folder_name_problem("\\x1b[31mred"), folder_name_problem("a/b")
('it holds a control character', 'expected a pack name, not a path')
>>> print(printable("seed-1-\\x1b[31m2\\tnote"))
seed-1-\\x1b[31m2\\tnote
"""

from __future__ import annotations

NAME_BYTES = 200
"""The longest name a pack's folder may have, in UTF-8 bytes: below the 255 of common file systems, so that
the hidden staging folders beside it (``.NAME.tmp-PID``, ``.NAME.curating-XXXXXXXX``) fit too."""


def folder_name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a pack's folder (beside other packs, and in its manifest); None when it can.

    A name is one folder name: not empty, not ``.`` or ``..``, without ``/``
    or ``\\``, every character printable (no control or format character, no
    line or paragraph separator, no character a file system gave back
    undecoded), at most :data:`NAME_BYTES` bytes in UTF-8.

    >>> folder_name_problem("lundi 3 juin"), folder_name_problem("..")
    (None, 'expected a pack name, not a path')
    >>> folder_name_problem("tab\\there"), folder_name_problem("x" * 201)
    ('it holds a control character', 'longer than 200 bytes in UTF-8')
    """
    if not name or name in (".", "..") or "/" in name or "\\" in name:
        return "expected a pack name, not a path"
    if not name.isprintable():
        return "it holds a control character"
    if len(name.encode("utf-8")) > NAME_BYTES:
        return f"longer than {NAME_BYTES} bytes in UTF-8"
    return None


def printable(text: str) -> str:
    """``text`` with each character that is not printable escaped as Python writes it (``\\x1b``, ``\\t``,
    ``\\u202e``, ``\\udce9``): one line that does nothing to the terminal showing it.

    >>> printable("packs/p: deal \\x1b[2J\\u202eevil")
    'packs/p: deal \\\\x1b[2J\\\\u202eevil'
    >>> printable("plain text, accents é and all") == "plain text, accents é and all"
    True
    """
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode() for char in text)


def one_line(text: str, limit: int = 40, *, ascii: bool = False) -> str:
    """``text`` on one line for a message, cut at ``limit`` characters (its last three ``...``): the
    characters that are not printable escaped (:func:`printable`); or, with ``ascii`` (a manifest's
    messages, as they always were), every character past ASCII escaped and line breaks made spaces.

    >>> one_line("a\\nb é"), one_line("a\\nb é", ascii=True), one_line("x" * 50)
    ('a\\\\nb é', 'a b \\\\xe9', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...')
    """
    if ascii:
        text = " ".join(text.encode("ascii", "backslashreplace").decode().splitlines())
    else:
        text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."
