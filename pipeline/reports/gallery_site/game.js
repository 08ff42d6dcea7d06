// A deal in play: the moves played so far, the moves undone (for redo), and the status of
// the position they reach. Pure, no DOM: Node's unit tests load it too.
//
// The rules are solver.js's (a BlackholeSolver.Game, called `rules` here): a move is the
// number of a pile whose free card is one rank from the foundation's card.
//
// Registers window.Blackhole.game (module.exports under Node).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;

  function cardsLeft(position) {
    return position.heights.reduce((sum, height) => sum + height, 0);
  }

  // "won" (no card left), "stuck" (no legal move, cards left) or "playing".
  function statusOf(rules, position) {
    if (cardsLeft(position) === 0) return "won";
    return rules.legalMoves(position).length ? "playing" : "stuck";
  }

  // Is playing the free card of `pile` legal in `position`?
  function isLegal(rules, position, pile) {
    const card = rules.topCard(position, pile);
    return card >= 0 && Solver.adjacent(Solver.rankOf(card), Solver.rankOf(position.foundation));
  }

  // The moves of one game of a deal, with undo and redo. Its lists are its own: the getters
  // hand out copies.
  class Play {
    #moves = []; // the piles played so far
    #redo = []; // moves undone, the next redo last

    // `rules`: the deal's BlackholeSolver.Game (or its cards, "JDKSTH2D...").
    constructor(rules) {
      this.rules = typeof rules === "string" ? new Solver.Game(rules) : rules;
    }

    get moves() {
      return this.#moves.slice();
    }

    get moveCount() {
      return this.#moves.length;
    }

    // The moves redo would replay, the next first.
    get redoMoves() {
      return this.#redo.slice().reverse();
    }

    position() {
      return this.rules.after(this.#moves);
    }

    status() {
      return statusOf(this.rules, this.position());
    }

    canUndo() {
      return this.#moves.length > 0;
    }

    canRedo() {
      return this.#redo.length > 0;
    }

    canRestart() {
      return this.#moves.length > 0;
    }

    // Play the free card of `pile`: true when the rules allow it (the redo list is then
    // dropped), false (and nothing changes) when they do not.
    play(pile) {
      if (!isLegal(this.rules, this.position(), pile)) return false;
      this.#moves.push(pile);
      this.#redo = [];
      return true;
    }

    // Take back the last move (true), or nothing to take back (false).
    undo() {
      if (!this.#moves.length) return false;
      this.#redo.push(this.#moves.pop());
      return true;
    }

    // Replay the last move undone (true), or nothing to replay (false).
    redo() {
      if (!this.#redo.length) return false;
      this.#moves.push(this.#redo.pop());
      return true;
    }

    // Back to the opening position, with nothing to redo.
    restart() {
      this.#moves = [];
      this.#redo = [];
    }

    // The position after line[0:step], with the rest of `line` to redo, so that undo and
    // redo step along the line too (the solution player's steps).
    follow(line, step) {
      const k = Math.max(0, Math.min(step, line.length));
      this.#moves = line.slice(0, k);
      this.#redo = line.slice(k).reverse();
    }

    // How far the moves follow `line`: {step: moves in common, onPath: all of them}.
    cursor(line) {
      let step = 0;
      const moves = this.#moves;
      while (step < moves.length && step < line.length && moves[step] === line[step]) step++;
      return { step: step, onPath: step === moves.length };
    }
  }

  const api = { Play: Play, cardsLeft: cardsLeft, statusOf: statusOf, isLegal: isLegal };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).game = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
