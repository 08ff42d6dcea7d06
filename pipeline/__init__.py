"""blackhole: proven-winnable, graded puzzle packs for the solitaire Black Hole.

The names a program needs, importable from here (``docs/python-api.md`` shows
each with an example)::

    import pipeline as blackhole

    deal = blackhole.seeded_deal(20261129, 0)        # or Deal.from_board_text(...), pysol_deal(1)
    deal.deal_id                                     # 'seed-20261129-0': deal_of_id(deal.deal_id) == deal
    golf = blackhole.pysol_deal(1, blackhole.game_named("golf"))  # the family's other games: solve, crosscheck
    result = blackhole.solve(deal)                   # a SolveResult: verdict, solution, ...
    grade = blackhole.grade(deal, result)            # a Grade: metrics, players' figures, difficulty, tier
    check = blackhole.crosscheck(deal, result)       # a Check: CP-SAT's word on the verdict
    grade.to_dict()                                  # plain JSON-ready values, the players by name
    deals = [blackhole.pysol_deal(n) for n in range(1, 201)]
    results = list(blackhole.solve_many(deals, jobs=2))             # in input order, on the worker pool
    grades = blackhole.grade_many(deals, results, jobs=2, progress=True)  # an iterator; a bar on stderr
    blackhole.card_name(0), blackhole.parse_card("AH")               # ('AH', 0)
    pack = blackhole.open_pack("output/packs/default")
    entry = pack.find("seed-20261129-0")             # a PackEntry: deal, result, grade

Every call checks its arguments where they enter: a value of the wrong type is a
``TypeError`` naming the parameter, a value out of range an ``ArgumentError``
(or the call's own error: ``BoardError``, ``CardError``, ``PackError``...), all of
them ``BlackholeError`` but the ``TypeError``.

Each name is loaded on first use, and each call loads only what it needs:
``import pipeline`` and ``blackhole --help`` stay quick, and ``solve`` loads
the engine (compiled with Numba) but neither OR-Tools nor Arrow nor pandas.

>>> import pipeline
>>> pipeline.Verdict.SOLVED.value, "solve_many" in pipeline.__all__
('solved', True)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pipeline.version import VERSION as __version__

# Each exported name and the module that defines it.
_FACE = {
    # deals
    "Game": "pipeline.game.games",
    "game_named": "pipeline.game.games",
    "UnknownGame": "pipeline.game.games",
    "Deal": "pipeline.game.deal",
    "BoardError": "pipeline.game.deal",
    "seeded_deal": "pipeline.game.shuffles",
    "pysol_deal": "pipeline.game.shuffles",
    "deal_of_id": "pipeline.game.shuffles",
    "card_name": "pipeline.game.cards",
    "parse_card": "pipeline.game.cards",
    "CardError": "pipeline.game.cards",
    "IllegalMove": "pipeline.game.rules",
    "Position": "pipeline.game.rules",
    "replay": "pipeline.game.rules",
    # each stage on one deal, and on many on the worker pool
    "solve": "pipeline.stages.face_solve",
    "solve_many": "pipeline.stages.face_solve",
    "grade": "pipeline.stages.face_grade",
    "grade_many": "pipeline.stages.face_grade",
    "crosscheck": "pipeline.stages.face_crosscheck",
    "crosscheck_many": "pipeline.stages.face_crosscheck",
    # their settings and results
    "SolveSettings": "pipeline.stages.settings",
    "GradeSettings": "pipeline.stages.settings",
    "CrosscheckSettings": "pipeline.stages.settings",
    "SolveResult": "pipeline.game.verdicts",
    "Verdict": "pipeline.game.verdicts",
    "Grade": "pipeline.stages.grade",
    "GradeStatus": "pipeline.packs.labels",
    "Tier": "pipeline.packs.labels",
    "Tiers": "pipeline.stages.tiers",
    "Difficulty": "pipeline.stages.tiers",
    "Figure": "pipeline.stages.tiers",
    "load_tiers": "pipeline.stages.tiers",
    # player models
    "Player": "pipeline.game.players",
    "PlayerFigures": "pipeline.game.players",
    "policy": "pipeline.game.players",
    "played_out": "pipeline.game.players",
    "PolicyError": "pipeline.game.players",
    "Check": "pipeline.stages.crosscheck",
    # packs
    "open_pack": "pipeline.stages.pack_entries",
    "Pack": "pipeline.stages.pack_entries",
    "PackEntry": "pipeline.stages.pack_entries",
    "PackTier": "pipeline.packs.labels",
    "Manifest": "pipeline.packs.manifest",
    "PackError": "pipeline.packs.parquet",
    # errors
    "BlackholeError": "pipeline.errors",
    "ArgumentError": "pipeline.errors",
    "ConfigError": "pipeline.toml_files",
    "InternalError": "pipeline.errors",
}

__all__ = ["__version__", *_FACE]

if TYPE_CHECKING:
    from pipeline.errors import ArgumentError, BlackholeError, InternalError
    from pipeline.game.cards import CardError, card_name, parse_card
    from pipeline.game.deal import BoardError, Deal
    from pipeline.game.games import Game, UnknownGame, game_named
    from pipeline.game.players import Player, PlayerFigures, PolicyError, played_out, policy
    from pipeline.game.rules import IllegalMove, Position, replay
    from pipeline.game.shuffles import deal_of_id, pysol_deal, seeded_deal
    from pipeline.game.verdicts import SolveResult, Verdict
    from pipeline.packs.labels import GradeStatus, PackTier, Tier
    from pipeline.packs.manifest import Manifest
    from pipeline.packs.parquet import PackError
    from pipeline.stages.crosscheck import Check
    from pipeline.stages.face_crosscheck import crosscheck, crosscheck_many
    from pipeline.stages.face_grade import grade, grade_many
    from pipeline.stages.face_solve import solve, solve_many
    from pipeline.stages.grade import Grade
    from pipeline.stages.pack_entries import Pack, PackEntry, open_pack
    from pipeline.stages.settings import CrosscheckSettings, GradeSettings, SolveSettings
    from pipeline.stages.tiers import Difficulty, Figure, Tiers, load_tiers
    from pipeline.toml_files import ConfigError


def __getattr__(name: str) -> Any:
    """Load an exported name from its module on first use (PEP 562)."""
    if name not in _FACE:
        raise AttributeError(f"module 'pipeline' has no attribute {name!r}")
    value = getattr(importlib.import_module(_FACE[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_FACE))
