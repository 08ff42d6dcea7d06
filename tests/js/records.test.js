// The play records (records.js) against the Python side: tests/js/golden/plays.json holds
// attempts' events with what pipeline.plays.events.replay_events counts of them, or the
// first event it refuses (tests/js/write_golden.py writes it). Then the store itself: saved
// after every event, resumed, attempts ended, seconds counted, exported, storage trouble;
// the modes (one attempt, the clock), stuck recorded at once, version 1's storage taken
// apart, and two or more tabs sharing one storage (the browser's storage event played by
// hand) that never lose an attempt, a note or a mark, and a reset.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
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
    removeItem: (key) => items.delete(key),
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
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
  counts.outcome = status; // the stuck rule: a stuck position is recorded stuck at once
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
    assert.equal(attempt.outcome, status);
    assert.equal(attempt.ended === null, status === "playing");
    const saved = JSON.parse(storage.getItem(opened.prefix + "attempt:" + attempt.id));
    assert.deepEqual(saved.attempt, attempt, "one key for the attempt");
    assert.equal(saved.deal, "d");
  }
});

test("a reload resumes the attempt in progress from its events, undo, redo and restart too", () => {
  const item = COUNTED.find((item) => !item.counts.won && item.events.includes("restart") && item.events.includes("redo"));
  const storage = memoryStorage();
  const session = memoryStorage(); // the tab's: a reload keeps it
  const first = store({ storage: storage, session: session });
  first.show("d");
  const before = playInto(first, item, "d");

  const again = store({ storage: storage, session: session }); // the page loaded again
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
  const stuckAt = new Date(time.now()).toISOString(); // recorded stuck at once
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
  assert.equal(attempts[0].ended, stuckAt);
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
  assert.equal(exported.version, 2);
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
    "restarts", "hints", "dead_ends", "cards_played", "clean", "mode", "timed", "move_limit",
  ]);
  assert.deepEqual([attempt.mode, attempt.timed, attempt.move_limit], ["relaxed", false, null]);
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

test("galleries never mix: every key under the build's", () => {
  const item = COUNTED.find((item) => item.counts.moves);
  const storage = memoryStorage();
  const one = store({ storage: storage });
  const other = records.open({ build: "fedcba9876543210", storage: storage });
  one.show("d");
  playInto(one, item, "d", item.events.slice(0, 1));
  one.setNote("d", "n");
  one.setChoice({ mode: "one_attempt", timed: false, move_limit: null });
  assert.equal(storage.keys().length, 3);
  for (const key of storage.keys()) assert.ok(key.startsWith(records.PREFIX + BUILD + ":"), key);
  assert.deepEqual(other.attempts("d"), []);
  assert.equal(other.note("d"), "");
  assert.equal(other.choice().mode, "relaxed");
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

// ---- modes, the stuck rule, the clock's end ----

const STUCK_LINE = golden("rules.json").find((item) => item.status === "stuck" && item.moves.length > 2);
const STUCK = { cards: STUCK_LINE.cards, events: STUCK_LINE.moves, moves: STUCK_LINE.moves }; // its moves end stuck
const ONE_ATTEMPT = { mode: "one_attempt", timed: false, move_limit: null };
const TIMED = { mode: "one_attempt", timed: true, move_limit: 30 };

test("every new attempt is played in the mode chosen for it, remembered for the gallery", () => {
  const item = COUNTED.find((item) => item.counts.moves > 2 && !item.counts.won);
  const moves = item.events.filter((event) => typeof event === "number").slice(0, 1);
  const storage = memoryStorage();
  const opened = store({ storage: storage });
  assert.deepEqual(opened.choice(), { mode: "relaxed", timed: false, move_limit: null });
  opened.setChoice(TIMED);
  opened.show("a");
  assert.deepEqual(opened.modeOf("a"), TIMED, "a fresh deal takes the choice");
  opened.setPendingMode("a", { mode: "relaxed", timed: true, move_limit: null });
  playInto(opened, item, "a", moves);
  assert.deepEqual(opened.modeOf("a"), { mode: "relaxed", timed: true, move_limit: null });
  assert.throws(() => opened.setPendingMode("a", TIMED), /has begun/);
  opened.show("b");
  playInto(opened, item, "b", moves);
  const [attemptA] = opened.attempts("a");
  const [attemptB] = opened.attempts("b");
  assert.deepEqual([attemptA.mode, attemptA.timed, attemptA.move_limit], ["relaxed", true, null]);
  assert.deepEqual([attemptB.mode, attemptB.timed, attemptB.move_limit], ["one_attempt", true, 30]);
  assert.deepEqual(store({ storage: storage }).choice(), TIMED, "the next page load remembers it");
  for (const wrong of [
    { mode: "purist", timed: false, move_limit: null },
    { mode: "relaxed", timed: "yes", move_limit: null },
    { mode: "relaxed", timed: false, move_limit: 30 },
    { mode: "relaxed", timed: true, move_limit: 45 },
  ]) {
    assert.throws(() => opened.setChoice(wrong), Error, JSON.stringify(wrong));
    assert.throws(() => opened.setPendingMode("c", wrong), Error, JSON.stringify(wrong));
  }
});

test("a one-attempt game takes no undo, redo, restart or hint, in the store and in tally", () => {
  const item = COUNTED.find((item) => typeof item.events[0] === "number" && item.events.includes("undo"));
  const undoAt = item.events.indexOf("undo");
  const opened = store();
  opened.setChoice(ONE_ATTEMPT);
  opened.show("d");
  assert.throws(
    () => playInto(opened, item, "d", item.events.slice(0, undoAt + 1)),
    new RegExp("^Error: event " + (undoAt + 1) + " is an undo, which a one-attempt game does not allow$")
  );
  assert.equal(opened.attempts("d")[0].events.length, undoAt, "the undo is not recorded");
  assert.throws(() => records.tally(item.cards, item.events, "one_attempt"), /is an undo, which a one-attempt game does not allow/);
  assert.throws(() => records.tally(item.cards, ["hint"], "one_attempt"), /^Error: event 1 is a hint, which/);
  assert.equal(records.tally(item.cards, item.events.slice(0, undoAt), "one_attempt").moves, undoAt);
});

test("stuck is recorded at once; a relaxed game's undo opens the same attempt again", () => {
  const time = clock();
  const opened = store({ now: time.now });
  opened.show("d");
  const play = playInto(opened, STUCK, "d");
  let [attempt] = opened.attempts("d");
  assert.equal(attempt.outcome, "stuck");
  const stuckAt = new Date(time.now()).toISOString();
  assert.equal(attempt.ended, stuckAt);
  assert.equal(records.tally(STUCK.cards, attempt.events).outcome, "stuck", "tally agrees");
  time.advance(7);
  assert.equal(play.undo(), true);
  [attempt] = opened.attempts("d");
  assert.deepEqual([attempt.outcome, attempt.ended], ["playing", null]);
  assert.equal(records.tally(STUCK.cards, attempt.events).outcome, "playing");
  assert.deepEqual(opened.resume("d"), attempt.events, "still this tab's attempt in progress");
  assert.equal(play.redo(), true);
  const attempts = opened.attempts("d");
  assert.equal(attempts.length, 1, "one attempt all along");
  assert.deepEqual([attempts[0].outcome, attempts[0].ended, attempts[0].dead_ends], ["stuck", new Date(time.now()).toISOString(), 2]);
});

test("a one-attempt game is over at its first dead end: the next event starts a new attempt", () => {
  const time = clock();
  const opened = store({ now: time.now });
  opened.setChoice(ONE_ATTEMPT);
  opened.show("d");
  playInto(opened, STUCK, "d");
  const [attempt] = opened.attempts("d");
  assert.deepEqual([attempt.outcome, attempt.mode, attempt.cards_played], ["stuck", "one_attempt", STUCK.moves.length]);
  assert.notEqual(attempt.ended, null);
  assert.deepEqual(opened.resume("d"), [], "nothing in progress");
  assert.equal(opened.finish("d", "abandoned"), null, "nothing left to end");
  assert.equal(opened.attempts("d")[0].outcome, "stuck");
  time.advance(1);
  playInto(opened, STUCK, "d", STUCK.moves.slice(0, 1));
  assert.deepEqual(
    opened.attempts("d").map((each) => each.outcome),
    ["stuck", "playing"]
  );
});

test("out of time ends a timed attempt with a move limit, and only such an attempt", () => {
  const time = clock();
  const opened = store({ now: time.now });
  opened.setChoice(TIMED);
  opened.show("d");
  playInto(opened, STUCK, "d", STUCK.moves.slice(0, 2));
  time.advance(31);
  const ended = opened.finish("d", "out_of_time");
  assert.deepEqual([ended.outcome, ended.ended, ended.move_limit], ["out_of_time", new Date(time.now()).toISOString(), 30]);
  assert.deepEqual(opened.resume("d"), []);
  opened.setPendingMode("d", { mode: "relaxed", timed: true, move_limit: null });
  playInto(opened, STUCK, "d", STUCK.moves.slice(0, 1));
  assert.throws(() => opened.finish("d", "out_of_time"), /no move limit/);
  assert.equal(opened.finish("d", "playing").outcome, "abandoned", "a game's status is still taken");
  assert.deepEqual(
    opened.attempts("d").map((each) => each.outcome),
    ["out_of_time", "abandoned"]
  );
});

test("a relaxed attempt recorded stuck ends stuck when its move's time runs out or a new one begins", () => {
  const time = clock();
  const opened = store({ now: time.now });
  opened.setChoice({ mode: "relaxed", timed: true, move_limit: 10 });
  opened.show("d");
  playInto(opened, STUCK, "d", STUCK.moves);
  time.advance(11);
  assert.equal(opened.finish("d", "out_of_time").outcome, "stuck", "the import refuses out_of_time at a dead end");
  opened.show("e");
  playInto(opened, STUCK, "e", STUCK.moves);
  assert.equal(opened.finish("e", "abandoned").outcome, "stuck");
});

test("version 1's storage is taken apart on open: relaxed and untimed, one still playing resumed", () => {
  const item = COUNTED.find((item) => !item.counts.won && !item.counts.stuck && item.events.length > 2);
  const storage = memoryStorage();
  const old = (id, outcome, events) => ({
    id: id, started: "2026-11-30T10:00:00.000Z", ended: outcome === "playing" ? null : "2026-11-30T10:05:00.000Z",
    seconds: 12, outcome: outcome, events: events, moves: 1, undos: 0, redos: 0, restarts: 0, hints: 0,
    dead_ends: 0, cards_played: 1, clean: false,
  });
  storage.setItem(records.PREFIX + BUILD, JSON.stringify({
    version: 1,
    deals: {
      a: { note: "too easy", mark: "ship", attempts: [old("lq0-aaaaaaaa", "abandoned", [item.events[0]])] },
      b: { note: "", mark: null, attempts: [old("lq1-bbbbbbbb", "playing", item.events)] },
    },
  }));
  const told = [];
  const opened = store({ storage: storage, onTrouble: (text) => told.push(text) });
  assert.deepEqual(told, []);
  assert.equal(storage.getItem(records.PREFIX + BUILD), null, "the old text is gone");
  assert.equal(storage.keys().length, 3, "two attempts, one deal's note and mark");
  assert.deepEqual([opened.note("a"), opened.mark("a")], ["too easy", "ship"]);
  const exported = opened.exported({ pack: "p", title: "t" }, ["a", "b"]);
  for (const deal of exported.deals) {
    for (const attempt of deal.attempts) assert.deepEqual([attempt.mode, attempt.timed, attempt.move_limit], ["relaxed", false, null]);
  }
  opened.show("b");
  assert.deepEqual(opened.resume("b"), item.events);
  const play = new game.Play(item.cards, opened.resume("b"));
  play.listen((event) => opened.record("b", event, play));
  play.hinted();
  assert.deepEqual(opened.attempts("b").map((attempt) => [attempt.id, attempt.events.length]), [["lq1-bbbbbbbb", item.events.length + 1]]);
});

test("the export of version 2 has exactly the keys of the records' schema", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "pipeline", "plays", "plays.schema.json"), "utf8"));
  const opened = store();
  opened.setMark("e", "reject");
  opened.setChoice(TIMED);
  opened.show("d");
  playInto(opened, STUCK, "d");
  const exported = opened.exported({ pack: "p", title: "t", game: "golf" }, ["d", "e"]);
  assert.deepEqual(Object.keys(exported).sort(), Object.keys(schema.properties).sort());
  assert.ok(schema.properties.version.const === 2 || schema.properties.version.enum.includes(2), "the schema takes version 2");
  for (const deal of exported.deals) {
    assert.deepEqual(Object.keys(deal).sort(), Object.keys(schema.$defs.deal.properties).sort());
    for (const attempt of deal.attempts) {
      assert.deepEqual(Object.keys(attempt).sort(), Object.keys(schema.$defs.attempt.properties).sort(), "no bookkeeping");
      assert.ok(schema.$defs.attempt.properties.outcome.enum.includes(attempt.outcome));
    }
  }
  assert.ok(schema.$defs.attempt.properties.outcome.enum.includes("out_of_time"));
});

// ---- two or more tabs of one gallery ----

// Tabs of one browser: one localStorage; a write in one tab is a storage event in every
// other, delivered when the test says (deliver), as the browser does after the write.
// The tabs share one clock, still unless a test advances it, so a timed attempt's seconds
// read the same however long the test takes.
function browser() {
  const items = memoryStorage();
  const time = clock();
  const tabs = [];
  function tab(options) {
    const handlers = {};
    const queue = [];
    const storage = {
      getItem: (key) => items.getItem(key),
      key: (index) => items.key(index),
      get length() {
        return items.length;
      },
      setItem(key, value) {
        const oldValue = items.getItem(key);
        items.setItem(key, value);
        tell({ key: key, oldValue: oldValue, newValue: String(value) });
      },
      removeItem(key) {
        const oldValue = items.getItem(key);
        items.removeItem(key);
        if (oldValue !== null) tell({ key: key, oldValue: oldValue, newValue: null });
      },
    };
    const me = {
      queue: queue,
      handlers: handlers,
      storage: storage,
      changes: 0,
      // Every storage event waiting for this tab, handed to the store's listener.
      deliver() {
        while (queue.length) handlers.storage(Object.assign({ storageArea: storage }, queue.shift()));
      },
      pagehide: () => handlers.pagehide({}),
      pageshow: () => handlers.pageshow({}),
    };
    function tell(event) {
      for (const other of tabs) if (other !== me) other.queue.push(event);
    }
    me.store = records.open(
      Object.assign(
        {
          build: BUILD,
          storage: storage,
          session: memoryStorage(),
          now: time.now,
          addEventListener: (type, handler) => {
            handlers[type] = handler;
          },
        },
        options
      )
    );
    me.store.onChange(() => me.changes++);
    tabs.push(me);
    return me;
  }
  return { items: items, tab: tab, deliverAll: () => tabs.forEach((each) => each.deliver()) };
}

function attemptCount(exported) {
  return exported.deals.reduce((sum, deal) => sum + deal.attempts.length, 0);
}

function exportOf(opened) {
  return opened.exported({ pack: "p", title: "t" }, ["1", "2", "3"]);
}

test("two tabs playing different deals, then the same deal, lose no attempt, note or mark", () => {
  const won = COUNTED.find((item) => item.counts.won);
  const playing = COUNTED.find((item) => !item.counts.won && !item.counts.stuck && item.events.length > 2);
  const shared = browser();
  const a = shared.tab();
  const b = shared.tab();
  a.store.show("1");
  b.store.show("2");
  playInto(a.store, won, "1");
  playInto(b.store, playing, "2");
  a.store.setNote("1", "a fine deal"); // both change deal 1 before either hears of the other
  b.store.setMark("1", "ship");
  assert.equal(attemptCount(exportOf(a.store)), 1, "nothing heard yet");
  shared.deliverAll();
  assert.ok(a.changes > 0 && b.changes > 0, "each page told to redraw");
  for (const tab of [a, b]) {
    const exported = exportOf(tab.store);
    assert.deepEqual(exported.deals.map((deal) => [deal.deal_id, deal.note, deal.mark, deal.attempts.length]), [
      ["1", "a fine deal", "ship", 1],
      ["2", "", null, 1],
    ]);
    assert.deepEqual(tab.store.summary("1"), { attempts: 1, won: 1 });
  }
  assert.deepEqual(b.store.deals()["1"].attempts[0].events, won.events, "another tab's attempt, whole");

  // The same deal in both: each tab plays its own attempt, even at deal 2 where b's is in progress.
  a.store.show("2");
  assert.deepEqual(a.store.resume("2"), [], "b's attempt in progress is b's");
  playInto(a.store, playing, "2", playing.events.slice(0, 2));
  b.store.show("3");
  a.store.show("3");
  playInto(b.store, won, "3");
  playInto(a.store, playing, "3");
  playInto(b.store, playing, "2", []); // nothing: b's game at deal 2 goes on below
  const bGame = new game.Play(playing.cards, b.store.resume("2"));
  bGame.listen((event) => b.store.record("2", event, bGame));
  bGame.hinted();
  shared.deliverAll();
  const c = shared.tab(); // a third tab opened now
  for (const tab of [a, b, c]) {
    const exported = exportOf(tab.store);
    assert.equal(attemptCount(exported), 5, "every tab's attempts");
    assert.deepEqual(exported.deals.map((deal) => deal.attempts.length), [1, 2, 2]);
  }
  const atTwo = c.store.attempts("2").map((attempt) => attempt.events.length).sort((x, y) => x - y);
  assert.deepEqual(atTwo, [2, playing.events.length + 1]);
});

test("a closed tab's attempt in progress is resumed by the next tab; one taken over is not lost", () => {
  const playing = COUNTED.find((item) => !item.counts.won && !item.counts.stuck && item.events.length > 3);
  const shared = browser();
  const a = shared.tab();
  a.store.show("1");
  const aGame = playInto(a.store, playing, "1", playing.events.slice(0, 2));
  a.pagehide(); // closed, or gone to the browser's cache
  const b = shared.tab();
  b.store.show("1");
  assert.deepEqual(b.store.resume("1"), playing.events.slice(0, 2), "released, so resumed");
  const bGame = new game.Play(playing.cards, b.store.resume("1"));
  bGame.listen((event) => b.store.record("1", event, bGame));
  bGame.hinted();
  a.pageshow(); // back from the cache: a's game goes on too
  a.deliver();
  a.store.setVisible(false); // saved with no new event: b's record stands, nothing doubled
  a.store.setVisible(true);
  shared.deliverAll();
  assert.equal(b.store.attempts("1").length, 1);
  assert.equal(aGame.apply(playing.events[2]), true);
  shared.deliverAll();
  for (const tab of [a, b]) {
    const attempts = tab.store.attempts("1");
    assert.equal(attempts.length, 2, "both games kept");
    assert.deepEqual(attempts.map((attempt) => attempt.events.at(-1)).sort(), [playing.events[2], "hint"].sort());
  }
});

test("reset deletes every tab's records; an attempt in progress in an open tab goes on and is kept", () => {
  const won = COUNTED.find((item) => item.counts.won);
  const playing = COUNTED.find((item) => !item.counts.won && !item.counts.stuck && item.events.length > 3);
  const shared = browser();
  const a = shared.tab();
  const b = shared.tab();
  const clockOn = { mode: "relaxed", timed: true, move_limit: null };
  a.store.setChoice(clockOn);
  a.store.show("1");
  playInto(a.store, won, "1"); // over: deleted
  a.store.show("2");
  const aGame = playInto(a.store, playing, "2", playing.events.slice(0, 2)); // in progress: kept
  b.store.show("3");
  const bGame = playInto(b.store, playing, "3", playing.events.slice(0, 3)); // in progress in b: kept
  b.store.setNote("1", "note");
  b.store.setMark("3", "reject");
  shared.deliverAll();
  assert.equal(attemptCount(exportOf(a.store)), 3);

  const kept = a.store.openHere();
  assert.deepEqual(kept, [a.store.attempts("2")[0].id], "a reset here keeps a's game in progress");
  a.store.reset();
  assert.deepEqual(a.store.deals(), { 2: a.store.deals()["2"] }, "only what a has in progress");
  shared.deliverAll(); // b hears of it and keeps its own game
  shared.deliverAll(); // a hears b's game written back
  for (const tab of [a, b]) {
    const exported = exportOf(tab.store);
    assert.deepEqual(exported.deals.map((deal) => [deal.deal_id, deal.note, deal.mark, deal.attempts.length]), [
      ["2", "", null, 1],
      ["3", "", null, 1],
    ]);
    assert.ok(tab.changes > 0);
  }
  assert.deepEqual(a.store.choice(), clockOn, "the choice of mode is no record");
  assert.equal(aGame.apply(playing.events[2]), true);
  assert.equal(bGame.apply(playing.events[3]), true);
  shared.deliverAll();
  const c = shared.tab();
  assert.deepEqual(c.store.attempts("2")[0].events, playing.events.slice(0, 3), "replays from the deal's opening");
  assert.deepEqual(c.store.attempts("3")[0].events, playing.events.slice(0, 4));
  assert.equal(shared.items.keys().filter((key) => key.includes(":attempt:")).length, 2);
});

test("each event writes one key, its attempt's, however many attempts are kept", () => {
  const item = COUNTED.find((item) => item.counts.moves > 3 && !item.counts.won);
  const moves = item.events.filter((event) => typeof event === "number");
  const storage = memoryStorage();
  const written = [];
  const setItem = storage.setItem;
  storage.setItem = function (key, value) {
    written.push([key, value.length]);
    setItem.call(this, key, value);
  };
  const time = clock();
  const opened = store({ storage: storage, now: time.now });
  for (let deal = 0; deal < 30; deal++) {
    opened.show(String(deal));
    playInto(opened, item, String(deal));
    opened.finish(String(deal), "abandoned");
    time.advance(1);
  }
  written.length = 0;
  opened.show("last");
  playInto(opened, item, "last", moves.slice(0, 1));
  const [attempt] = opened.attempts("last");
  assert.deepEqual(written, [[opened.prefix + "attempt:" + attempt.id, written[0][1]]]);
  assert.ok(written[0][1] < 1000, "one attempt's text, not thirty-one: " + written[0][1]);
});
