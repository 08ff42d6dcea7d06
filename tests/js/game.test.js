// The page's rules and game state (game.js on solver.js's rules) against the referee:
// tests/js/golden/rules.json holds positions along random play and the deals' solutions,
// with what pipeline.game.rules says about each (tests/js/write_golden.py writes it).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site, golden } = require("./site.js");

const Solver = site("solver.js");
const game = site("game.js");
const CASES = golden("rules.json");

// A game of the case's deal after its moves, each of them legal.
function played(item) {
  const play = new game.Play(item.cards);
  for (const pile of item.moves) assert.equal(play.play(pile), true, "pile " + pile + " after " + play.moves);
  return play;
}

test("the golden cases cover play, a stuck game and a won one", () => {
  const statuses = new Set(CASES.map((item) => item.status));
  assert.deepEqual([...statuses].sort(), ["playing", "stuck", "won"]);
  assert.ok(CASES.length >= 30);
});

test("every position has the referee's heights, foundation, legal moves and status", () => {
  for (const item of CASES) {
    const play = played(item);
    const position = play.position();
    const where = item.deal + " after " + JSON.stringify(item.moves);
    assert.deepEqual(position.heights, item.heights, where);
    assert.equal(Solver.rankOf(position.foundation), item.foundation_rank, where);
    assert.deepEqual(play.rules.legalMoves(position), item.legal, where);
    assert.equal(play.status(), item.status, where);
    assert.equal(game.statusOf(play.rules, position), item.status, where);
    assert.equal(game.cardsLeft(position), item.heights.reduce((a, b) => a + b, 0), where);
    assert.equal(play.moveCount, item.moves.length);
  }
});

test("a move the rules refuse changes nothing", () => {
  for (const item of CASES) {
    const play = played(item);
    const before = play.position();
    for (let pile = 0; pile < Solver.NUM_PILES; pile++) {
      assert.equal(game.isLegal(play.rules, before, pile), item.legal.includes(pile));
      if (item.legal.includes(pile)) continue;
      assert.equal(play.play(pile), false, item.deal + ": pile " + pile + " is not a legal move");
      assert.deepEqual(play.moves, item.moves);
      assert.deepEqual(play.position(), before);
    }
  }
});

test("undo takes every move back and redo replays them, in order", () => {
  for (const item of CASES.filter((item) => item.moves.length)) {
    const play = played(item);
    const end = play.position();
    assert.equal(play.canRedo(), false);
    while (play.canUndo()) assert.equal(play.undo(), true);
    assert.equal(play.undo(), false, "nothing left to undo");
    assert.deepEqual(play.moves, []);
    assert.deepEqual(play.position(), play.rules.start());
    assert.deepEqual(play.redoMoves, item.moves);
    while (play.canRedo()) assert.equal(play.redo(), true);
    assert.equal(play.redo(), false, "nothing left to redo");
    assert.deepEqual(play.moves, item.moves);
    assert.deepEqual(play.position(), end);
  }
});

test("a new move after an undo drops what was left to redo", () => {
  const item = CASES.find((item) => item.moves.length > 2 && item.status === "playing");
  const play = played(item);
  play.undo();
  play.undo();
  assert.equal(play.canRedo(), true);
  const legal = play.rules.legalMoves(play.position());
  assert.equal(play.play(legal[0]), true);
  assert.equal(play.canRedo(), false);
  assert.deepEqual(play.redoMoves, []);
});

test("restart goes back to the opening position with nothing to redo", () => {
  const item = CASES.find((item) => item.moves.length > 2);
  const play = played(item);
  assert.equal(play.canRestart(), true);
  play.restart();
  assert.deepEqual(play.moves, []);
  assert.equal(play.canUndo(), false);
  assert.equal(play.canRedo(), false);
  assert.equal(play.canRestart(), false);
  assert.deepEqual(play.position(), play.rules.start());
});

test("a won game has no card left and no move; a stuck one has cards left and no move", () => {
  for (const item of CASES.filter((item) => item.status !== "playing")) {
    const play = played(item);
    assert.deepEqual(play.rules.legalMoves(play.position()), []);
    assert.equal(game.cardsLeft(play.position()) === 0, item.status === "won");
  }
});

test("following a line puts the rest of it to redo, and the cursor says where play left it", () => {
  const line = CASES.filter((item) => item.status === "won").sort((a, b) => b.moves.length - a.moves.length)[0];
  const play = new game.Play(line.cards);
  for (const step of [0, 1, 20, line.moves.length, line.moves.length + 5, -3]) {
    play.follow(line.moves, step);
    const k = Math.max(0, Math.min(step, line.moves.length));
    assert.deepEqual(play.moves, line.moves.slice(0, k));
    assert.deepEqual(play.redoMoves, line.moves.slice(k));
    assert.deepEqual(play.cursor(line.moves), { step: k, onPath: true });
  }
  play.follow(line.moves, 10);
  play.undo();
  assert.deepEqual(play.cursor(line.moves), { step: 9, onPath: true });
  const other = play.rules.legalMoves(play.position()).find((pile) => pile !== line.moves[9]);
  if (other !== undefined) {
    play.play(other);
    assert.deepEqual(play.cursor(line.moves), { step: 9, onPath: false });
  }
});

test("the getters hand out copies", () => {
  const item = CASES.find((item) => item.moves.length > 1);
  const play = played(item);
  play.moves.push(99);
  play.redoMoves.push(99);
  assert.deepEqual(play.moves, item.moves);
  assert.deepEqual(play.redoMoves, []);
});
