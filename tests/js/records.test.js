// The play records (records.js) against the Python side: tests/js/golden/plays.json holds
// attempts' events with what pipeline.plays.events.replay_events counts of them, or the
// first event it refuses (tests/js/write_golden.py writes it). Then the store itself: saved
// after every event, resumed, attempts ended, seconds counted, exported, storage trouble.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site, golden } = require("./site.js");

const game = site("game.js");
const records = site("records.js");
const CASES = golden("plays.json");
const COUNTED = CASES.filter((item) => item.counts);
const BUILD = "0123456789abcdef";

// A localStorage stand-in: getItem / setItem on a Map, counting the writes.
function memoryStorage() {
  const items = new Map();
  return {
    writes: 0,
    getItem: (key) => (items.has(key) ? items.get(key) : null),
    setItem(key, value) {
      this.writes++;
      items.set(key, String(value));
    },
    keys: () => [...items.keys()],
  };
}

// A clock the test moves: now() in ms, advance(seconds).
function clock(start) {
  let ms = start === undefined ? Date.UTC(2026, 11, 1, 18, 0, 0) : start;
  return {
    now: () => ms,
    advance: (seconds) => {
      ms += seconds * 1000;
    },
  };
}

function store(options) {
  return records.open(Object.assign({ build: BUILD, storage: memoryStorage(), now: clock().now }, options));
}

// Play `events` of a case through a game.Play told to `opened` (a store) at `dealId`.
function playInto(opened, item, dealId, events) {
  const play = new game.Play(item.cards);
  play.listen((event) => opened.record(dealId, event, play));
  for (const event of events || item.events) assert.equal(play.apply(event), true, String(event));
  return play;
}

function expectedCounts(item) {
  const counts = Object.assign({}, item.counts);
  const status = counts.won ? "won" : counts.stuck ? "stuck" : "playing";
  delete counts.won;
  delete counts.stuck;
  counts.clean = status === "won" && counts.undos + counts.restarts + counts.hints === 0;
  return [counts, status];
}

test("the golden cases have every kind of event, wins, and events refused", () => {
  const kinds = new Set(COUNTED.flatMap((item) => item.events.map((event) => typeof event)));
  assert.deepEqual([...kinds].sort(), ["number", "string"]);
  for (const action of ["undo", "redo", "restart", "hint"]) {
    assert.ok(COUNTED.some((item) => item.events.includes(action)), action);
  }
  assert.ok(COUNTED.some((item) => item.counts.won));
  assert.ok(COUNTED.some((item) => item.counts.dead_ends > 0));
  assert.ok(CASES.some((item) => item.refused));
});

test("events are counted as the Python side counts them", () => {
  for (const item of COUNTED) {
    const [counts, status] = expectedCounts(item);
    const tallied = records.tally(item.cards, item.events);
    assert.equal(tallied.status, status, item.deal);
    delete tallied.status;
    assert.deepEqual(tallied, counts, item.deal + " " + JSON.stringify(item.events));
  }
});

test("an event the Python side refuses is refused at the same event", () => {
  for (const item of CASES.filter((item) => item.refused)) {
    assert.throws(
      () => records.tally(item.cards, item.events),
      new RegExp("^Error: event " + item.refused + " "),
      item.deal + " " + JSON.stringify(item.events)
    );
  }
});

test("each event is recorded as it comes, with the counts, and saved at once", () => {
  for (const item of COUNTED) {
    const storage = memoryStorage();
    const opened = store({ storage: storage });
    opened.show("d");
    playInto(opened, item, "d");
    assert.equal(storage.writes, item.events.length, "one save an event");
    const [counts, status] = expectedCounts(item);
    const [attempt] = opened.attempts("d");
    assert.deepEqual(attempt.events, item.events);
    for (const [name, value] of Object.entries(counts)) assert.equal(attempt[name], value, item.deal + " " + name);
    assert.equal(attempt.outcome, status === "won" ? "won" : "playing");
    assert.equal(attempt.ended === null, status !== "won");
    const saved = JSON.parse(storage.getItem(records.PREFIX + BUILD));
    assert.deepEqual(saved.deals.d.attempts[0], attempt);
  }
});

test("a reload resumes the attempt in progress from its events, undo, redo and restart too", () => {
  const item = COUNTED.find((item) => !item.counts.won && item.events.includes("restart") && item.events.includes("redo"));
  const storage = memoryStorage();
  const first = store({ storage: storage });
  first.show("d");
  const before = playInto(first, item, "d");

  const again = store({ storage: storage }); // the page loaded again
  again.show("d");
  const resumed = new game.Play(item.cards, again.resume("d"));
  assert.deepEqual(resumed.moves, before.moves);
  assert.deepEqual(resumed.redoMoves, before.redoMoves);
  assert.deepEqual(resumed.position(), before.position());
  resumed.listen((event) => again.record("d", event, resumed));
  resumed.hinted();
  const attempts = again.attempts("d");
  assert.equal(attempts.length, 1, "the same attempt goes on");
  assert.deepEqual(attempts[0].events, [...item.events, "hint"]);
});

test("a new attempt ends the one in progress, stuck or abandoned; a deal with no event records nothing", () => {
  const line = golden("rules.json").find((item) => item.status === "stuck" && item.moves.length);
  const stuck = { cards: line.cards, events: line.moves };
  const playing = COUNTED.find((item) => !item.counts.stuck && !item.counts.won);
  const time = clock();
  const opened = store({ now: time.now });
  opened.show("a");
  let play = playInto(opened, stuck, "a");
  time.advance(3);
  assert.equal(opened.finish("a", play.status()).outcome, "stuck");
  play = playInto(opened, playing, "a");
  assert.equal(opened.finish("a", play.status()).outcome, "abandoned");
  assert.equal(opened.finish("a", "playing"), null, "nothing in progress");
  opened.show("b");
  opened.show("c");
  const attempts = opened.attempts("a");
  assert.deepEqual(
    attempts.map((attempt) => attempt.outcome),
    ["stuck", "abandoned"]
  );
  for (const attempt of attempts) assert.match(attempt.ended, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(attempts[0].ended, new Date(time.now()).toISOString());
  assert.deepEqual(opened.resume("a"), []);
  const exported = opened.exported({ pack: "p", title: "t" }, ["a", "b", "c"]);
  assert.deepEqual(
    exported.deals.map((deal) => deal.deal_id),
    ["a"]
  );
});

test("seconds count while the deal is shown and the page visible, from when it was shown", () => {
  const item = COUNTED.find((item) => item.events.length > 3 && !item.counts.won);
  const time = clock();
  const opened = store({ now: time.now });
  opened.show("d");
  time.advance(5); // looking before the first move counts
  const play = new game.Play(item.cards);
  play.listen((event) => opened.record("d", event, play));
  play.apply(item.events[0]);
  time.advance(1);
  opened.setVisible(false);
  time.advance(100); // another tab
  opened.setVisible(true);
  time.advance(2);
  play.apply(item.events[1]);
  opened.hide(); // the index
  time.advance(50);
  opened.show("d");
  time.advance(4);
  play.apply(item.events[2]);
  const [attempt] = opened.attempts("d");
  assert.equal(attempt.seconds, 12);
  assert.equal(attempt.started, new Date(time.now() - 162 * 1000).toISOString());
});

test("the export holds every deal with an attempt, a note or a mark, in the pack's order", () => {
  const item = COUNTED.find((item) => item.counts.won);
  const time = clock(Date.UTC(2026, 11, 1, 18, 5, 9, 250));
  const opened = store({ now: time.now });
  opened.setNote("z", "boring");
  opened.setMark("y", "reject");
  opened.setMark("x", "ship");
  opened.setMark("x", null); // a mark taken back: nothing left to export
  opened.show("w");
  playInto(opened, item, "w");
  assert.throws(() => opened.setMark("w", "maybe"), /ship, reject or null/);
  const exported = opened.exported({ pack: "p", title: "Test pack" }, ["w", "x", "y", "z"]);
  assert.deepEqual(Object.keys(exported), ["format", "version", "pack", "gallery", "title", "exported", "deals"]);
  assert.equal(exported.format, "blackhole-plays");
  assert.equal(exported.version, 1);
  assert.equal(exported.gallery, BUILD);
  assert.equal(exported.exported, "2026-12-01T18:05:09.250Z");
  assert.deepEqual(
    exported.deals.map((deal) => [deal.deal_id, deal.note, deal.mark, deal.attempts.length]),
    [
      ["w", "", null, 1],
      ["y", "", "reject", 0],
      ["z", "boring", null, 0],
    ]
  );
  const attempt = exported.deals[0].attempts[0];
  assert.deepEqual(Object.keys(attempt), [
    "id", "started", "ended", "seconds", "outcome", "events", "moves", "undos", "redos",
    "restarts", "hints", "dead_ends", "cards_played", "clean",
  ]);
  assert.match(attempt.id, /^[0-9a-z]+-[0-9a-z]{8}$/);
  assert.equal(parseInt(attempt.id.split("-")[0], 36), Date.parse(attempt.started));
  assert.equal(records.fileName(exported), "p-plays-20261201-180509.json");
});

test("attempt ids differ", () => {
  const item = COUNTED.find((item) => item.counts.moves);
  const opened = store();
  opened.show("d");
  for (let i = 0; i < 20; i++) {
    playInto(opened, item, "d", item.events.slice(0, 1));
    opened.finish("d", "playing");
  }
  const ids = opened.attempts("d").map((attempt) => attempt.id);
  assert.equal(new Set(ids).size, 20);
});

test("galleries never mix: one key a build", () => {
  const item = COUNTED.find((item) => item.counts.moves);
  const storage = memoryStorage();
  const one = store({ storage: storage });
  const other = records.open({ build: "fedcba9876543210", storage: storage });
  one.show("d");
  playInto(one, item, "d", item.events.slice(0, 1));
  assert.deepEqual(storage.keys(), [records.PREFIX + BUILD]);
  assert.deepEqual(other.attempts("d"), []);
});

test("storage full, blocked or unreadable is said once, and play goes on", () => {
  const item = COUNTED.find((item) => item.events.length > 3);
  const said = [];
  const full = {
    getItem: () => null,
    setItem: () => {
      throw new Error("QuotaExceededError");
    },
  };
  const opened = store({ storage: full, onTrouble: (text) => said.push(text) });
  opened.show("d");
  playInto(opened, item, "d");
  assert.equal(said.length, 1);
  assert.match(said[0], /full or blocked/);
  assert.equal(opened.attempts("d")[0].events.length, item.events.length, "kept in memory");

  const blocked = [];
  records.open({ build: BUILD, storage: null, onTrouble: (text) => blocked.push(text) });
  assert.equal(blocked.length, 1);
  const unreadable = memoryStorage();
  unreadable.setItem(records.PREFIX + BUILD, "{not json");
  const told = [];
  const fresh = records.open({ build: BUILD, storage: unreadable, onTrouble: (text) => told.push(text) });
  assert.equal(told.length, 1);
  assert.deepEqual(fresh.attempts("d"), []);
});

test("a solution watched step by step to the win is recorded won, each card a hint first", () => {
  const line = golden("rules.json").filter((item) => item.status === "won").sort((a, b) => b.moves.length - a.moves.length)[0];
  const opened = store();
  opened.show("d");
  const play = new game.Play(line.cards);
  play.listen((event) => opened.record("d", event, play));
  play.follow(line.moves, 2);
  play.follow(line.moves, 1); // back: a plain undo, then forward again
  for (let step = 2; step <= line.moves.length; step++) play.follow(line.moves, step);
  const [attempt] = opened.attempts("d");
  assert.equal(attempt.outcome, "won");
  assert.equal(attempt.cards_played, line.moves.length);
  assert.equal(attempt.hints, line.moves.length);
  assert.equal(attempt.clean, false);
  assert.deepEqual(records.tally(line.cards, attempt.events).status, "won");
  assert.deepEqual(attempt.events.slice(-2), ["hint", line.moves[line.moves.length - 1]]);
});

test("an export says its game when it is not Black Hole, as deals.js does", () => {
  const opened = store({});
  opened.setNote("a", "n");
  assert.equal(opened.exported({ pack: "p", title: "t" }, ["a"]).game, undefined);
  assert.equal(opened.exported({ pack: "p", title: "t", game: "black_hole" }, ["a"]).game, undefined);
  const golf = opened.exported({ pack: "p", title: "t", game: "golf" }, ["a"]);
  assert.deepEqual(Object.keys(golf).slice(0, 5), ["format", "version", "pack", "game", "gallery"]);
  assert.equal(golf.game, "golf");
});
