// deal-list.js without a page: the index's state in the address, search by level or id
// suffix, and the orders both ways (the DOM part is tested in the browser).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site, golden } = require("./site.js");

const pack = site("pack.js");
const dealList = site("deal-list.js");
const CARDS = golden("rules.json")[0].cards;

function read() {
  return pack.read({
    title: "t", pack: "p", kind: "curated", build: "0123456789abcdef",
    difficulty: { player: "lookahead-4", figure: "attempts" },
    tiers: { medium: 200, hard: 500, expert: 1500 },
    players: [{ name: "lookahead-4" }],
    tier_order: ["easy", "medium", "hard", "expert", "unsolvable", "ungraded"],
    columns: ["deal_id", "level", "tier", "cards", "solution", "difficulty"],
    deals: [
      ["seed-20261129-11", 1, "easy", CARDS, [], 150],
      ["seed-20261129-3", 2, "hard", CARDS, [], 900],
      ["seed-20261129-110", 3, "ungraded", CARDS, [], null],
      ["seed-20261129-4", 11, "hard", CARDS, [], 900],
      ["import-00ab11", 4, "expert", CARDS, [], 2000],
    ],
  });
}

const ids = (deals) => deals.map((deal) => deal.deal_id);
const state = (changes) => Object.assign({ tier: "all", sort: "level", q: "" }, changes);

test("a number is a level or an id's suffix, never a part of the seed", () => {
  const deals = read();
  assert.deepEqual(ids(dealList.matching(deals, state({ q: "11" }))), ["seed-20261129-11", "seed-20261129-4"]);
  assert.deepEqual(ids(dealList.matching(deals, state({ q: "level 11" }))), ["seed-20261129-4"]);
  assert.deepEqual(ids(dealList.matching(deals, state({ q: "20261129" }))), []);
  assert.deepEqual(ids(dealList.matching(deals, state({ q: "AB11" }))), ["import-00ab11"]); // a part of an id
});

test("hardest first keeps equal difficulties in level order and the unscored last", () => {
  const deals = read();
  assert.deepEqual(ids(dealList.matching(deals, state({ sort: "difficulty-desc" }))), [
    "import-00ab11", "seed-20261129-3", "seed-20261129-4", "seed-20261129-11", "seed-20261129-110",
  ]);
  assert.deepEqual(ids(dealList.matching(deals, state({ sort: "level-desc", tier: "hard" }))), [
    "seed-20261129-4", "seed-20261129-3",
  ]);
});

test("the state in the address leaves its defaults out and reads unknown values as defaults", () => {
  const wanted = state({ tier: "hard", sort: "difficulty-desc", q: "level 3" });
  assert.equal(dealList.indexHash(state({})), "#");
  assert.equal(dealList.indexHash(wanted), "#tier=hard&sort=difficulty-desc&q=level+3");
  assert.equal(dealList.dealHash("seed-1-2", wanted), "#deal=seed-1-2&tier=hard&sort=difficulty-desc&q=level+3");
  assert.deepEqual(dealList.readState(new URLSearchParams(dealList.stateQuery(wanted))), wanted);
  assert.deepEqual(dealList.readState(new URLSearchParams("sort=sideways")), state({}));
});
