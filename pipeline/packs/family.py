"""Which game of the family a pack holds: the ``game`` entry of its schema metadata.

A pack of Black Hole says nothing (so every Black Hole pack is byte for byte
what it was before the other games came); a pack of another game says its
name (:data:`GAME_KEY`). Every reader asks :func:`pack_game`, which refuses a
name it does not know in one line naming the file; a stage given a pack of
another game than the one it was asked for refuses it (:func:`same_game`).

>>> from pipeline.game.games import BLACK_HOLE, game_named
>>> game_entries(game_named("golf")), game_entries(BLACK_HOLE)
({'game': 'golf'}, {})
>>> pack_game(pa.schema([]).with_metadata({"game": "golf"}), source="p.parquet").title
'Golf'
>>> pack_game(pa.schema([]).with_metadata({"game": "chess"}), source="p.parquet")
Traceback (most recent call last):
...
pipeline.packs.family.GameMixError: p.parquet: unknown game 'chess' in the schema metadata: the games are black_hole, all_in_a_row, dead_king_golf, golf, relaxed_golf
"""

from __future__ import annotations

from collections.abc import Iterable

import pyarrow as pa

from pipeline.errors import BlackholeError
from pipeline.game.deal import Deal
from pipeline.game.games import (
    DEFAULT_GAME,
    GAME_KEY,
    GAME_NAMES,
    Game,
    UnknownGame,
    recorded_game,
)


class GameMixError(BlackholeError, ValueError):
    """A pack of an unknown game, of another game than asked for, or of a game a stage does not handle yet."""


def game_entries(game: Game) -> dict[str, str]:
    """The schema metadata that says ``game``: none for Black Hole, ``{"game": NAME}`` for the others
    (:attr:`~pipeline.game.games.Game.game_entry`)."""
    return game.game_entry


def pack_game(table: pa.Table | pa.Schema, *, source: str) -> Game:
    """The game the schema metadata of ``table`` (a table or a schema) says; Black Hole when it says none.

    Raises GameMixError naming ``source`` for a name that is none of the games.
    """
    schema = table if isinstance(table, pa.Schema) else table.schema
    name = (schema.metadata or {}).get(GAME_KEY.encode())
    text = None if name is None else name.decode(errors="replace")
    try:
        return recorded_game(text)
    except UnknownGame:
        games = ", ".join(GAME_NAMES)
        raise GameMixError(
            f"{source}: unknown game {text!r} in the schema metadata: the games are {games}"
        ) from None


def same_game(found: Game, wanted: Game | None, *, source: str) -> Game:
    """``found``, the game of the pack ``source``, once it is ``wanted`` (None: any game).

    >>> from pipeline.game.games import game_named
    >>> same_game(game_named("golf"), game_named("all_in_a_row"), source="p.parquet")
    Traceback (most recent call last):
    ...
    pipeline.packs.family.GameMixError: p.parquet: a Golf pack, not All in a Row: games are never mixed (give --game golf, or a pack of All in a Row)
    """
    if wanted is not None and wanted is not found:
        raise GameMixError(
            f"{source}: {found.a_title} pack, not {wanted.title}: games are never mixed "
            f"(give --game {found.name}, or a pack of {wanted.title})"
        )
    return found


def one_game(deals: Iterable[Deal]) -> Game:
    """The game every one of ``deals`` is of (Black Hole when there are none); ValueError when they mix games.

    >>> from pipeline.game.games import game_named
    >>> from pipeline.game.shuffles import seeded_deal
    >>> one_game([seeded_deal(1, 0, game_named("golf")), seeded_deal(1, 1, game_named("golf"))]).name
    'golf'
    """
    games = {deal.game for deal in deals}
    if len(games) > 1:
        raise ValueError(f"deals of {len(games)} games: give the deals of one game at a time")
    return games.pop() if games else DEFAULT_GAME
