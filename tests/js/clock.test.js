// The clock of a timed attempt (clock.js): a stopwatch that counts only while it runs, the
// thinking time a move (started by the first move, whole again after each), and the texts
// the page shows, each of a fixed width a player reads without the toolbar moving.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site } = require("./site.js");

const clock = site("clock.js");

// A clock the test moves by hand: now() in milliseconds.
function handClock() {
  let ms = 1_000_000;
  return {
    now: () => ms,
    pass: (seconds) => {
      ms += seconds * 1000;
    },
  };
}

test("a stopwatch counts only while it runs, and goes on from a count it is set to", () => {
  const time = handClock();
  const watch = new clock.Stopwatch(time.now);
  time.pass(5);
  assert.equal(watch.seconds(), 0, "stopped: the 5 s before it ran are not counted");
  watch.run(true);
  time.pass(3);
  assert.equal(watch.seconds(), 3);
  watch.run(false); // the page hidden, or the deal left for the index
  time.pass(100);
  assert.equal(watch.seconds(), 3);
  watch.run(true);
  watch.run(true); // running twice does not restart the count
  time.pass(2);
  assert.equal(watch.seconds(), 5);
  watch.set(41.5); // a record's seconds: the figure the records count
  time.pass(0.5);
  assert.equal(watch.seconds(), 42);
  assert.equal(watch.running, true);
});

test("a move limit starts at the first move and is whole again after each move", () => {
  const time = handClock();
  const limit = new clock.MoveLimit(10, time.now);
  limit.run(true);
  time.pass(25); // looking at the deal before the first move costs nothing
  assert.equal(limit.left(), 10);
  assert.equal(limit.expired(), false);
  limit.moved();
  time.pass(7);
  assert.equal(limit.left(), 3);
  limit.moved();
  assert.equal(limit.left(), 10, "a move gives the next one the whole limit");
  limit.run(false); // hidden: the time left stays
  time.pass(60);
  assert.equal(limit.left(), 10);
  limit.run(true);
  time.pass(9.9);
  assert.equal(limit.expired(), false);
  time.pass(0.1);
  assert.equal(limit.expired(), true);
  time.pass(5);
  assert.equal(limit.left(), 0, "never below 0");
});

test("a move limit is one of 10, 30 or 60 seconds", () => {
  assert.deepEqual(clock.MOVE_LIMITS, [10, 30, 60]);
  for (const limit of [0, 5, 15, null, "10"]) {
    assert.throws(() => new clock.MoveLimit(limit), /a move limit is one of 10, 30, 60 seconds/);
  }
});

test("the elapsed time reads as a clock: minutes and seconds, hours past an hour", () => {
  const cases = [
    [0, "0:00"],
    [0.999, "0:00"],
    [7, "0:07"],
    [59.99, "0:59"],
    [60, "1:00"],
    [725, "12:05"],
    [3599, "59:59"],
    [3600, "1:00:00"],
    [3723, "1:02:03"],
    [-1, "0:00"],
  ];
  for (const [seconds, text] of cases) assert.equal(clock.elapsedText(seconds), text, String(seconds));
  // the text under an hour is at most 5 characters, so a fixed width holds it
  for (let seconds = 0; seconds < 3600; seconds += 37) assert.ok(clock.elapsedText(seconds).length <= 5);
});

test("the time left is whole seconds, rounded up, and warns from 5 s", () => {
  assert.equal(clock.leftText(10), "10 s left");
  assert.equal(clock.leftText(9.2), "10 s left");
  assert.equal(clock.leftText(6), "6 s left");
  assert.equal(clock.leftText(0.1), "1 s left");
  assert.equal(clock.leftText(0), "0 s left");
  assert.equal(clock.leftText(-3), "0 s left");
  assert.equal(clock.isLow(5), true);
  assert.equal(clock.isLow(5.5), false);
});

test("the clock chooser's values and the choices they stand for go both ways", () => {
  const choices = [
    { timed: false, move_limit: null },
    { timed: true, move_limit: null },
    { timed: true, move_limit: 10 },
    { timed: true, move_limit: 30 },
    { timed: true, move_limit: 60 },
  ];
  assert.deepEqual(
    choices.map(clock.clockValue),
    ["none", "clock", "10", "30", "60"]
  );
  for (const choice of choices) assert.deepEqual(clock.clockOf(clock.clockValue(choice)), choice);
  assert.throws(() => clock.clockOf("15"), /a clock is none, clock or one of 10, 30, 60, not 15/);
});

test("a mode in a player's words", () => {
  assert.equal(clock.modeWords({ mode: "relaxed", timed: false, move_limit: null }), "relaxed, no clock");
  assert.equal(clock.modeWords({ mode: "one_attempt", timed: true, move_limit: null }), "one attempt, clock");
  assert.equal(clock.modeWords({ mode: "one_attempt", timed: true, move_limit: 30 }), "one attempt, clock, 30 s a move");
});
