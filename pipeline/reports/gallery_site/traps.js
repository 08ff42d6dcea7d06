// The grade's traps along the solution: found in this browser (the same search as the
// hints) after the board is drawn, so opening a deal never waits for them; each with a
// button that shows the position before it.
//
// Registers window.Blackhole.traps: `create(onShowStep)` gives {section, find, cancel}; the
// token that drops the traps of a deal no longer open is its own. `onShowStep(step)` is called
// when a trap's "show" is pressed.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const element = dom.element;

  const DELAY = 50; // ms: the search starts after the board is drawn

  function create(onShowStep) {
    let token = 0; // bumped for every deal, so the traps of a deal no longer open are dropped

    // The section, with the pack's count and a place for the browser's list.
    function section(deal) {
      const made = element("section", "traps");
      made.append(element("h4", null, "Traps along the solution"));
      made.append(
        element(
          "p",
          "trap-intro",
          "A trap is a position of the solution where some legal move leaves no way to win. " + packText(deal)
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
      const asked = ++token;
      setTimeout(function () {
        if (asked !== token) return;
        show(rules.traps(deal.solution));
      }, DELAY);
    }

    function show(found) {
      const list = dom.byId("traps-list");
      const status = dom.byId("trap-status");
      if (found === null) {
        status.textContent = "The trap search ran out of its budget.";
        return;
      }
      status.textContent = found.length
        ? "This browser found " + words.plural(found.length, "trap") + ":"
        : "This browser found no trap.";
      list.replaceChildren(...found.map(trapItem));
      list.dataset.count = String(found.length);
    }

    function trapItem(trap) {
      const item = element("li", "trap");
      item.dataset.step = String(trap.step);
      const piles = trap.losing.length === 1 ? "pile " + trap.losing[0] : "piles " + trap.losing.join(", ");
      item.append(
        "move " + (trap.step + 1) + ": " + trap.losing.length + " of " + trap.legal.length + " moves lose ",
        element("span", "term-detail", "(" + piles + ")")
      );
      const show = element("button", "trap-show", "show");
      show.type = "button";
      show.setAttribute("aria-label", "show the position before move " + (trap.step + 1));
      show.addEventListener("click", function () {
        onShowStep(trap.step);
      });
      item.append(show);
      return item;
    }

    // Drop the search asked for, if it has not run yet (another deal is opened).
    function cancel() {
      token++;
    }

    return { section: section, find: find, cancel: cancel };
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
