// The in-browser solver (solver.js) against the exact Python solver: tests/js/golden/solver.json
// holds positions with pipeline.engine.solver's verdict, the moves that keep a win in reach
// and the fewest moves to take back to a position that can be won (tests/js/write_golden.py).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site, golden } = require("./site.js");

const Solver = site("solver.js");
const CASES = golden("solver.json");

function where(item) {
  return item.deal + " after " + JSON.stringify(item.moves);
}

test("the golden cases hold won, lost and hopeless positions", () => {
  assert.ok(CASES.some((item) => item.verdict === "solved"));
  assert.ok(CASES.some((item) => item.verdict === "unsolvable" && item.undo > 0));
  assert.ok(CASES.some((item) => item.undo === null));
});

test("every verdict is the Python solver's, and every win it finds replays", () => {
  for (const item of CASES) {
    const rules = new Solver.Game(item.cards);
    const start = rules.after(item.moves);
    const found = rules.solve(start);
    assert.equal(found.verdict, item.verdict, where(item));
    if (found.verdict !== "solved") continue;
    let position = start;
    for (const pile of found.line) position = rules.play(position, pile);
    assert.ok(position.heights.every((height) => height === 0), where(item) + ": the line wins");
    assert.ok(item.winning_moves.includes(found.line[0]), where(item));
  }
});

test("a hint names a move that keeps the win, or the fewest moves to take back", () => {
  for (const item of CASES) {
    const answer = new Solver.Game(item.cards).hint(item.moves);
    if (item.verdict === "solved") {
      assert.equal(answer.kind, "win", where(item));
      assert.ok(item.winning_moves.includes(answer.move), where(item) + ": move " + answer.move);
    } else {
      assert.equal(answer.kind, "lost", where(item));
      assert.equal(answer.undo, item.undo, where(item));
    }
  }
});

test("a hint is the same when the game has searched the deal before", () => {
  const byDeal = new Map();
  for (const item of CASES) {
    if (!byDeal.has(item.deal)) byDeal.set(item.deal, new Solver.Game(item.cards));
    const answer = byDeal.get(item.deal).hint(item.moves);
    assert.equal(answer.kind, item.verdict === "solved" ? "win" : "lost", where(item));
    if (answer.kind === "lost") assert.equal(answer.undo, item.undo, where(item));
    else assert.ok(item.winning_moves.includes(answer.move), where(item));
  }
});
