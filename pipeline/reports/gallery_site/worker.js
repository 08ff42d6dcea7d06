// The solver off the page's thread: a question for it (a hint, a deal's traps) goes to a
// Web Worker made from solver.js's own source (a Blob URL, which works from file://, no
// request), so the page answers clicks while the search runs.
//
// A searcher answers one question at a time. Asking again, or cancelling (the player
// moved, undid, restarted or left the deal), abandons the question before it: the
// worker still searching it is terminated, so no CPU goes to an answer nobody will
// read, and its answer, had it been sent already, is dropped by its id. The next
// question starts a fresh worker. Where no worker can be made (or one fails), the
// question is answered in the page instead, after a pause that lets the page paint.
//
// Registers window.Blackhole.worker: `create(spawn)` gives a searcher {ask, cancel, busy}.
// `testing` is a hook for tests: `hold` makes workers keep each question unanswered until
// `release()` (a slow search, made deterministic); `live()` counts the workers running.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;

  const IN_PAGE_DELAY = 30; // ms: an answer searched in the page waits until "Looking…" is painted
  const running = new Set(); // every searcher's worker, while it runs
  const testing = {
    hold: false,
    release: function () {
      running.forEach((worker) => worker.postMessage({ op: "release" }));
    },
    live: function () {
      return running.size;
    },
  };

  let sourceUrl = null;

  // A worker running solver.js's `serve`; throws where workers cannot be made.
  function spawnWorker() {
    if (sourceUrl === null) {
      const blob = new Blob([Solver.workerSource], { type: "text/javascript" });
      sourceUrl = URL.createObjectURL(blob);
    }
    return new Worker(sourceUrl);
  }

  // `spawn` makes a worker (by default from solver.js's source; Node's tests pass their own).
  function create(spawn) {
    const make = spawn || spawnWorker;
    let worker = null;
    let noWorkers = false; // a worker could not be made, or failed: answer in the page from now on
    let current = null; // the question awaiting its answer: {id, message, done, here, inPage}
    let lastId = 0;

    function start() {
      try {
        worker = make();
      } catch {
        noWorkers = true;
        return false;
      }
      running.add(worker);
      worker.onmessage = received;
      worker.onerror = failed;
      return true;
    }

    function stop() {
      running.delete(worker);
      worker.terminate();
      worker = null;
    }

    function received(event) {
      const reply = event.data;
      if (current === null || current.inPage || reply.id !== current.id) return; // abandoned
      const asked = current;
      current = null;
      asked.done(reply.answer, "worker");
    }

    // The worker could not run (its script was refused, say): this question and the next
    // are answered in the page.
    function failed(event) {
      if (event && event.preventDefault) event.preventDefault();
      noWorkers = true;
      if (worker !== null) stop();
      if (current !== null && !current.inPage) answerHere(current);
    }

    function answerHere(asked) {
      asked.inPage = true;
      setTimeout(function () {
        if (current !== asked) return;
        current = null;
        asked.done(asked.here(), "page");
      }, IN_PAGE_DELAY);
    }

    // Ask `message` ({op: "hint", cards, moves} or {op: "traps", cards, solution}, as
    // solver.js's `serve` reads it) of a worker, or where there is none, call `here()` for
    // the same answer in the page. `done(answer, where)` gets the answer and "worker" or
    // "page", unless the question is abandoned first.
    function ask(message, done, here) {
      cancel();
      const asked = { id: ++lastId, message: message, done: done, here: here, inPage: false };
      current = asked;
      if (!noWorkers && (worker !== null || start())) {
        worker.postMessage(Object.assign({ id: asked.id, hold: testing.hold }, message));
      } else {
        answerHere(asked);
      }
    }

    // Abandon the question awaiting its answer, if any: its `done` is never called.
    function cancel() {
      if (current === null) return;
      const abandoned = current;
      current = null;
      if (!abandoned.inPage && worker !== null) stop();
    }

    return {
      ask: ask,
      cancel: cancel,
      // Whether a question awaits its answer.
      busy: function () {
        return current !== null;
      },
    };
  }

  const api = { create: create, testing: testing };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).worker = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
