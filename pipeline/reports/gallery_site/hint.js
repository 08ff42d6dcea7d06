// Hints: the exact solver's answer to "what now?" for the position in play, said in the
// hint line. A hint asked for a position that has changed since is dropped.
//
// Registers window.Blackhole.hint: `create(onWin)` gives {ask, clear, shown}; the hint on
// show and the token that drops late answers are its own. `onWin(pile)` is called when a
// hint names a card to play (the board marks it).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;

  const DELAY = 30; // ms: the search starts after "Thinking…" is painted

  function create(onWin) {
    let token = 0; // bumped on every change, so a hint computed late is dropped
    let answer = null; // the hint on show: {kind, move?, undo?}

    // Forget the hint on show (the position changed) and empty the hint line.
    function clear() {
      token++;
      answer = null;
      const text = dom.byId("hint-text");
      text.textContent = "";
      delete text.dataset.kind;
      delete text.dataset.move;
      delete text.dataset.undo;
    }

    // Search a hint for the position after `moves` of the deal of `rules` (a
    // BlackholeSolver.Game); its budget bounds it (2 s at worst here).
    function ask(rules, moves) {
      clear();
      const asked = token;
      const played = moves.slice();
      dom.byId("hint-text").textContent = "Thinking…";
      setTimeout(function () {
        if (asked !== token) return;
        present(rules, played, rules.hint(played));
      }, DELAY);
    }

    function present(rules, moves, found) {
      const text = dom.byId("hint-text");
      answer = found;
      text.dataset.kind = found.kind;
      if (found.kind === "win") {
        const card = rules.topCard(rules.after(moves), found.move);
        text.dataset.move = String(found.move);
        text.textContent = "Play " + words.cardFace(card) + " from pile " + found.move;
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
