// A deal in play: the steps played so far (cards and restarts), the steps undone (for redo),
// and the status of the position they reach. Pure, no DOM: Node's unit tests load it too.
//
// The rules are solver.js's (a BlackholeSolver.Game of the deal's game of the family; called
// `rules` here): a move is the number of a pile whose free card fits on the foundation's
// card, or in Golf the talon deal (the rules' game's `talonMove`, one past the last pile).
//
// Registers window.Blackhole.game (module.exports under Node).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;

  function cardsLeft(position) {
    return position.heights.reduce((sum, height) => sum + height, 0);
  }

  // "won" (no pile card left), "stuck" (no legal move, cards left) or "playing".
  function statusOf(rules, position) {
    if (cardsLeft(position) === 0) return "won";
    return rules.legalMoves(position).length ? "playing" : "stuck";
  }

  // Is `move` (playing the free card of a pile, or dealing from the talon) legal in `position`?
  function isLegal(rules, position, move) {
    return rules.isLegal(position, move);
  }

  // Is `event` a move of the game of `rules` (a pile's number, or the talon deal)?
  function isMove(rules, event) {
    return Number.isInteger(event) && event >= 0 && event < rules.game.moves;
  }

  // The events a game is played by, as the play records write them (docs/schema.md, "Play
  // records"): a pile number (its free card played), or one of these.
  const UNDO = "undo";
  const REDO = "redo";
  const RESTART = "restart";
  const HINT = "hint";

  // One game of a deal, with undo, redo and restart. A step is a card played or a restart:
  // undo takes back the last step (Undo right after Restart brings the position back), redo
  // plays the last step undone again, and a card played or a restart throws away the steps
  // undone. Its lists are its own: the getters hand out copies.
  //
  // Every change is an event, told to the listener (`listen(fn)`: fn(event)), so that the
  // events replay the game exactly: `new Play(rules, events)` plays them again. The solution
  // player's steps (`follow`) are told as the undos, redos and cards played that make them,
  // each card it shows the player told as a hint first (the player did not find it).
  class Play {
    #steps = []; // the steps in force: piles played and RESTART, in order
    #redo = []; // steps undone, the next redo last: {step, shown}; shown: a move of a line
    // that `follow` put there (its redo is told as a hint and the card, not as REDO)
    #listener = null;

    // `rules`: the deal's BlackholeSolver.Game (or a Black Hole deal's cards,
    // "JDKSTH2D..."); `events`, when given, are played first, untold (a game resumed from its
    // record). An event that does not apply is an Error naming it.
    constructor(rules, events) {
      this.rules = typeof rules === "string" ? new Solver.Game(rules) : rules;
      (events || []).forEach((event, index) => {
        if (!this.apply(event)) throw new Error("event " + (index + 1) + " (" + event + ") does not apply");
      });
    }

    // Tell `listener(event)` every event from now on (null: tell nobody).
    listen(listener) {
      this.#listener = listener;
    }

    #tell(event) {
      if (this.#listener) this.#listener(event);
    }

    // The moves played since the opening position (since the last restart in force).
    get moves() {
      return this.#steps.slice(this.#steps.lastIndexOf(RESTART) + 1);
    }

    get moveCount() {
      return this.moves.length;
    }

    // The steps redo would replay, the next first: piles, and RESTART.
    get redoMoves() {
      return this.#redo.map((entry) => entry.step).reverse();
    }

    position() {
      return this.rules.after(this.moves);
    }

    status() {
      return statusOf(this.rules, this.position());
    }

    // The pile cards played to the foundation (0..51 in Black Hole, its starting ace not
    // counted); talon cards dealt are not.
    cardsPlayed() {
      return this.rules.game.pileCards - cardsLeft(this.position());
    }

    canUndo() {
      return this.#steps.length > 0;
    }

    canRedo() {
      return this.#redo.length > 0;
    }

    // Restart is there once a move was played (a card on the foundation above its first).
    canRestart() {
      return this.moveCount > 0;
    }

    // Play the free card of `pile` (or deal from the talon): true when the rules allow it (the
    // steps undone are then dropped), false (and nothing changes) when they do not.
    play(pile) {
      if (!isMove(this.rules, pile) || !isLegal(this.rules, this.position(), pile)) return false;
      this.#steps.push(pile);
      this.#redo = [];
      this.#tell(pile);
      return true;
    }

    // Take back the last step (true), or nothing to take back (false).
    undo() {
      if (!this.#steps.length) return false;
      this.#redo.push({ step: this.#steps.pop(), shown: false });
      this.#tell(UNDO);
      return true;
    }

    // Replay the last step undone (true), or nothing to replay (false).
    redo() {
      if (!this.#redo.length) return false;
      const entry = this.#redo.pop();
      if (entry.shown) this.#tell(HINT); // told first: the hint is asked before the card is played
      this.#steps.push(entry.step);
      this.#tell(entry.shown ? entry.step : REDO);
      return true;
    }

    // Back to the opening position: a step of its own, so Undo brings the position back.
    // False (nothing changes) at the opening position.
    restart() {
      if (!this.canRestart()) return false;
      this.#steps.push(RESTART);
      this.#redo = [];
      this.#tell(RESTART);
      return true;
    }

    // Say that a hint was asked (nothing changes in the game).
    hinted() {
      this.#tell(HINT);
      return true;
    }

    // Apply one event of a record: a move (a pile, or the talon deal), UNDO, REDO, RESTART or
    // HINT; false when it does not apply here (an illegal move, nothing to undo or redo, a
    // restart at the opening).
    apply(event) {
      if (typeof event === "number") return this.play(event);
      if (event === UNDO) return this.undo();
      if (event === REDO) return this.redo();
      if (event === RESTART) return this.restart();
      if (event === HINT) return this.hinted();
      return false;
    }

    // The position after line[0:step], reached by the fewest steps from here: the moves past
    // what the game has in common with `line` are undone, then the line's moves are redone
    // (or played) up to `step`. When nothing the player undid is left to redo, the rest of
    // `line` is put on the redo list, so that redo steps along the line too (the solution
    // player's steps); otherwise Redo keeps the player's own moves.
    follow(line, step) {
      const k = Math.max(0, Math.min(step, line.length));
      const keep = Math.min(this.cursor(line).step, k);
      for (let undone = this.moveCount - keep; undone > 0; undone--) this.undo();
      for (let i = keep; i < k; i++) {
        const next = this.#redo[this.#redo.length - 1];
        if (next && next.step === line[i]) {
          this.redo();
        } else if (isMove(this.rules, line[i]) && isLegal(this.rules, this.position(), line[i])) {
          this.#tell(HINT);
          this.play(line[i]);
        }
      }
      if (!this.#redo.some((entry) => !entry.shown)) {
        this.#redo = line.slice(k).reverse().map((pile) => ({ step: pile, shown: true }));
      }
    }

    // How far the moves follow `line`: {step: moves in common, onPath: all of them}.
    cursor(line) {
      let step = 0;
      const moves = this.moves;
      while (step < moves.length && step < line.length && moves[step] === line[step]) step++;
      return { step: step, onPath: step === moves.length };
    }
  }

  const api = {
    Play: Play,
    cardsLeft: cardsLeft,
    statusOf: statusOf,
    isLegal: isLegal,
    isMove: isMove,
    UNDO: UNDO,
    REDO: REDO,
    RESTART: RESTART,
    HINT: HINT,
  };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).game = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
