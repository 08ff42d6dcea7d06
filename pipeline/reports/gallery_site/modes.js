// How an attempt is played, chosen on the deal's page before its first move: relaxed (undo,
// redo, restart, hints) or one attempt (none of them; the attempt ends at its first dead end),
// and a clock: none, one, or one with a limit of thinking time a move (10, 30 or 60 s). The
// choice is the store's (records.js): remembered as the default for the next attempt, and
// stamped on the attempt by its first event, after which the chooser is disabled until a new
// attempt. And the clock on show in the toolbar while a timed attempt is played: its elapsed
// time (the record's seconds, counted while the deal is shown and the page visible), and the
// time left for this move, which ends the attempt when it runs out.
//
// Registers window.Blackhole.modes: `create(store, handlers)` binds the chooser and gives
// {start, recorded, end, setShown, setBlocked, render}. `handlers.onChoose(choice)` is called
// when the player changes the choice; `handlers.onTimeUp()` when the move's time ran out.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const clock = inNode ? require("./clock.js") : root.Blackhole.clock;
  const game = inNode ? require("./game.js") : root.Blackhole.game;
  const byId = dom.byId;
  const TICK = 200; // ms between the clock's redraws (it shows whole seconds)

  function create(store, handlers) {
    const modeSelect = byId("mode-select");
    const clockSelect = byId("clock-select");
    let dealId = null; // the deal on show
    let choice = null; // the mode of the attempt on show: {mode, timed, move_limit}
    let elapsed = new clock.Stopwatch(); // the attempt's seconds
    let limit = null; // its clock.MoveLimit, when it has a limit a move
    let over = false; // the attempt has ended: its clock stands still
    let shown = false; // the deal is on show
    let blocked = false; // the position has no move: no move's time runs (Undo may follow)
    let visible = !inNode && document.visibilityState !== "hidden";
    let timer = null;

    modeSelect.addEventListener("change", onChange);
    clockSelect.addEventListener("change", onChange);
    document.addEventListener("visibilitychange", function () {
      visible = document.visibilityState !== "hidden";
      run();
    });

    // The chooser changed, before the attempt's first event: the next attempts' default, and
    // this one's.
    function onChange() {
      if (modeSelect.disabled) return;
      const chosen = Object.assign({ mode: modeSelect.value }, clock.clockOf(clockSelect.value));
      store.setChoice(chosen);
      store.setPendingMode(dealId, chosen);
      choose(chosen);
      handlers.onChoose(chosen);
    }

    // This attempt is played in `chosen`: its clock and its limit a move follow it.
    function choose(chosen) {
      choice = chosen;
      const started = limit !== null && limit.started;
      limit = chosen.move_limit === null ? null : new clock.MoveLimit(chosen.move_limit);
      if (limit && started) limit.moved();
      run();
      draw();
    }

    // An attempt on show at `id`, played in `chosen`: a fresh one (`seconds` 0, no event yet),
    // or one resumed (its record's seconds, `begun` when it has events: its limit runs).
    function start(id, chosen, seconds, begun) {
      dealId = id;
      over = false;
      elapsed = new clock.Stopwatch();
      elapsed.set(seconds);
      limit = null;
      choose(chosen);
      if (limit && begun) limit.moved();
      run();
      draw();
    }

    // `event` was recorded into `attempt` (the store's record): the clock shows the record's
    // seconds, and every step but a hint gives the next move the whole limit.
    function recorded(event, attempt) {
      elapsed.set(attempt.seconds);
      if (limit && event !== game.HINT) limit.moved();
      draw();
    }

    // The attempt ended (won, stuck in one attempt, out of time): its clock stands still at
    // the record's seconds.
    function end(attempt) {
      over = true;
      if (attempt) elapsed.set(attempt.seconds);
      run();
      draw();
    }

    // The deal is on show (true) or not (the index): the clock runs only while it is.
    function setShown(isShown) {
      shown = isShown;
      run();
    }

    // The position on show has no move (true) or has one again (an undo): a dead end is no
    // move's thinking time, so the limit waits there, and the step out of it gives the next
    // move the whole limit.
    function setBlocked(isBlocked) {
      blocked = isBlocked;
      run();
    }

    function run() {
      const on = shown && visible && !over;
      elapsed.run(on);
      if (limit) limit.run(on && !blocked);
      const ticking = on && choice !== null && choice.timed;
      if (ticking && timer === null) timer = setInterval(tick, TICK);
      if (!ticking && timer !== null) {
        clearInterval(timer);
        timer = null;
      }
    }

    function tick() {
      draw();
      if (limit && limit.expired() && !over) {
        over = true;
        run();
        handlers.onTimeUp();
      }
    }

    // The clock in the toolbar: shown for a timed attempt, its text of fixed width.
    function draw() {
      const timed = choice !== null && choice.timed;
      byId("clock").hidden = !timed;
      if (!timed) return;
      byId("clock-elapsed").textContent = clock.elapsedText(elapsed.seconds());
      const left = byId("clock-left");
      left.hidden = limit === null;
      if (limit) {
        // no time left to speak of once the attempt is over (its room kept: nothing moves)
        left.textContent = over ? "" : clock.leftText(limit.left());
        left.classList.toggle("low", !over && limit.started && clock.isLow(limit.left()));
        left.title = limit.started ? "Thinking time left for this move" : "Your first move starts the " + limit.limit + " s a move";
      }
    }

    // The chooser shows `chosen` (the attempt's mode); it can be changed only while the
    // attempt has no event (`open`).
    function render(chosen, open) {
      modeSelect.value = chosen.mode;
      clockSelect.value = clock.clockValue(chosen);
      modeSelect.disabled = !open;
      clockSelect.disabled = !open;
      const why = open ? "" : "Chosen for this attempt: New attempt lets you choose again";
      modeSelect.title = why;
      clockSelect.title = why;
    }

    return {
      start: start,
      recorded: recorded,
      end: end,
      setShown: setShown,
      setBlocked: setBlocked,
      render: render,
    };
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).modes = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
