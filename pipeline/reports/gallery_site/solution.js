// The solution player: First, Back, Forward and Play step the game in play along the deal's
// stored solution (undo and redo then step along it too), and mark the card its next move
// plays and the last card played while it is in use.
//
// Registers window.Blackhole.solution: `create(onChange)` binds the player's controls and
// gives {open, goTo, leave, stop, render, marks}; the solution, whether it is being
// watched and the auto-play timer are its own. It moves the game it is given (a
// Blackhole.game.Play) and calls `onChange()` after every step, for the page to redraw.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const byId = dom.byId;

  function create(onChange) {
    let solution = []; // the deal's stored solution, piles in order
    let game = null; // the Blackhole.game.Play it steps
    let watching = false; // in use: show its next and last cards
    let timer = null; // the auto-play's next step

    byId("solution-first").addEventListener("click", first);
    byId("solution-back").addEventListener("click", back);
    byId("solution-forward").addEventListener("click", forward);
    byId("solution-play").addEventListener("click", toggle);
    byId("solution-speed").addEventListener("change", onSpeedChange);

    // A new deal in play: its solution (the player is hidden when it has none) and game.
    function open(deal, play) {
      stop();
      solution = deal.solution;
      game = play;
      watching = false;
      byId("solution-player").hidden = solution.length === 0;
    }

    // The game at solution[0:step], with the rest of the solution to redo.
    function goTo(step) {
      game.follow(solution, step);
      watching = true;
      onChange();
    }

    // The player's own moves (or a restart) take over: no more marks.
    function leave() {
      watching = false;
    }

    // Which cards the board marks while watching: {current: the pile the next move plays
    // (or null), last: the foundation's card is the last one played}.
    function marks() {
      const shown = { current: null, last: false };
      if (watching && solution.length) {
        const cursor = game.cursor(solution);
        if (cursor.onPath && cursor.step < solution.length) shown.current = solution[cursor.step];
        shown.last = cursor.onPath && cursor.step > 0;
      }
      return shown;
    }

    function render() {
      if (!solution.length) return;
      const cursor = game.cursor(solution);
      const step = byId("solution-step");
      const detail = byId("solution-detail");
      byId("solution-play").textContent = timer ? "Pause" : "Play";
      if (!watching) {
        step.textContent = words.plural(solution.length, "move") + " to a win";
        detail.textContent = "Step through them, or press Play to watch.";
        return;
      }
      if (!cursor.onPath) {
        step.textContent = "left the solution after move " + cursor.step + " of " + solution.length;
        detail.textContent = "Forward goes back to it.";
        return;
      }
      step.textContent = "move " + cursor.step + " of " + solution.length;
      detail.textContent = stepDetail(cursor.step);
    }

    // "last: 7♥ from pile 3; next: 8♣ from pile 9", read off the cards of the deal.
    function stepDetail(step) {
      const parts = [];
      if (step > 0) parts.push("last: " + moveText(step - 1));
      if (step < solution.length) parts.push("next: " + moveText(step));
      return parts.join("; ");
    }

    function moveText(index) {
      const pile = solution[index];
      const before = game.rules.after(solution.slice(0, index));
      return words.cardFace(game.rules.topCard(before, pile)) + " from pile " + pile;
    }

    function forward() {
      stop();
      const cursor = game.cursor(solution);
      // Off the solution, forward first returns to it, at the last move in common.
      goTo(cursor.onPath ? cursor.step + 1 : cursor.step);
    }

    function back() {
      stop();
      const cursor = game.cursor(solution);
      goTo(cursor.onPath ? cursor.step - 1 : cursor.step);
    }

    function first() {
      stop();
      goTo(0);
    }

    function toggle() {
      if (timer) stop();
      else startAutoPlay();
      render();
    }

    function startAutoPlay() {
      const cursor = game.cursor(solution);
      // From the end, watch again from the start; off the solution, from where it was left.
      goTo(cursor.onPath && cursor.step >= solution.length ? 0 : cursor.step);
      scheduleTick();
    }

    function scheduleTick() {
      timer = setTimeout(tick, Number(byId("solution-speed").value));
      byId("solution-play").textContent = "Pause";
    }

    function tick() {
      timer = null;
      const cursor = game.cursor(solution);
      if (!cursor.onPath || cursor.step >= solution.length) {
        render();
        return;
      }
      if (cursor.step + 1 < solution.length) scheduleTick();
      goTo(cursor.step + 1);
    }

    // Stop the auto-play, if it runs.
    function stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      byId("solution-play").textContent = "Play";
    }

    function onSpeedChange() {
      // A new speed applies from the next move on.
      if (!timer) return;
      clearTimeout(timer);
      scheduleTick();
    }

    return { open: open, goTo: goTo, leave: leave, stop: stop, render: render, marks: marks };
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).solution = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
