// Hints: the exact solver's answer to "what now?" for the position in play, said in the
// hint line. The search runs in a Web Worker (worker.js), so the page answers clicks
// meanwhile; a hint still searched when the position changes is abandoned.
//
// Registers window.Blackhole.hint: `create(onWin)` gives {ask, clear, shown}; the hint on
// show and its searcher are its own. `onWin(move)` is called when a hint names a card to
// play, or in Golf the talon to deal from (the board marks it). The hint line's data-source says where the answer was
// searched: "worker", or "page" where no worker could run.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const worker = inNode ? require("./worker.js") : root.Blackhole.worker;

  function create(onWin) {
    const searcher = worker.create();
    let answer = null; // the hint on show: {kind, move?, undo?}

    // Forget the hint on show, or abandon the one searched (the position changed), and
    // empty the hint line.
    function clear() {
      searcher.cancel();
      answer = null;
      const text = dom.byId("hint-text");
      text.textContent = "";
      delete text.dataset.kind;
      delete text.dataset.move;
      delete text.dataset.undo;
      delete text.dataset.source;
      delete text.dataset.searching;
    }

    // Search a hint for the position after `moves` of the deal of `rules` (a
    // BlackholeSolver.Game); its budget bounds it (2 s at worst here).
    function ask(rules, moves) {
      clear();
      const played = moves.slice();
      const text = dom.byId("hint-text");
      text.textContent = "Looking for a hint…";
      text.dataset.searching = "true";
      searcher.ask(
        { op: "hint", cards: rules.cards, game: rules.game.name, moves: played },
        function (found, where) {
          present(rules, played, found, where);
        },
        function () {
          return rules.hint(played);
        }
      );
    }

    function present(rules, moves, found, where) {
      const text = dom.byId("hint-text");
      answer = found;
      delete text.dataset.searching;
      text.dataset.source = where;
      text.dataset.kind = found.kind;
      if (found.kind === "win") {
        text.dataset.move = String(found.move);
        if (found.move === rules.game.talonMove) {
          text.textContent = "Deal the next card from the talon";
        } else {
          const card = rules.topCard(rules.after(moves), found.move);
          text.textContent = "Play " + words.cardFace(card) + " from " + words.pileName(found.move);
        }
        onWin(found.move);
      } else if (found.kind === "lost" && found.undo !== null) {
        text.dataset.undo = String(found.undo);
        text.textContent =
          "This position is lost: undo " + words.plural(found.undo, "move") +
          " to get back to a position that can be won.";
      } else if (found.kind === "lost") {
        text.textContent = "This deal cannot be won from the start.";
      } else {
        text.textContent = "The hint ran out of its search budget.";
      }
    }

    return {
      ask: ask,
      clear: clear,
      // The hint on show, or null.
      shown: function () {
        return answer;
      },
    };
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).hint = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
