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

test("restart goes back to the opening position, and is a step that undo takes back", () => {
  const item = CASES.find((item) => item.moves.length > 2 && item.status === "playing");
  const play = played(item);
  const end = play.position();
  assert.equal(play.canRestart(), true);
  assert.equal(play.restart(), true);
  assert.deepEqual(play.moves, []);
  assert.deepEqual(play.position(), play.rules.start());
  assert.equal(play.canUndo(), true, "Undo brings the position back");
  assert.equal(play.canRedo(), false);
  assert.equal(play.canRestart(), false);
  assert.equal(play.restart(), false, "no restart at the opening position");

  assert.equal(play.undo(), true);
  assert.deepEqual(play.moves, item.moves);
  assert.deepEqual(play.position(), end);
  assert.deepEqual(play.redoMoves, [game.RESTART]);
  assert.equal(play.redo(), true, "redo restarts again");
  assert.deepEqual(play.moves, []);
  play.undo();
  play.undo(); // past the restart: the last move before it
  assert.deepEqual(play.moves, item.moves.slice(0, -1));
  assert.deepEqual(play.redoMoves, [item.moves[item.moves.length - 1], game.RESTART]);
  const legal = play.rules.legalMoves(play.position());
  play.play(legal[0]); // a new move drops the restart undone too
  assert.deepEqual(play.redoMoves, []);
});

test("every change is told as an event, and the events replay the game", () => {
  const item = CASES.find((item) => item.moves.length > 4 && item.status === "playing");
  const play = new game.Play(item.cards);
  const told = [];
  play.listen((event) => told.push(event));
  for (const pile of item.moves) play.play(pile);
  play.undo();
  play.restart();
  play.undo();
  play.redo();
  play.undo();
  play.hinted();
  assert.equal(play.play(-1), false);
  assert.deepEqual(told, [...item.moves, "undo", "restart", "undo", "redo", "undo", "hint"]);
  const again = new game.Play(item.cards, told);
  assert.deepEqual(again.moves, play.moves);
  assert.deepEqual(again.redoMoves, play.redoMoves);
  assert.throws(() => new game.Play(item.cards, ["undo"]), /event 1 \(undo\) does not apply/);
  assert.throws(() => new game.Play(item.cards, [item.moves[0], "restart", "restart"]), /event 3/);
});

test("the solution player's steps are told as hints, cards, undos and redos that replay them", () => {
  const line = CASES.filter((item) => item.status === "won").sort((a, b) => b.moves.length - a.moves.length)[0];
  const play = new game.Play(line.cards);
  const told = [];
  play.listen((event) => told.push(event));
  play.follow(line.moves, 3); // three cards shown: each a hint, then the card
  assert.deepEqual(told, ["hint", line.moves[0], "hint", line.moves[1], "hint", line.moves[2]]);
  play.follow(line.moves, 1);
  play.redo(); // the cards undone: plain redos
  play.redo();
  play.redo(); // a card of the line not played yet: shown, so a hint and the card
  assert.deepEqual(told.slice(6), ["undo", "undo", "redo", "redo", "hint", line.moves[3]]);
  const again = new game.Play(line.cards, told);
  assert.deepEqual(again.moves, line.moves.slice(0, 4));
});

test("following a line back from a move off it keeps that move to redo", () => {
  const line = CASES.filter((item) => item.status === "won").sort((a, b) => b.moves.length - a.moves.length)[0];
  const play = new game.Play(line.cards);
  const off = Array.from({ length: line.moves.length }, (_, step) => step).find(
    (step) => play.rules.legalMoves(play.rules.after(line.moves.slice(0, step))).length > 1
  );
  play.follow(line.moves, off);
  const other = play.rules.legalMoves(play.position()).find((pile) => pile !== line.moves[off]);
  play.play(other);
  play.follow(line.moves, off); // back to the line
  assert.deepEqual(play.moves, line.moves.slice(0, off));
  assert.deepEqual(play.redoMoves, [other]);
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
