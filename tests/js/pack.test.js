// pack.js: deals.js's object as the page reads it (the build id, the deals by id, both orders).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site, golden } = require("./site.js");

const pack = site("pack.js");
const CARDS = golden("rules.json")[0].cards;

function data() {
  return {
    title: "t", pack: "p", kind: "curated", build: "0123456789abcdef",
    difficulty: { player: "lookahead-2", figure: "dead_ends" },
    tiers: { medium: 200, hard: 500, expert: 1500 },
    players: [{ name: "random" }, { name: "lookahead-2" }],
    tier_order: ["easy", "medium", "hard", "expert", "unsolvable", "ungraded"],
    columns: ["deal_id", "level", "tier", "cards", "solution", "difficulty"],
    deals: [
      ["b", 2, "hard", CARDS, [1, 2], 600],
      ["a", null, "easy", CARDS, null, 3],
      ["c", 1, "ungraded", CARDS, [], null],
    ],
  };
}

test("the pack keeps deals.js's build id, names and deals", () => {
  const read = pack.read(data());
  assert.equal(read.build, "0123456789abcdef");
  assert.equal(read.name, "p");
  assert.equal(read.kind, "curated");
  assert.deepEqual(read.deals.map((deal) => deal.deal_id), ["b", "a", "c"]);
  assert.equal(read.byId.get("a").tier, "easy");
  assert.deepEqual(read.byId.get("a").solution, []);
  assert.equal(read.byId.get("b").searchKey, "b");
  assert.ok(Object.isFrozen(read));
});

test("the reference player is the one the tiers are cut on; none for an ungraded pack", () => {
  assert.equal(pack.read(data()).reference.name, "lookahead-2");
  assert.equal(pack.read(data()).byAttempts, false);
  assert.equal(pack.read({ ...data(), difficulty: null, tiers: null }).reference, null);
});

test("deals sort by level, then by difficulty, unknown values last", () => {
  const read = pack.read(data());
  assert.deepEqual(read.sorted.level.map((deal) => deal.deal_id), ["c", "b", "a"]);
  assert.deepEqual(read.sorted.difficulty.map((deal) => deal.deal_id), ["a", "b", "c"]);
});

test("the pack's game is deals.js's, Black Hole when it names none", () => {
  assert.equal(pack.read(data()).game.name, "black_hole");
  const golf = pack.read({ ...data(), game: "golf" }).game;
  assert.deepEqual([golf.title, golf.numPiles, golf.pileSize, golf.talonSize], ["Golf", 7, 5, 16]);
  assert.throws(() => pack.read({ ...data(), game: "klondike" }), /unknown game/);
});
