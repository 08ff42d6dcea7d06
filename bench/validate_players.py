"""The player models' validation for docs/players.md: the last step of `make validate-players`.

Reads a pack folder (every win graded, none sampled out) and prints, in
Markdown:

- the ladder's order: each model's mean and median win chance and dead ends,
  and, for every pair of models, the share of deals on which the stronger
  wins less often (or meets more dead ends) than the weaker, with the deal
  of the largest such gap;
- each tier's median of every model's figures (win chance, dead ends);
- the Spearman correlation of each model's expected attempts and dead ends
  with the tree score and the tree features (solution count, winnable share,
  traps);
- play-outs against the exact figures on the first PLAYOUT_DEALS wins: the
  largest |z| of every model, then each deal's z-scores (win chance without
  undo / dead ends with undo).

Writes the play-outs' numbers as JSON beside the pack's charts
(``output/reports/NAME/players-validation.json``).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path
from typing import Any

import numpy as np
from joblib import Parallel, delayed

from pipeline.engine.gametree import tree_of, winnable_keys
from pipeline.engine.playouts import Simulated, play_games
from pipeline.engine.status import Status
from pipeline.game.deal import Deal
from pipeline.game.players import PLAYERS
from pipeline.game.rules import Position
from pipeline.packs.folders import read_pack_folder
from pipeline.packs.labels import SOLVABLE_TIERS
from pipeline.plays.intervals import spearman

PLAYOUT_DEALS = 50
GAMES_ALONE = (20_000, 100_000)  # the fewest and most games without undo: 200 wins expected, within these
GAMES_WITH_UNDO = 1_000
FEATURES = ("tree_score", "solution_count", "winnable_share", "traps")


def odds(chance: float) -> str:
    return f"1 in {1 / chance:,.0f}" if chance > 0 else "never"


def ladder(rows: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| model | mean win chance | median win chance | median dead ends with undo |",
        "|---|---|---|---|",
    ]
    for player in PLAYERS:
        chances = [row[player.win_column] for row in rows]
        dead = [row[player.dead_ends_column] for row in rows]
        lines.append(
            f"| `{player.value}` | {odds(statistics.mean(chances))} | {odds(statistics.median(chances))} "
            f"| {statistics.median(dead):.1f} |"
        )
    lines += [
        "",
        "| stronger than | deals where it wins less often | largest gap (deal: weaker, stronger) "
        "| deals where it meets more dead ends |",
        "|---|---|---|---|",
    ]
    for weaker, stronger in ((a, b) for i, b in enumerate(PLAYERS) for a in PLAYERS[:i]):
        worse = [row for row in rows if row[stronger.win_column] < row[weaker.win_column]]
        stuck = sum(row[stronger.dead_ends_column] > row[weaker.dead_ends_column] for row in rows)
        example = ""
        if worse:
            row = max(worse, key=lambda r: r[weaker.win_column] / r[stronger.win_column])
            example = f"{row['deal_id']}: {odds(row[weaker.win_column])}, {odds(row[stronger.win_column])}"
        lines.append(
            f"| `{stronger.value}` than `{weaker.value}` | {share(len(worse), len(rows))} | {example} "
            f"| {share(stuck, len(rows))} |"
        )
    return lines


def share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100 * part / whole:.1f} %)"


def by_tier(rows: list[dict[str, Any]]) -> list[str]:
    tiers = list(SOLVABLE_TIERS)
    lines = [
        "| model | figure | " + " | ".join(tiers) + " | strictly ordered |",
        "|---|---|" + "---|" * (len(tiers) + 1),
    ]
    counts = {tier: sum(row["tier"] == tier for row in rows) for tier in tiers}
    for player in PLAYERS:
        for column, label in ((player.win_column, "win chance"), (player.dead_ends_column, "dead ends")):
            medians = [
                statistics.median(row[column] for row in rows if row["tier"] == tier) for tier in tiers
            ]
            falling = label == "win chance"
            ordered = all((a > b) if falling else (a < b) for a, b in zip(medians, medians[1:], strict=False))
            shown = [odds(m) if falling else f"{m:.1f}" for m in medians]
            lines.append(
                f"| `{player.value}` | {label} | " + " | ".join(shown) + f" | {'yes' if ordered else 'no'} |"
            )
    lines.append("| deals | | " + " | ".join(f"{counts[tier]:,}" for tier in tiers) + " | |")
    return lines


def correlations(rows: list[dict[str, Any]]) -> list[str]:
    lines = ["| model | " + " | ".join(f"`{f}`" for f in FEATURES) + " |", "|---|" + "---|" * len(FEATURES)]
    for player in PLAYERS:
        for label, figure in (
            ("attempts", np.array([1 / row[player.win_column] for row in rows])),
            ("dead ends", np.array([row[player.dead_ends_column] for row in rows])),
        ):
            cells = [f"{spearman(figure, np.array([float(row[f]) for row in rows])):+.2f}" for f in FEATURES]
            lines.append(f"| `{player.value}` {label} | " + " | ".join(cells) + " |")
    return lines


def playout(board: str, index: int) -> dict[str, Any] | None:
    deal = Deal.from_board_text(board)
    start = Position.start(deal)
    tree = tree_of(deal, start)
    if tree.status is not Status.EXACT:
        return None
    keys, found = winnable_keys(deal, start), {}
    for player, figures in zip(PLAYERS, tree.players, strict=True):
        games = int(min(GAMES_ALONE[1], max(GAMES_ALONE[0], math.ceil(200 / figures.win_probability))))
        alone = play_games(deal, start, player, games, seed=index, undo=False, winnable=keys)
        helped = play_games(deal, start, player, GAMES_WITH_UNDO, seed=index, undo=True, winnable=keys)
        found[player.value] = {
            "games": games,
            "win_chance": figures.win_probability,
            "simulated_win_chance": alone.mean,
            "z_win": alone.z_score(figures.win_probability, bernoulli=True),
            "z_win_normal": normal_z(alone, figures.win_probability),
            "dead_ends": figures.dead_ends,
            "simulated_dead_ends": helped.mean,
            "z_dead_ends": helped.z_score(figures.dead_ends),
        }
    return found


def normal_z(alone: Simulated, chance: float) -> float:
    """The normal approximation's z of a win count, for comparison: it overstates the tail of rare wins."""
    return (alone.mean - chance) / math.sqrt(chance * (1 - chance) / alone.games)


def playouts(rows: list[dict[str, Any]], jobs: int) -> tuple[list[str], list[dict[str, Any]]]:
    walked = Parallel(n_jobs=jobs)(
        delayed(playout)(row["board"], i) for i, row in enumerate(rows[: PLAYOUT_DEALS + 5])
    )
    kept = [(row, deal) for row, deal in zip(rows, walked, strict=False) if deal is not None][:PLAYOUT_DEALS]
    details = [{"deal_id": row["deal_id"], **deal} for row, deal in kept]
    return playout_tables(details), details


def playout_tables(details: list[dict[str, Any]]) -> list[str]:
    """The play-outs' tables: each model's largest |z| and how weak its check is, then each deal's z-scores."""
    lines = [
        "| model | games without undo (per deal) | deals with under 5 wins expected "
        "| largest \\|z\\|, win chance | largest \\|z\\|, dead ends | \\|z\\| ≥ 4 |",
        "|---|---|---|---|---|---|",
    ]
    for player in PLAYERS:
        found = [deal[player.value] for deal in details]
        z_win = [abs(one["z_win"]) for one in found]
        z_dead = [abs(one["z_dead_ends"]) for one in found]
        games = [one["games"] for one in found]
        few = sum(one["win_chance"] * one["games"] < 5 for one in found)
        lines.append(
            f"| `{player.value}` | {min(games):,} to {max(games):,} | {few} | {max(z_win):.2f} "
            f"| {max(z_dead):.2f} | {sum(z >= 4 for z in z_win + z_dead)} |"
        )
    lines += [
        "",
        "| deal | " + " | ".join(f"`{player.value}`" for player in PLAYERS) + " |",
        "|---|" + "---|" * len(PLAYERS),
    ]
    for deal in details:
        cells = [f"{deal[p.value]['z_win']:+.2f} / {deal[p.value]['z_dead_ends']:+.2f}" for p in PLAYERS]
        lines.append(f"| {deal['deal_id']} | " + " | ".join(cells) + " |")
    return lines


def main(pack: Path, jobs: int) -> None:
    table = read_pack_folder(pack)
    solvable = set(SOLVABLE_TIERS)
    rows = sorted(
        (row for row in table.to_pylist() if row["grade_status"] == "exact" and row["tier"] in solvable),
        key=lambda row: row["index"],
    )
    print(f"{len(rows):,} wins graded exactly, of {table.num_rows:,} deals\n")
    for title, lines in (
        ("The ladder", ladder(rows)),
        ("By tier (medians)", by_tier(rows)),
        ("Spearman", correlations(rows)),
    ):
        print(f"### {title}\n\n" + "\n".join(lines) + "\n")
    lines, details = playouts(rows, jobs)
    print("### Play-outs\n\n" + "\n".join(lines))
    reports = pack.parent.parent / "reports" / pack.name  # where `blackhole report` puts the pack's charts
    reports.mkdir(parents=True, exist_ok=True)
    (reports / "players-validation.json").write_text(json.dumps(details, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 2)
