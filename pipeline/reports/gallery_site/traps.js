// The grade's traps along the solution: found in this browser (the same search as the
// hints, in a Web Worker: worker.js) while the page goes on, so opening a deal never waits
// for them; each names the cards that lose there, with a button that shows its position on
// the board.
//
// Moves are counted as the game's counter counts them: the trap at move 3 is the position
// after 3 moves (the solver's `step`), the solution player's "move 3 of 51".
//
// Registers window.Blackhole.traps: `create(onShow)` gives {section, find, cancel}; the
// searcher, which abandons the traps of a deal no longer open, is its own. `onShow(trap)` is
// called when a trap's "show" is pressed, with {step, losing (piles), said: "playing the 7♣
// here loses"}; the board is then brought into view.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const worker = inNode ? require("./worker.js") : root.Blackhole.worker;
  const element = dom.element;

  function create(onShow) {
    const searcher = worker.create();

    // The section, with the pack's count and a place for the browser's list.
    function section(deal) {
      const made = element("section", "traps");
      made.append(element("h4", null, "Traps along the solution"));
      made.append(
        element(
          "p",
          "trap-intro",
          "A trap is a position of the solution where some legal move leaves no way to win; move 3 is the " +
            "position after 3 moves, as the Moves counter shows it. " + packText(deal)
        )
      );
      const status = element("p", "trap-status", "Finding the traps…");
      status.id = "trap-status";
      const list = element("ol", "traps-list");
      list.id = "traps-list";
      made.append(status, list);
      return made;
    }

    // Search the traps of `deal`'s solution with `rules` (its BlackholeSolver.Game) soon,
    // and list them in the section, unless another deal was opened meanwhile.
    function find(deal, rules) {
      searcher.ask({ op: "traps", cards: rules.cards, game: rules.game.name, solution: deal.solution }, function (found) {
        show(deal, rules, found);
      }, function () {
        return rules.traps(deal.solution);
      });
    }

    function show(deal, rules, found) {
      const list = dom.byId("traps-list");
      const status = dom.byId("trap-status");
      if (found === null) {
        status.textContent = "The trap search ran out of its budget.";
        return;
      }
      status.textContent = found.length
        ? "This browser found " + words.plural(found.length, "trap") + ":"
        : "This browser found no trap.";
      list.replaceChildren(...found.map((trap) => trapItem(named(deal, rules, trap))));
      list.dataset.count = String(found.length);
    }

    // "move 8: playing the 6♠, the 6♦ or the 6♣ here loses (3 of 4 moves)", and its button.
    function trapItem(trap) {
      const item = element("li", "trap");
      item.dataset.step = String(trap.step);
      const count = trap.losing.length + " of " + words.plural(trap.legal.length, "move");
      item.append("move " + trap.step + ": " + trap.said + " ", element("span", "term-detail", "(" + count + ")"));
      const show = element("button", "trap-show", "show");
      show.type = "button";
      show.setAttribute("aria-label", "show the position at move " + trap.step);
      show.addEventListener("click", function () {
        onShow({ step: trap.step, losing: trap.losing.slice(), said: trap.said });
        keepBoardInView();
      });
      item.append(show);
      return item;
    }

    // Abandon the search asked for, if it has not answered yet (another deal is opened).
    function cancel() {
      searcher.cancel();
    }

    return { section: section, find: find, cancel: cancel };
  }

  // The solver's trap {step, legal, losing}, with its losing cards in words (`said`): "playing
  // the 6♠ or the 6♦ here loses"; a talon deal that loses is said last: "playing the 8♠ or
  // dealing from the talon", "playing the 4♦ or the 4♣, or dealing from the talon".
  function named(deal, rules, trap) {
    const position = rules.after(deal.solution.slice(0, trap.step));
    const piles = trap.losing.filter((move) => move !== rules.game.talonMove);
    const cards = piles.map((pile) => "the " + words.cardFace(rules.topCard(position, pile)));
    const listed = cards.length <= 1 ? cards.join("") : cards.slice(0, -1).join(", ") + " or " + cards[cards.length - 1];
    const dealing = "dealing from the talon";
    let said = "playing " + listed;
    if (piles.length < trap.losing.length) {
      if (!piles.length) said = dealing;
      else said += (piles.length > 1 ? ", or " : " or ") + dealing; // "the 4♦ or the 4♣, or dealing..."
    }
    return { step: trap.step, legal: trap.legal, losing: trap.losing, said: said + " here loses" };
  }

  // The board in view after "show": the page scrolls only when some of it is off the screen,
  // and then to the top of the play column (the move counter) when the board fits under it.
  function keepBoardInView() {
    const board = dom.byId("board");
    const box = board.getBoundingClientRect();
    if (box.top >= 0 && box.bottom <= window.innerHeight) return;
    const column = board.parentElement.getBoundingClientRect();
    window.scrollBy(0, box.bottom - column.top <= window.innerHeight ? column.top : box.top);
  }

  function packText(deal) {
    if (deal.traps === null) return "The pack has no trap count for this deal.";
    if (deal.traps === 0) return "The grader found none.";
    const first = deal.first_trap === null ? "" : "; the first after " + words.plural(deal.first_trap, "move");
    return "The grader counted " + deal.traps + first + ".";
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).traps = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
