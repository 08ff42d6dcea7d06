// The in-browser solver (solver.js's Game) against the exact Python solver on the family's
// other games: PySol FC's deals 1 to 20 of each (tests/js/golden/family_verdicts.json), and
// positions along random play and the solutions (tests/js/golden/family_solver.json), with
// pipeline.engine.solver's verdict, the moves that keep a win in reach and the fewest moves to
// take back; and its predecessors condition against Hall's condition by brute force.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site, golden } = require("./site.js");

const Solver = site("solver.js");
const VERDICTS = golden("family_verdicts.json");
const CASES = golden("family_solver.json");
const NUM_RANKS = 13;

function where(item) {
  return item.game + " " + item.deal + " after " + JSON.stringify(item.moves || []);
}

// Play `line` from `position`: true when it is legal throughout and empties every pile.
function wins(rules, position, line) {
  let at = position;
  for (const move of line) at = rules.play(at, move);
  return at.heights.every((height) => height === 0);
}

test("the golden cases hold every other game, won, lost and hopeless positions", () => {
  for (const name of ["all_in_a_row", "dead_king_golf", "golf", "relaxed_golf"]) {
    const verdicts = new Set(VERDICTS.filter((item) => item.game === name).map((item) => item.verdict));
    assert.deepEqual([...verdicts].sort(), ["solved", "unsolvable"], name);
    const mine = CASES.filter((item) => item.game === name);
    assert.ok(mine.some((item) => item.verdict === "solved"), name);
    assert.ok(mine.some((item) => item.verdict === "unsolvable" && item.undo > 0), name);
  }
  assert.ok(CASES.some((item) => item.undo === null));
  assert.ok(CASES.some((item) => item.winning_moves.includes(7)), "a talon deal that keeps the win");
});

test("every PySol FC deal's verdict from the start is the Python solver's, and every win replays", () => {
  for (const item of VERDICTS) {
    const rules = Solver.rulesFor(item.cards, item.game);
    const found = rules.solve(rules.start());
    assert.equal(found.verdict, item.verdict, where(item));
    if (found.verdict === "solved") assert.ok(wins(rules, rules.start(), found.line), where(item) + ": the line wins");
  }
});

test("every position's verdict is the Python solver's, and a win's first move keeps the win", () => {
  for (const item of CASES) {
    const rules = Solver.rulesFor(item.cards, item.game);
    const start = rules.after(item.moves);
    const found = rules.solve(start);
    assert.equal(found.verdict, item.verdict, where(item));
    if (found.verdict !== "solved") continue;
    assert.ok(wins(rules, start, found.line), where(item) + ": the line wins");
    assert.ok(item.winning_moves.includes(found.line[0]), where(item));
  }
});

test("a hint names a move that keeps the win, or the fewest moves to take back", () => {
  const byDeal = new Map(); // one game a deal, as the page keeps: later hints reuse its lost positions
  for (const item of CASES) {
    const key = item.game + " " + item.deal;
    if (!byDeal.has(key)) byDeal.set(key, Solver.rulesFor(item.cards, item.game));
    for (const rules of [Solver.rulesFor(item.cards, item.game), byDeal.get(key)]) {
      const answer = rules.hint(item.moves);
      if (item.verdict === "solved") {
        assert.equal(answer.kind, "win", where(item));
        assert.ok(item.winning_moves.includes(answer.move), where(item) + ": move " + answer.move);
      } else {
        assert.equal(answer.kind, "lost", where(item));
        assert.equal(answer.undo, item.undo, where(item));
      }
    }
  }
});

test("the traps along a solution are the positions where some legal move loses", () => {
  const item = VERDICTS.find((item) => item.game === "golf" && item.verdict === "solved");
  const rules = Solver.rulesFor(item.cards, item.game);
  const line = rules.solve(rules.start()).line;
  const traps = rules.traps(line);
  assert.ok(traps.length > 0);
  let position = rules.start();
  let next = 0;
  for (let step = 0; step < line.length; step++) {
    const legal = rules.legalMoves(position);
    const losing = legal.filter((move) => rules.solve(rules.play(position, move)).verdict === "unsolvable");
    if (legal.length > 1 && losing.length) {
      assert.deepEqual(traps[next], { step: step, legal: legal, losing: losing });
      next++;
    }
    position = rules.play(position, line[step]);
  }
  assert.equal(next, traps.length);
});

// A small seeded generator (mulberry32), so the brute force below sees the same cases each run.
function generator(seed) {
  let state = seed >>> 0;
  return function (below) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % below);
  };
}

// Hall's deficiency by brute force: the most by which the pile cards of a set R of ranks
// outnumber the cards left of the ranks next to R (a King precedes nothing in Dead King Golf),
// over every nonempty R; one less while the foundation is empty.
function bruteShortfall(game, counts, talonLeft, foundation) {
  const offered = counts.map((count, rank) =>
    game.deadKing && rank === NUM_RANKS - 1 ? 0 : count + talonLeft[rank] + (foundation === rank ? 1 : 0)
  );
  let best = -Infinity;
  for (let subset = 1; subset < 1 << NUM_RANKS; subset++) {
    const neighbours = new Set();
    let cards = 0;
    for (let rank = 0; rank < NUM_RANKS; rank++) {
      if (!((subset >> rank) & 1)) continue;
      cards += counts[rank];
      for (const other of [rank - 1, rank + 1]) {
        if (game.wrap) neighbours.add((other + NUM_RANKS) % NUM_RANKS);
        else if (other >= 0 && other < NUM_RANKS) neighbours.add(other);
      }
    }
    let near = 0;
    for (const rank of neighbours) near += offered[rank];
    best = Math.max(best, cards - near);
  }
  return best - (foundation < 0 ? 1 : 0);
}

test("the predecessors condition cuts exactly where Hall's condition fails, once the foundation holds a card", () => {
  const draw = generator(2026);
  for (const name of ["all_in_a_row", "dead_king_golf", "golf", "relaxed_golf"]) {
    const game = Solver.gameNamed(name);
    for (let example = 0; example < 40; example++) {
      const counts = Array.from({ length: NUM_RANKS }, () => draw(5));
      const talonLeft = new Int8Array(NUM_RANKS);
      const talon = game.talonSize ? draw(17) : 0;
      for (let card = 0; card < talon; card++) talonLeft[draw(NUM_RANKS)]++;
      const foundation = draw(NUM_RANKS + (game.talonSize ? 0 : 1)) - (game.talonSize ? 0 : 1);
      const mine = Solver.predecessorShortfall(game, counts, talonLeft, 0, foundation);
      const brute = bruteShortfall(game, counts, talonLeft, foundation);
      const said = name + " " + JSON.stringify({ counts, talonLeft: Array.from(talonLeft), foundation });
      assert.ok(mine <= brute, said);
      if (foundation >= 0) assert.equal(mine > 0, brute > 0, said);
    }
  }
});
