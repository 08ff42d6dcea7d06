// The end-of-game banner for an attempt that did not win: blocked (no move left, cards left)
// or out of time (a timed attempt's move not made in time). It lies over the board, as the
// win banner does, so the board never moves; it says how far the attempt got ("Blocked: 34 of
// 51 cards played") and what to do next: New attempt, the next deal, and in a relaxed game
// "Undo to the last winnable position", found by the hints' own search (a Web Worker,
// worker.js, asked what hint.js asks) when the button is pressed. The banner stays while the
// game is blocked: a card tapped meanwhile does not hide it.
//
// Registers window.Blackhole.ending: `create(handlers)` binds the banner's buttons and gives
// {render, clear, setNext}. handlers: `onNewAttempt()`, and `onUndo(count)`, which undoes
// `count` moves to the last winnable position (the answer is a hint: play.js records it).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const worker = inNode ? require("./worker.js") : root.Blackhole.worker;
  const byId = dom.byId;

  // "34 of 51 cards played", "1 of 52 cards played".
  function playedText(played, pileCards) {
    return played + " of " + words.plural(pileCards, "card") + " played";
  }

  function create(handlers) {
    const searcher = worker.create();
    let shown = null; // what the banner says: {ending, relaxed, rules, moves} (null: hidden)
    let searched = null; // the answer about the last winnable position, for `shown`'s moves
    let asking = 0; // counts the positions shown: an answer for an earlier one is dropped

    byId("end-again").addEventListener("click", function () {
      handlers.onNewAttempt();
    });
    byId("end-undo").addEventListener("click", undoToWinnable);

    // Show the banner for `view`, or hide it (null). view: {ending: "stuck" or
    // "out_of_time", relaxed (undo is allowed), cardsPlayed, pileCards, limit (seconds a move),
    // rules and moves (the game's, for the search)}.
    function render(view) {
      const same = view && shown && view.ending === shown.ending && sameMoves(view.moves, shown.moves);
      if (!same) {
        searcher.cancel();
        searched = null;
        asking++;
      }
      shown = view;
      const banner = byId("end-banner");
      banner.hidden = view === null;
      if (!view) return;
      banner.dataset.ending = view.ending;
      const played = playedText(view.cardsPlayed, view.pileCards);
      if (view.ending === "out_of_time") {
        byId("end-text").textContent = "Out of time: " + played + ".";
        byId("end-detail").textContent = "The " + view.limit + " s for a move ran out.";
      } else {
        byId("end-text").textContent = "Blocked: " + played + ".";
        byId("end-detail").textContent = view.relaxed ? relaxedDetail() : "This attempt is over.";
      }
      // Undo is offered in a relaxed game only, until the search found no winnable position.
      const undo = byId("end-undo");
      const searching = searched !== null && searched.kind === "searching";
      undo.hidden = !view.relaxed || view.ending !== "stuck" || (searched !== null && !searching);
      undo.textContent = searching ? "Looking for it…" : "Undo to the last winnable position";
      dom.setDisabled(undo, searching);
    }

    function relaxedDetail() {
      if (searched === null || searched.kind === "searching") return "";
      if (searched.kind === "lost" && searched.undo === null) return "This deal cannot be won from its opening: deal again.";
      return "The search for a winnable position ran out of its budget: undo move by move, or deal again.";
    }

    function sameMoves(a, b) {
      return a.length === b.length && a.every((move, at) => move === b[at]);
    }

    // Ask the solver how far back a win is (the hint's question), then undo that far.
    function undoToWinnable() {
      if (!shown || searched !== null || dom.isDisabled(byId("end-undo"))) return;
      const asked = shown;
      const question = asking;
      searched = { kind: "searching" };
      render(asked);
      searcher.ask(
        { op: "hint", cards: asked.rules.cards, game: asked.rules.game.name, moves: asked.moves.slice() },
        function (found) {
          if (question !== asking) return; // the game moved on meanwhile
          if (found.kind === "lost" && found.undo !== null) {
            handlers.onUndo(found.undo);
            return;
          }
          searched = found; // none to go back to, or the budget ran out: said
          render(shown);
        },
        function () {
          return asked.rules.hint(asked.moves.slice());
        }
      );
    }

    return {
      render: render,
      // The game changed or the deal left: no banner, no search.
      clear: function () {
        render(null);
      },
      // The banner's "Next deal" link: its address ("#deal=ID"), or null for none.
      setNext: function (href) {
        dom.showLink(byId("end-next"), href);
      },
    };
  }

  const api = { create: create, playedText: playedText };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).ending = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
