// The page's rules for the family's other games (game.js on solver.js's Game) against the
// referee: tests/js/golden/family_rules.json holds positions of All in a Row and the three
// Golfs along random play and the deals' solutions, with what pipeline.game.rules says about
// each (tests/js/write_golden.py writes it). A move is a pile, or in Golf the talon deal (7).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site, golden } = require("./site.js");

const Solver = site("solver.js");
const game = site("game.js");
const records = site("records.js");
const CASES = golden("family_rules.json");
const GOLF_GAMES = ["dead_king_golf", "golf", "relaxed_golf"];

// A game of the case's deal after its moves, each of them legal.
function played(item) {
  const play = new game.Play(Solver.rulesFor(item.cards, item.game));
  for (const move of item.moves) assert.equal(play.play(move), true, item.game + ": move " + move + " after " + play.moves);
  return play;
}

function where(item) {
  return item.game + " " + item.deal + " after " + JSON.stringify(item.moves);
}

test("the golden cases cover every other game, play, a stuck game, a won one, talon deals and an empty foundation", () => {
  for (const name of ["all_in_a_row", ...GOLF_GAMES]) {
    const statuses = new Set(CASES.filter((item) => item.game === name).map((item) => item.status));
    assert.deepEqual([...statuses].sort(), ["playing", "stuck", "won"], name);
  }
  assert.ok(CASES.some((item) => item.foundation_rank === null));
  assert.ok(CASES.some((item) => item.talon_dealt === 16));
  assert.ok(CASES.some((item) => item.legal.includes(7)));
});

test("the games' rule sets are games.py's", () => {
  const shapes = Object.values(Solver.GAMES).map((rules) => [
    rules.name, rules.numPiles, rules.pileSize, rules.talonSize, rules.foundation, rules.wrap, rules.deadKing,
    rules.namedInRecords,
  ]);
  assert.deepEqual(shapes, [
    ["black_hole", 17, 3, 0, "ace_of_spades", true, false, false],
    ["all_in_a_row", 13, 4, 0, "empty", true, false, true],
    ["dead_king_golf", 7, 5, 16, "dealt", false, true, true],
    ["golf", 7, 5, 16, "dealt", false, false, true],
    ["relaxed_golf", 7, 5, 16, "dealt", true, false, true],
  ]);
  // the search's move order, as the Python searches': pile order for Black Hole, the taller first else
  assert.deepEqual(Object.values(Solver.GAMES).map((rules) => rules.tallerFirst), [false, true, true, true, true]);
  assert.equal(Solver.GAMES.golf.talonMove, 7);
  assert.equal(Solver.GAMES.all_in_a_row.talonMove, -1);
  assert.equal(Solver.gameNamed(undefined), Solver.GAMES.black_hole);
  assert.throws(() => Solver.gameNamed("klondike"), /unknown game klondike/);
});

test("a card fits one rank up or down; K and A only where ranks wrap; nothing on a King in Dead King Golf", () => {
  const { GAMES, fits } = Solver;
  const K = 12;
  const Q = 11;
  for (const rules of Object.values(GAMES)) {
    assert.equal(fits(rules, 5, 4), true, rules.name);
    assert.equal(fits(rules, 3, 4), true, rules.name);
    assert.equal(fits(rules, 6, 4), false, rules.name);
    assert.equal(fits(rules, 9, -1), true, rules.name + ": an empty foundation takes any card");
    assert.equal(fits(rules, 0, K), rules.wrap, rules.name + ": A on K");
    assert.equal(fits(rules, K, 0), rules.wrap, rules.name + ": K on A");
    assert.equal(fits(rules, Q, K), !rules.deadKing, rules.name + ": Q on K");
    assert.equal(fits(rules, K, Q), true, rules.name + ": K on Q");
  }
});

test("every position has the referee's heights, foundation, talon, legal moves and status", () => {
  for (const item of CASES) {
    const play = played(item);
    const position = play.position();
    assert.deepEqual(position.heights, item.heights, where(item));
    const rank = position.foundation < 0 ? null : Solver.rankOf(position.foundation);
    assert.equal(rank, item.foundation_rank, where(item));
    assert.equal(position.dealt, item.talon_dealt, where(item));
    assert.deepEqual(play.rules.legalMoves(position), item.legal, where(item));
    assert.equal(play.status(), item.status, where(item));
    assert.equal(game.cardsLeft(position), item.heights.reduce((a, b) => a + b, 0), where(item));
    assert.equal(play.moveCount, item.moves.length);
    assert.equal(play.cardsPlayed(), play.rules.game.pileCards - game.cardsLeft(position), "talon deals are no cards played");
  }
});

test("a move the rules refuse changes nothing", () => {
  for (const item of CASES) {
    const play = played(item);
    const before = play.position();
    for (let move = -1; move <= play.rules.game.moves; move++) {
      const legal = item.legal.includes(move);
      assert.equal(game.isLegal(play.rules, before, move), legal, where(item) + ": move " + move);
      if (legal) continue;
      assert.equal(play.play(move), false, where(item) + ": move " + move + " is not legal");
      assert.deepEqual(play.moves, item.moves);
      assert.deepEqual(play.position(), before);
    }
  }
});

test("All in a Row starts on an empty foundation that takes any free card", () => {
  const item = CASES.find((item) => item.game === "all_in_a_row" && item.moves.length === 0);
  const rules = Solver.rulesFor(item.cards, item.game);
  const start = rules.start();
  assert.equal(start.foundation, -1);
  assert.deepEqual(rules.legalMoves(start), Array.from({ length: 13 }, (_, pile) => pile));
  const after = rules.play(start, 5);
  assert.equal(after.foundation, rules.topCard(start, 5));
  assert.ok(rules.legalMoves(after).length < 13);
});

test("the talon deal puts the next talon card on the foundation whatever its rank; undo takes it back", () => {
  for (const name of GOLF_GAMES) {
    const item = CASES.find((item) => item.game === name && item.moves.length === 0);
    const play = played(item);
    const rules = play.rules;
    const cards = Solver.parseCards(item.cards, 52);
    assert.equal(play.position().foundation, cards[35], name + ": the dealt foundation card");
    for (let dealt = 0; dealt < 16; dealt++) {
      assert.equal(rules.talonCard(play.position()), cards[36 + dealt]);
      assert.equal(play.play(7), true, name + ": talon deal " + (dealt + 1));
      assert.equal(play.position().foundation, cards[36 + dealt]);
      assert.equal(play.position().dealt, dealt + 1);
      assert.equal(play.cardsPlayed(), 0);
    }
    assert.equal(rules.talonCard(play.position()), -1);
    assert.equal(play.play(7), false, name + ": the talon is empty");
    assert.throws(() => rules.play(play.position(), 7), /illegal move/);
    play.undo();
    assert.equal(play.position().dealt, 15);
    assert.equal(play.position().foundation, cards[50]);
  }
});

test("undo, redo, restart and the events replay a game with talon deals", () => {
  const item = CASES.filter((item) => GOLF_GAMES.includes(item.game) && item.moves.includes(7)).sort(
    (a, b) => b.moves.length - a.moves.length
  )[0];
  const rules = Solver.rulesFor(item.cards, item.game);
  const play = new game.Play(rules);
  const told = [];
  play.listen((event) => told.push(event));
  for (const move of item.moves) play.play(move);
  const end = play.position();
  play.undo();
  play.restart();
  assert.deepEqual(play.position(), rules.start());
  play.undo();
  play.redo();
  play.undo();
  play.redo();
  play.hinted();
  assert.deepEqual(play.position(), rules.start());
  play.undo(); // the restart taken back
  assert.deepEqual(play.moves, item.moves.slice(0, -1));
  assert.deepEqual(play.redoMoves, [game.RESTART]); // the restart dropped the last move from redo
  play.play(item.moves[item.moves.length - 1]);
  assert.deepEqual(play.position(), end);
  const again = new game.Play(rules, told);
  assert.deepEqual(again.moves, play.moves);
  assert.deepEqual(again.redoMoves, play.redoMoves);
  assert.throws(() => new game.Play(rules, [8]), /event 1 \(8\) does not apply/);
});

test("a record counts the pile cards played, not the talon cards dealt", () => {
  for (const item of CASES.filter((item) => item.status === "won")) {
    const counted = records.tally(Solver.rulesFor(item.cards, item.game), item.moves);
    const deals = item.moves.filter((move) => move === Solver.gameNamed(item.game).talonMove).length;
    assert.equal(counted.status, "won", where(item));
    assert.equal(counted.moves, item.moves.length);
    assert.equal(counted.cards_played, item.moves.length - deals);
    assert.equal(counted.cards_played, Solver.gameNamed(item.game).pileCards);
    assert.equal(counted.clean, true);
  }
});
