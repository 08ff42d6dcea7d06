// The solution player: First, Back, Forward and Play step the game in play along the deal's
// stored solution (undo and redo then step along it too), and mark the card its next move
// plays and the last card played while it is in use; a trap shown (traps.js) marks the
// cards that lose there too.
//
// It never throws a move of the player's away unasked. When the game has left the solution
// (the player played a card of their own), it says so, and its buttons first take the game
// back to where it left, by undoing: the player's moves stay in Redo. Only a step along the
// solution from there (Forward, Play) drops them, as the status line says beforehand.
//
// Registers window.Blackhole.solution: `create(onChange)` binds the player's controls and
// gives {open, goTo, showTrap, leave, stop, render, marks}; the solution, whether it is
// being watched, the trap shown and the auto-play timer are its own. It moves the game it
// is given (a Blackhole.game.Play) and calls `onChange()` after every step, for the page to
// redraw.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const byId = dom.byId;

  function create(onChange) {
    let solution = []; // the deal's stored solution, piles in order
    let game = null; // the Blackhole.game.Play it steps
    let watching = false; // in use: show its next and last cards, and say when the game left it
    let trap = null; // the trap shown (traps.js's {step, losing, said}), while the game is there
    let warned = null; // a trap's show that would drop the player's own moves, said once: {step, moves, redo}
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
      trap = null;
      byId("solution-player").hidden = solution.length === 0;
    }

    // The game at solution[0:step], reached by undoing what it does not share with the
    // solution and redoing (else playing) the solution's moves.
    function goTo(step) {
      game.follow(solution, step);
      watching = true;
      onChange();
    }

    // A trap of the solution (traps.js's {step, losing, said}): its position, with the
    // losing cards marked and named until the game moves on.
    // Reaching it may mean playing solution moves past the player's own, which drops those
    // from Redo: then the first press only goes back to the solution (the moves kept in Redo)
    // and says that a second press forgets them.
    function showTrap(shown) {
      stop();
      const cursor = game.cursor(solution);
      const own = cursor.onPath ? ownRedo(cursor.step).length : game.moveCount - cursor.step;
      const said = warnedHere();
      if (own && shown.step > cursor.step && !(said && said.step === shown.step)) {
        if (!cursor.onPath) backToSolution();
        warned = { step: shown.step, moves: game.moveCount, redo: game.redoMoves.length };
        onChange();
        return;
      }
      warned = null;
      trap = shown;
      goTo(shown.step);
    }

    // The player's own move, or a restart: the player keeps watching (it says when the game
    // has left the solution), unless the game is back at its opening position.
    function leave() {
      warned = null;
      if (!game.moveCount) watching = false;
    }

    // The game's moves undone (into Redo) until they follow the solution again.
    function backToSolution() {
      while (!game.cursor(solution).onPath) {
        if (!game.undo()) break;
      }
      watching = true;
      onChange();
    }

    // The piles Redo would play next, when they are the player's own rather than the
    // solution's from `step` on (else none).
    function ownRedo(step) {
      const redo = game.redoMoves;
      if (!redo.length || redo[0] === solution[step]) return [];
      return redo.filter((move) => typeof move === "number");
    }

    // The warning that a trap's show drops the player's moves, while the game is as it was
    // when it was said (else it is forgotten).
    function warnedHere() {
      if (warned && (game.moveCount !== warned.moves || game.redoMoves.length !== warned.redo)) warned = null;
      return warned;
    }

    // The trap on show, if the game is still at its position (else it is forgotten).
    function trapHere(cursor) {
      if (trap && !(cursor.onPath && cursor.step === trap.step)) trap = null;
      return trap;
    }

    // Which cards the board marks while watching: {current: the pile the next move plays
    // (or null), last: the foundation's card is the last one played, losing: the piles whose
    // card loses here (a trap shown)}.
    function marks() {
      const shown = { current: null, last: false, losing: [] };
      if (watching && solution.length) {
        const cursor = game.cursor(solution);
        if (cursor.onPath && cursor.step < solution.length) shown.current = solution[cursor.step];
        shown.last = cursor.onPath && cursor.step > 0;
        const here = trapHere(cursor);
        if (here) shown.losing = here.losing.slice();
      }
      return shown;
    }

    function render() {
      if (!solution.length) return;
      const cursor = game.cursor(solution);
      const [step, detail] = statusText(cursor);
      const stepText = byId("solution-step");
      const detailText = byId("solution-detail");
      stepText.textContent = step;
      detailText.textContent = detail;
      // The status is new text each time, the space between its parts too: a space kept from
      // the last status would move as the step's text changes, which a browser counts as a
      // layout shift (the room below is kept: gallery.css).
      stepText.parentNode.replaceChildren(stepText, " ", detailText);
      byId("solution-play").textContent = timer ? "Pause" : "Play";
      // At the solution's end nothing is left to show or watch: First and Back step back.
      const complete = atEnd(cursor);
      dom.setDisabled(byId("solution-forward"), complete);
      dom.setDisabled(byId("solution-play"), complete);
    }

    // The game has played the whole solution (a win).
    function atEnd(cursor) {
      return cursor.onPath && cursor.step >= solution.length;
    }

    // The status line, in two parts: where the game is on the solution, and what the
    // buttons do from there.
    function statusText(cursor) {
      const of = " of " + solution.length;
      if (atEnd(cursor)) {
        const back = "First or Back steps back through it.";
        return [
          "Solution complete: " + cursor.step + " of " + words.plural(solution.length, "move") + ".",
          watching ? stepDetail(cursor.step) + "; " + back : "Your game followed it to the win. " + back,
        ];
      }
      if (!watching) {
        const intro = "Step through them, or press Play to watch.";
        if (cursor.onPath && cursor.step) {
          return [
            "Your game follows the solution to move " + cursor.step + of + ".",
            "Forward shows its next move, or press Play to watch the rest.",
          ];
        }
        if (cursor.onPath) return [words.plural(solution.length, "move") + " to a win", intro];
        return [
          words.plural(solution.length, "move") + " to a win",
          intro + " Your game left them at move " + cursor.step +
            ": Forward, Back and Play go back there first, and Redo keeps your moves.",
        ];
      }
      if (!cursor.onPath) {
        return [
          "You left the solution at move " + cursor.step + of + ".",
          "Forward goes back to it, and Redo keeps your " + words.plural(game.moveCount - cursor.step, "move") + ".",
        ];
      }
      const own = ownRedo(cursor.step);
      if (own.length) {
        const said = warnedHere();
        const then = said
          ? "; Forward, or the trap's show at move " + said.step +
            " pressed again, plays the solution's moves instead, and Redo then forgets yours."
          : "; Forward plays the solution's move instead, and Redo then forgets yours.";
        return [
          "Back on the solution at move " + cursor.step + of + ".",
          "Redo brings back your " + words.plural(own.length, "move") + then,
        ];
      }
      const parts = [];
      const here = trapHere(cursor);
      if (here) parts.push("a trap: " + here.said);
      parts.push(stepDetail(cursor.step));
      return ["move " + cursor.step + of, parts.filter(Boolean).join("; ")];
    }

    // "last: 7♥ from pile 4; next: 8♣ from pile 10" (piles counted from 1), read off the cards of the deal; in Golf
    // "last: 4♣ from the talon" and "next: deal from the talon" (its card not shown before).
    function stepDetail(step) {
      const parts = [];
      if (step > 0) parts.push("last: " + moveText(step - 1, true));
      if (step < solution.length) parts.push("next: " + moveText(step, false));
      return parts.join("; ");
    }

    // The move solution[index] in words; `played`: it is the last one played.
    function moveText(index, played) {
      const pile = solution[index];
      const before = game.rules.after(solution.slice(0, index));
      if (pile === game.rules.game.talonMove) {
        const dealt = game.rules.talonCard(before);
        return played ? words.cardFace(dealt) + " from the talon" : "deal from the talon";
      }
      return words.cardFace(game.rules.topCard(before, pile)) + " from " + words.pileName(pile);
    }

    // One move on along the solution: redone when Redo holds it, else played (which drops
    // what Redo held: the status line says so before).
    function stepForward(cursor) {
      if (cursor.step >= solution.length) return;
      const redo = game.redoMoves;
      if (redo.length && redo[0] === solution[cursor.step]) {
        game.redo();
        watching = true;
        onChange();
      } else {
        goTo(cursor.step + 1);
      }
    }

    // Off the solution, every button first goes back to where the game left it.
    function forward() {
      stop();
      const cursor = game.cursor(solution);
      if (!cursor.onPath) backToSolution();
      else stepForward(cursor);
    }

    function back() {
      stop();
      const cursor = game.cursor(solution);
      if (cursor.onPath && cursor.step > 0) game.undo();
      backToSolution();
    }

    // Back to the opening position by undoing every move, so Redo still has them all.
    function first() {
      stop();
      while (game.moveCount > 0) {
        if (!game.undo()) break;
      }
      backToSolution();
    }

    function toggle() {
      if (dom.isDisabled(byId("solution-play"))) return; // at the end: nothing left to watch
      if (timer) stop();
      else startAutoPlay();
      render();
    }

    function startAutoPlay() {
      const cursor = game.cursor(solution);
      if (!cursor.onPath) {
        backToSolution(); // first back to where the game left; Play again watches from there
        return;
      }
      watching = true; // (at the end Play is disabled: First goes back to watch again)
      onChange();
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
      stepForward(cursor);
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

    return {
      open: open,
      goTo: goTo,
      showTrap: showTrap,
      leave: leave,
      stop: stop,
      render: render,
      marks: marks,
    };
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).solution = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
