// words.js's pile names (piles as players count them, from 1, while the rules keep indices
// from 0: the hint, the board's labels and the solution player all say them through it), and
// its times of play (the win banner and the records say them through it).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site } = require("./site.js");

const words = site("words.js");

test("a pile is named as players count piles, from 1", () => {
  assert.equal(words.pileName(0), "pile 1");
  assert.equal(words.pileName(16), "pile 17"); // Black Hole's last
  assert.equal(words.pileName(6), "pile 7"); // Golf's last
});

test("durations as the win banner says them", () => {
  assert.equal(words.durationText(44.6), "45 s");
  assert.equal(words.durationText(125), "2 min 5 s");
  assert.equal(words.durationText(3780), "1 h 3 min");
});
