// Personal records and statistics (statistics.js): a deal's figures, a pack's (by tier, by
// mode), the winning streaks in the order attempts ended, the best times, and the words a
// player reads of them, from records in the export's shape.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const { site } = require("./site.js");

const statistics = site("statistics.js");

// An attempt record as the store keeps it: finished at minute `ended` of a day, unless it
// is still playing.
function attempt(outcome, fields) {
  const at = fields && fields.ended !== undefined ? fields.ended : 0;
  const minute = (n) => "2026-12-01T18:" + String(n).padStart(2, "0") + ":00.000Z";
  return Object.assign(
    {
      id: "a" + at + outcome,
      started: minute(Math.max(0, at - 1)),
      ended: outcome === "playing" ? null : minute(at),
      seconds: 100,
      outcome: outcome,
      cards_played: outcome === "won" ? 51 : 20,
      clean: false,
      mode: "relaxed",
      timed: false,
      move_limit: null,
    },
    fields,
    { ended: outcome === "playing" ? null : minute(at) }
  );
}

const PACK = [
  { deal_id: "d1", tier: "easy" },
  { deal_id: "d2", tier: "easy" },
  { deal_id: "d3", tier: "hard" },
  { deal_id: "d4", tier: "expert" },
];

function records(byDeal) {
  const deals = {};
  for (const id of Object.keys(byDeal)) deals[id] = { note: "", mark: null, attempts: byDeal[id] };
  return deals;
}

test("a deal's figures: finished attempts, wins, clean wins, best cards, fastest win", () => {
  const figures = statistics.ofDeal([
    attempt("stuck", { ended: 1, cards_played: 34 }),
    attempt("won", { ended: 2, seconds: 125, clean: true }),
    attempt("abandoned", { ended: 3, cards_played: 3 }),
    attempt("won", { ended: 4, seconds: 90 }),
    attempt("playing", { cards_played: 5 }),
  ]);
  assert.equal(figures.attempts, 4);
  assert.equal(figures.playing, 1);
  assert.equal(figures.wins, 2);
  assert.equal(figures.cleanWins, 1);
  assert.equal(figures.bestCards, 51);
  assert.equal(figures.fastestWin, 90);
  assert.deepEqual(figures.byMode, { relaxed: { played: 4, won: 2 }, one_attempt: { played: 0, won: 0 } });
});

test("a deal never finished has no best and no fastest win", () => {
  const figures = statistics.ofDeal([attempt("playing", { cards_played: 40 })]);
  assert.equal(figures.attempts, 0);
  assert.equal(figures.bestCards, null);
  assert.equal(figures.fastestWin, null);
  assert.equal(statistics.dealText(figures, 51), "1 attempt under way, none finished yet.");
  assert.equal(statistics.dealText(statistics.ofDeal([]), 51), "No attempt yet.");
});

test("a deal's record in player words", () => {
  const figures = statistics.ofDeal([
    attempt("stuck", { ended: 1, cards_played: 34 }),
    attempt("won", { ended: 2, seconds: 125, clean: true }),
    attempt("abandoned", { ended: 3 }),
  ]);
  assert.equal(
    statistics.dealText(figures, 51),
    "3 attempts, 1 won (clean) · best 51 of 51 cards · fastest win 2 min 5 s."
  );
  const lost = statistics.ofDeal([attempt("stuck", { ended: 1, cards_played: 34 })]);
  assert.equal(statistics.dealText(lost, 51), "1 attempt, none won · best 34 of 51 cards.");
  // Golf's 35 pile cards, and an attempt under way beside the finished ones
  const golf = statistics.ofDeal([attempt("won", { cards_played: 35, seconds: 45 }), attempt("playing")]);
  assert.equal(
    statistics.dealText(golf, 35),
    "1 attempt, 1 won · best 35 of 35 cards · fastest win 45 s · 1 attempt under way."
  );
});

test("wins and clean wins in words", () => {
  const text = (wins, cleanWins) => statistics.winsText({ wins: wins, cleanWins: cleanWins });
  assert.equal(text(0, 0), "none won");
  assert.equal(text(1, 0), "1 won");
  assert.equal(text(1, 1), "1 won (clean)");
  assert.equal(text(3, 3), "3 won (all clean)");
  assert.equal(text(3, 1), "3 won (1 clean)");
});

test("the attempts by mode are said only when one was not relaxed, or had a clock", () => {
  const relaxed = statistics.ofDeal([attempt("won", { ended: 1 }), attempt("stuck", { ended: 2 })]);
  assert.equal(statistics.modesText(relaxed), "");
  const mixed = statistics.ofDeal([
    attempt("won", { ended: 1 }),
    attempt("stuck", { ended: 2 }),
    attempt("won", { ended: 3, mode: "one_attempt", clean: true }),
    attempt("out_of_time", { ended: 4, mode: "one_attempt", timed: true, move_limit: 30 }),
  ]);
  assert.deepEqual(mixed.byMode, { relaxed: { played: 2, won: 1 }, one_attempt: { played: 2, won: 1 } });
  assert.deepEqual(mixed.timed, { played: 1, won: 0 });
  assert.equal(
    statistics.modesText(mixed),
    "2 relaxed games (1 won), 2 one-attempt games (1 won); 1 with a clock (none won)"
  );
  assert.match(statistics.dealText(mixed, 51), / · by mode: 2 relaxed games \(1 won\), 2 one-attempt games/);
  const purist = statistics.ofDeal([attempt("won", { mode: "one_attempt", clean: true })]);
  assert.equal(statistics.modesText(purist), "1 one-attempt game (won)");
});

test("a version 1 attempt, without a mode, counts as relaxed and untimed", () => {
  const old = attempt("won", { ended: 1 });
  delete old.mode;
  delete old.timed;
  delete old.move_limit;
  const figures = statistics.ofDeal([old]);
  assert.deepEqual(figures.byMode.relaxed, { played: 1, won: 1 });
  assert.deepEqual(figures.timed, { played: 0, won: 0 });
});

test("a pack's figures: played, won, win rate, deals tried and won, by tier", () => {
  const pack = statistics.of(
    records({
      d1: [attempt("stuck", { ended: 1 }), attempt("won", { ended: 2 })],
      d3: [attempt("stuck", { ended: 3 }), attempt("playing")],
      elsewhere: [attempt("won", { ended: 4 })], // not a deal of the pack: not counted
    }),
    PACK
  );
  assert.equal(pack.played, 3);
  assert.equal(pack.won, 1);
  assert.equal(pack.winRate, 1 / 3);
  assert.equal(pack.playing, 1);
  assert.equal(pack.dealsTried, 2);
  assert.equal(pack.dealsWon, 1);
  assert.equal(pack.dealCount, 4);
  assert.deepEqual(Object.keys(pack.byTier), ["easy", "hard", "expert"]);
  assert.deepEqual(pack.byTier.easy, { deals: 2, tried: 1, dealsWon: 1, played: 2, won: 1 });
  assert.deepEqual(pack.byTier.hard, { deals: 1, tried: 1, dealsWon: 0, played: 1, won: 0 });
  assert.deepEqual(pack.byTier.expert, { deals: 1, tried: 0, dealsWon: 0, played: 0, won: 0 });
  assert.equal(pack.deals.get("d2").attempts, 0);
  assert.equal(pack.deals.get("d1").wins, 1);
  assert.equal(statistics.rateText(1, 3), "33 %");
  assert.equal(statistics.rateText(0, 0), "—");
});

test("the export's list of deals reads as the store's object does", () => {
  const listed = [{ deal_id: "d1", note: "", mark: null, attempts: [attempt("won", { ended: 1 })] }];
  const pack = statistics.of(listed, PACK);
  assert.equal(pack.won, 1);
  assert.equal(pack.deals.get("d1").wins, 1);
});

test("streaks follow the order attempts ended, across deals, not the order of deals", () => {
  const pack = statistics.of(
    records({
      d1: [attempt("won", { ended: 1 }), attempt("won", { ended: 5 })],
      d2: [attempt("won", { ended: 2 }), attempt("won", { ended: 3 }), attempt("won", { ended: 6 })],
      d3: [attempt("abandoned", { ended: 4 }), attempt("playing")], // an attempt in progress breaks nothing
    }),
    PACK
  );
  // in end order: won won won abandoned won won
  assert.equal(pack.longestStreak, 3);
  assert.equal(pack.currentStreak, 2);
  const broken = statistics.of(records({ d1: [attempt("won", { ended: 1 }), attempt("out_of_time", { ended: 2 })] }), PACK);
  assert.equal(broken.currentStreak, 0);
  assert.equal(broken.longestStreak, 1);
});

test("best times: each deal's fastest win, fastest first, with its deal and mode", () => {
  const pack = statistics.of(
    records({
      d1: [attempt("won", { ended: 1, seconds: 300 }), attempt("won", { ended: 2, seconds: 80 })],
      d2: [attempt("won", { ended: 3, seconds: 200, mode: "one_attempt", timed: true, move_limit: 60 })],
      d3: [attempt("stuck", { ended: 4, seconds: 10 })],
      d4: [attempt("won", { ended: 5, seconds: 200 })],
    }),
    PACK
  );
  assert.deepEqual(
    pack.bestTimes.map((best) => [best.dealId, best.seconds, best.mode, best.timed]),
    [
      ["d1", 80, "relaxed", false],
      ["d2", 200, "one_attempt", true], // equal times: the one that ended first
      ["d4", 200, "relaxed", false],
    ]
  );
  assert.equal(pack.bestTimes[0].ended, "2026-12-01T18:02:00.000Z");
  assert.equal(statistics.of(records({ d1: [attempt("won"), attempt("won")] }), PACK, 1).bestTimes.length, 1);
});

test("a pack's counts by mode and with a clock", () => {
  const pack = statistics.of(
    records({
      d1: [attempt("won", { ended: 1 }), attempt("stuck", { ended: 2, mode: "one_attempt" })],
      d2: [attempt("won", { ended: 3, mode: "one_attempt", timed: true, move_limit: 10 })],
    }),
    PACK
  );
  assert.deepEqual(pack.byMode, { relaxed: { played: 1, won: 1 }, one_attempt: { played: 2, won: 1 } });
  assert.deepEqual(pack.timed, { played: 1, won: 1 });
});

test("no records: nothing played, no rate, no streak, no best time", () => {
  for (const empty of [{}, [], null]) {
    const pack = statistics.of(empty, PACK);
    assert.equal(pack.played, 0);
    assert.equal(pack.won, 0);
    assert.equal(pack.winRate, null);
    assert.equal(pack.currentStreak, 0);
    assert.equal(pack.longestStreak, 0);
    assert.deepEqual(pack.bestTimes, []);
    assert.deepEqual(statistics.kept(empty), { attempts: 0, notes: 0, marks: 0, open: 0 });
    assert.equal(pack.deals.size, 4);
  }
});

test("what a reset deletes, in words: finished attempts, notes and marks, not this tab's open attempts", () => {
  const deals = records({ d1: [attempt("won", { ended: 1 }), attempt("playing")], d2: [attempt("stuck", { ended: 2 })] });
  deals.d1.note = "too easy";
  deals.d2.note = "fine";
  deals.d3 = { note: "", mark: "reject", attempts: [] };
  // another tab's attempt in progress is that tab's to keep: neither deleted nor open here
  assert.deepEqual(statistics.kept(deals), { attempts: 2, notes: 2, marks: 1, open: 0 });
  // this tab's relaxed attempt stuck at d2 is still open (Undo takes it on): kept
  const found = statistics.kept(deals, [deals.d2.attempts[0].id]);
  assert.deepEqual(found, { attempts: 1, notes: 2, marks: 1, open: 1 });
  assert.equal(statistics.recordsText(found), "1 attempt, 2 notes and 1 mark");
  assert.equal(statistics.recordsText(statistics.kept(deals)), "2 attempts, 2 notes and 1 mark");
  assert.equal(statistics.recordsText({ attempts: 1, notes: 0, marks: 0 }), "1 attempt");
  assert.equal(statistics.recordsText({ attempts: 0, notes: 1, marks: 2 }), "1 note and 2 marks");
  assert.equal(statistics.recordsText({ attempts: 0, notes: 0, marks: 0 }), "nothing");
});

test("the index's mark of a deal: won, tried with its best, untried", () => {
  const won = statistics.markOf(statistics.ofDeal([attempt("stuck", { ended: 1 }), attempt("won", { ended: 2 })]), 51);
  assert.deepEqual(won, { kind: "won", text: "Won", title: "Won 1 time in 2 attempts" });
  const tried = statistics.markOf(statistics.ofDeal([attempt("stuck", { ended: 1, cards_played: 34 })]), 51);
  assert.deepEqual(tried, { kind: "tried", text: "Best 34 of 51", title: "Not won yet: 1 attempt, best 34 of 51 cards" });
  assert.equal(statistics.markOf(statistics.ofDeal([attempt("playing")]), 51).kind, "untried");
  assert.equal(statistics.markOf(undefined, 51).text, "");
});

test("modes in words", () => {
  assert.equal(statistics.modeText("one_attempt", false), "one attempt");
  assert.equal(statistics.modeText("relaxed", true), "relaxed, with a clock");
});
