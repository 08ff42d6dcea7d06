// The solver off the page's thread (worker.js, and solver.js's `serve` and `workerSource`):
// answers come back by question, an abandoned question's answer never arrives, its worker is
// terminated, and where no worker can run the page answers. The workers here are fakes that
// run solver.js's own worker script in a Node `vm` context, one message at a time.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const vm = require("node:vm");
const { site, golden } = require("./site.js");

const Solver = site("solver.js");
const worker = site("worker.js");
const CASES = golden("solver.json");

// A stand-in for `new Worker(blobUrl)`: solver.js's workerSource run with its own `self`.
// Messages both ways are copied (as structuredClone does) and delivered on a later turn;
// `terminate()` stops it, unless `deaf` (then a reply already sent still arrives).
class FakeWorker {
  constructor(deaf) {
    this.deaf = Boolean(deaf);
    this.terminated = false;
    this.received = [];
    const self = {
      postMessage: (reply) => {
        setImmediate(() => {
          if ((!this.terminated || this.deaf) && this.onmessage) this.onmessage({ data: structuredClone(reply) });
        });
      },
    };
    vm.runInNewContext(Solver.workerSource, { self: self });
    this.scope = self;
  }

  postMessage(message) {
    this.received.push(message);
    const copy = structuredClone(message);
    setImmediate(() => {
      if (!this.terminated) this.scope.onmessage({ data: copy });
    });
  }

  terminate() {
    this.terminated = true;
  }
}

function spawner(deaf) {
  const made = [];
  const spawn = function () {
    const fake = new FakeWorker(deaf);
    made.push(fake);
    return fake;
  };
  return { spawn: spawn, made: made };
}

// Ask `searcher` a hint for `item` and wait for its answer: [answer, where].
function hintOf(searcher, item) {
  return new Promise((resolve) => {
    searcher.ask(
      { op: "hint", cards: item.cards, moves: item.moves },
      (answer, where) => resolve([answer, where]),
      () => new Solver.Game(item.cards).hint(item.moves)
    );
  });
}

function settle() {
  return new Promise((resolve) => setTimeout(resolve, 60)); // past the in-page pause (30 ms)
}

// Wait until `done()` holds, however slow the machine, up to a minute.
async function until(done) {
  for (const deadline = Date.now() + 60000; !done() && Date.now() < deadline; ) await settle();
}

const WON = CASES.find((item) => item.verdict === "solved");
const LOST = CASES.find((item) => item.verdict === "unsolvable" && item.undo > 0);

test("a hint asked of a worker is the solver's, answered by the worker", async () => {
  const { spawn, made } = spawner();
  const searcher = worker.create(spawn);
  for (const item of [WON, LOST]) {
    const [answer, where] = await hintOf(searcher, item);
    const expected = new Solver.Game(item.cards).hint(item.moves);
    assert.equal(where, "worker");
    assert.deepEqual([answer.kind, answer.move, answer.undo], [expected.kind, expected.move, expected.undo]);
  }
  assert.equal(made.length, 1, "one worker for the questions answered");
  assert.equal(searcher.busy(), false);
});

test("the worker's script is the solver's own: the traps it finds are the page's", async () => {
  const { spawn } = spawner();
  const searcher = worker.create(spawn);
  const rules = new Solver.Game(WON.cards);
  const line = rules.solve(rules.start()).line;
  const found = await new Promise((resolve) => {
    searcher.ask({ op: "traps", cards: rules.cards, solution: line }, resolve, () => null);
  });
  assert.deepEqual(found, new Solver.Game(WON.cards).traps(line));
});

test("a question names its game: the worker answers a Golf or All in a Row hint and traps by that game's rules", async () => {
  const { spawn, made } = spawner();
  const searcher = worker.create(spawn);
  const family = golden("family_solver.json");
  for (const name of ["all_in_a_row", "golf"]) {
    for (const item of family.filter((item) => item.game === name).slice(0, 4)) {
      const rules = Solver.rulesFor(item.cards, item.game);
      const [answer, where] = await new Promise((resolve) => {
        searcher.ask(
          { op: "hint", cards: rules.cards, game: item.game, moves: item.moves },
          (found, from) => resolve([found, from]),
          () => null
        );
      });
      const expected = Solver.rulesFor(item.cards, item.game).hint(item.moves);
      assert.equal(where, "worker");
      assert.deepEqual([answer.kind, answer.move, answer.undo], [expected.kind, expected.move, expected.undo]);
    }
  }
  const won = golden("family_verdicts.json").find((item) => item.game === "golf" && item.verdict === "solved");
  const rules = Solver.rulesFor(won.cards, won.game);
  const line = rules.solve(rules.start()).line;
  const found = await new Promise((resolve) => {
    searcher.ask({ op: "traps", cards: rules.cards, game: won.game, solution: line }, resolve, () => null);
  });
  assert.deepEqual(found, Solver.rulesFor(won.cards, won.game).traps(line));
  assert.equal(made.length, 1);
});

test("asking again abandons the question before: its answer never comes, its worker is terminated", async () => {
  const { spawn, made } = spawner();
  const searcher = worker.create(spawn);
  let first = 0;
  searcher.ask({ op: "hint", cards: WON.cards, moves: WON.moves }, () => first++, () => null);
  const [answer, where] = await hintOf(searcher, LOST);
  await settle();
  assert.equal(first, 0);
  assert.equal(where, "worker");
  assert.equal(answer.undo, LOST.undo);
  assert.equal(made.length, 2);
  assert.equal(made[0].terminated, true);
  assert.equal(made[1].terminated, false);
});

test("a cancelled question's answer is dropped by its id, even if its worker sent it", async () => {
  const { spawn, made } = spawner(true); // workers that still deliver after terminate()
  const searcher = worker.create(spawn);
  let answered = 0;
  searcher.ask({ op: "hint", cards: WON.cards, moves: WON.moves }, () => answered++, () => null);
  setImmediate(() => searcher.cancel()); // after the worker got the question, before its reply
  await settle();
  assert.equal(answered, 0);
  assert.equal(made[0].terminated, true);
  assert.equal(searcher.busy(), false);
});

test("held questions wait for release: a slow search, made deterministic", async () => {
  const { spawn } = spawner();
  const searcher = worker.create(spawn);
  const running = worker.testing.live(); // the other tests' workers
  worker.testing.hold = true;
  try {
    let answer = null;
    searcher.ask({ op: "hint", cards: WON.cards, moves: WON.moves }, (found) => (answer = found), () => null);
    await settle();
    assert.equal(answer, null);
    assert.equal(searcher.busy(), true);
    assert.equal(worker.testing.live(), running + 1);
    worker.testing.release();
    await until(() => answer !== null);
    assert.equal(answer.kind, "win");
    searcher.ask({ op: "hint", cards: WON.cards, moves: WON.moves }, () => null, () => null);
    searcher.cancel();
    assert.equal(worker.testing.live(), running, "the held question's worker is terminated");
  } finally {
    worker.testing.hold = false;
  }
});

test("where no worker can be made, the page answers", async () => {
  const searcher = worker.create(() => {
    throw new Error("no workers here");
  });
  const [answer, where] = await hintOf(searcher, LOST);
  assert.equal(where, "page");
  assert.equal(answer.undo, LOST.undo);
  let abandoned = 0;
  searcher.ask({ op: "hint", cards: WON.cards, moves: WON.moves }, () => abandoned++, () => ({}));
  searcher.cancel();
  await settle();
  assert.equal(abandoned, 0, "a question cancelled before the page answers it is dropped");
});

test("a worker that fails hands its question, and the next, to the page", async () => {
  const { spawn, made } = spawner();
  const searcher = worker.create(spawn);
  const answer = hintOf(searcher, WON);
  made[0].terminate(); // it never answers; it reports an error instead
  made[0].onerror({ preventDefault: () => null });
  const [found, where] = await answer;
  assert.equal(where, "page");
  assert.equal(found.kind, "win");
  assert.equal((await hintOf(searcher, LOST))[1], "page");
  assert.equal(made.length, 1);
});
