"""The game itself, as plain Python: no Numba, no Arrow.

- ``cards``: a card is an int 0..51; ``parse_card`` and ``card_name`` go both ways.
- ``games``: the games of the family as data (:class:`~pipeline.game.games.Game`:
  Black Hole, All in a Row, Dead King Golf, Golf, Relaxed Golf) and ``fits``.
- ``deal``: :class:`~pipeline.game.deal.Deal`, the piles of a game (Black Hole's
  17 of 3 by default), its foundation and talon, and its board text.
- ``shuffles``: seeded shuffles (a seed and an index always give the same deal)
  and PySol FC's numbered deals.
- ``pysol``: this project's port of PySol FC's dealing, many deals at a time with
  numpy (with ``batch_replay``, the modules here that load numpy; ``shuffles``
  imports it lazily).
- ``pysol_numbers``: which PySol FC deal numbers there are, for ``shuffles`` to check one
  without loading ``pysol``.
- ``rules``: the referee: :class:`~pipeline.game.rules.Position`, legal moves, ``replay``.
- ``batch_replay``: the referee for a batch of deals at once, with numpy: board
  text read and solutions judged in a few array operations, each row as ``rules`` judges it.
- ``canonical``: a deal's identity up to suit relabelling and pile order (``canonical_key``).
- ``verdicts``: :class:`~pipeline.game.verdicts.Verdict` and
  :class:`~pipeline.game.verdicts.SolveResult`.
- ``stats``: win rates with their 95 % interval, and the published rate.
- ``players``: the ladder of player models (``random``, ``tips``, ``lookahead-k``),
  each a policy over the legal moves, written plainly (docs/players.md).

Everything above this package may import it; it imports only the ground floor
(:mod:`pipeline.errors`).
"""

__all__ = [
    "batch_replay",
    "canonical",
    "cards",
    "deal",
    "games",
    "players",
    "pysol",
    "pysol_numbers",
    "rules",
    "shuffles",
    "stats",
    "verdicts",
]
