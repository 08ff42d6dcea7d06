// The clock of a timed attempt: its elapsed time, and the thinking time left for the next
// move when the attempt has a limit a move (the rules' informal timed variant). Pure, no DOM:
// Node's unit tests load it too; modes.js shows it on the page.
//
// Time counts only while it runs: the deal shown and the page visible, as the play records
// count an attempt's seconds (records.js), so the clock shows the same figure. `now` is a
// function giving milliseconds (Date.now by default), which the tests replace.
//
// Registers window.Blackhole.clock (module.exports under Node).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const records = inNode ? require("./records.js") : root.Blackhole.records;
  const MOVE_LIMITS = records.MOVE_LIMITS; // seconds a move a player may choose, as the records keep them
  const LOW = 5; // seconds left from which the clock warns

  // Seconds counted while running; set() puts its count anywhere (a record's seconds).
  class Stopwatch {
    #now;
    #counted = 0; // seconds counted up to #since (or in all, while stopped)
    #since = null; // when it last started running, or null while stopped

    constructor(now) {
      this.#now = now || Date.now;
    }

    get running() {
      return this.#since !== null;
    }

    seconds() {
      return this.#since === null ? this.#counted : this.#counted + (this.#now() - this.#since) / 1000;
    }

    set(seconds) {
      this.#counted = seconds;
      if (this.#since !== null) this.#since = this.#now();
    }

    // Run (true) or stop (false); running again goes on from the count.
    run(on) {
      if (on === this.running) return;
      if (on) this.#since = this.#now();
      else {
        this.#counted = this.seconds();
        this.#since = null;
      }
    }
  }

  // The thinking time of one move: `limit` seconds from each move to the next; the first move
  // starts it (the time before it is for looking at the deal).
  class MoveLimit {
    #watch;

    constructor(limit, now) {
      if (!MOVE_LIMITS.includes(limit)) throw new Error("a move limit is one of " + MOVE_LIMITS.join(", ") + " seconds, not " + limit);
      this.limit = limit;
      this.started = false;
      this.#watch = new Stopwatch(now);
    }

    // A move was made: the next one has the whole limit again, counted from now if it runs.
    moved() {
      this.started = true;
      this.#watch.set(0);
    }

    run(on) {
      this.#watch.run(on);
    }

    // Seconds left for this move (the whole limit before the first move), never below 0.
    left() {
      return this.started ? Math.max(0, this.limit - this.#watch.seconds()) : this.limit;
    }

    expired() {
      return this.left() <= 0;
    }
  }

  function twoDigits(number) {
    return (number < 10 ? "0" : "") + number;
  }

  // The elapsed time as a clock shows it: "0:07", "12:05", "1:02:03" (whole seconds, down).
  function elapsedText(seconds) {
    const whole = Math.max(0, Math.floor(seconds + 1e-9));
    const hours = Math.floor(whole / 3600);
    const minutes = Math.floor(whole / 60) % 60;
    const rest = twoDigits(whole % 60);
    return hours ? hours + ":" + twoDigits(minutes) + ":" + rest : minutes + ":" + rest;
  }

  // The time left for a move, in whole seconds up ("7 s left" until 6 s are left).
  function leftText(seconds) {
    return Math.ceil(Math.max(0, seconds) - 1e-9) + " s left";
  }

  // Whether the time left deserves a warning.
  function isLow(seconds) {
    return seconds <= LOW;
  }

  // The clock chooser's value for a choice ({timed, move_limit}): "none", "clock" or the
  // limit's seconds ("10"); and back.
  function clockValue(choice) {
    if (!choice.timed) return "none";
    return choice.move_limit === null ? "clock" : String(choice.move_limit);
  }

  function clockOf(value) {
    if (value === "none") return { timed: false, move_limit: null };
    if (value === "clock") return { timed: true, move_limit: null };
    const limit = Number(value);
    if (!MOVE_LIMITS.includes(limit)) throw new Error("a clock is none, clock or one of " + MOVE_LIMITS.join(", ") + ", not " + value);
    return { timed: true, move_limit: limit };
  }

  // A mode in words, for a player: "one attempt, clock, 10 s a move", "relaxed, no clock".
  function modeWords(choice) {
    const mode = choice.mode === "one_attempt" ? "one attempt" : "relaxed";
    if (!choice.timed) return mode + ", no clock";
    return mode + ", clock" + (choice.move_limit === null ? "" : ", " + choice.move_limit + " s a move");
  }

  const api = {
    Stopwatch: Stopwatch,
    MoveLimit: MoveLimit,
    MOVE_LIMITS: MOVE_LIMITS,
    elapsedText: elapsedText,
    leftText: leftText,
    isLow: isLow,
    clockValue: clockValue,
    clockOf: clockOf,
    modeWords: modeWords,
  };
  if (typeof module === "object" && module.exports) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).clock = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
