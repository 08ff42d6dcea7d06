// The board of a deal in play: the foundation and the 17 piles as cards (a free card is a
// button, a covered one an image), the marks on them, and their input: clicks and the
// arrow keys between free cards. It draws what it is given and keeps no game state.
//
// Registers window.Blackhole.board: `create(handlers)` builds the piles once and gives
// {render, markHinted}.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const byId = dom.byId;
  const element = dom.element;
  const NUM_PILES = Solver.NUM_PILES;
  const PILE_SIZE = Solver.PILE_SIZE;

  // handlers: onFree(pile) when a free card is clicked, onCovered(pile, depth) when a
  // covered one is; `fallbackFocus`, the element focused when a play leaves no free card.
  function create(handlers) {
    const piles = byId("piles");

    for (let pile = 0; pile < NUM_PILES; pile++) {
      const box = element("div", "pile");
      box.dataset.pile = String(pile);
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", "pile " + pile);
      box.append(element("div", "fan"), element("span", "slot-label", "pile " + pile));
      box.lastChild.setAttribute("aria-hidden", "true");
      piles.append(box);
    }
    piles.addEventListener("click", onClick);
    piles.addEventListener("keydown", onKey);

    // What each part shows now, so a render touches only what changed: the foundation's
    // card and mark, and per pile the key of its cards and marks (null: nothing drawn yet).
    let shownCards = null;
    let shownFoundation = null;
    const shownPiles = new Array(NUM_PILES).fill(null);

    // Draw `position` of the deal of `cards` (its 51 cards as numbers) with `marks`:
    // {hinted: the hint's pile, current: the solution's next pile, last: mark the
    // foundation as the last card played, losing: the piles whose card loses here (a trap
    // shown), or none}. Only the piles and the foundation that look different are drawn
    // again (a move changes one pile). Focus stays on the pile it was on.
    function render(cards, position, marks) {
      if (!sameCards(cards)) {
        shownCards = Array.from(cards);
        shownFoundation = null;
        shownPiles.fill(null);
      }
      // Redrawing a pile removes its focused card; remember the pile to move focus on.
      const focused = focusedPile();
      renderFoundation(position, marks);
      renderPiles(cards, position, marks);
      if (focused !== null) focusNear(focused);
    }

    function sameCards(cards) {
      if (shownCards === null || shownCards.length !== cards.length) return false;
      for (let at = 0; at < cards.length; at++) if (shownCards[at] !== cards[at]) return false;
      return true;
    }

    function renderFoundation(position, marks) {
      const key = position.foundation + (marks.last ? "+last" : "");
      if (key === shownFoundation) return;
      shownFoundation = key;
      const foundation = byId("foundation");
      foundation.setAttribute("aria-label", "foundation, " + words.cardWords(position.foundation));
      const card = cardElement(position.foundation, "div");
      card.setAttribute("aria-hidden", "true");
      card.title = words.cardFace(position.foundation);
      if (marks.last) card.classList.add("last-played");
      foundation.replaceChildren(card);
    }

    function renderPiles(cards, position, marks) {
      const boxes = piles.children;
      const losing = marks.losing || [];
      for (let pile = 0; pile < NUM_PILES; pile++) {
        const height = position.heights[pile];
        const hinted = marks.hinted === pile;
        const current = marks.current === pile;
        const loses = losing.includes(pile);
        const key = height + (hinted ? "h" : "") + (current ? "c" : "") + (loses ? "l" : "");
        if (key === shownPiles[pile]) continue;
        shownPiles[pile] = key;
        const made = [];
        for (let depth = 0; depth < height; depth++) {
          const card = cards[pile * PILE_SIZE + depth];
          const free = depth === height - 1;
          const shown = free ? freeCard(card) : coveredCard(card);
          shown.dataset.depth = String(depth);
          if (free && hinted) shown.classList.add("hinted");
          if (free && current) shown.classList.add("current-move");
          if (free && loses) {
            shown.classList.add("losing");
            shown.setAttribute("aria-label", words.cardWords(card) + ", free, loses here");
          }
          made.push(shown);
        }
        if (!height) made.push(emptySlot());
        boxes[pile].firstChild.replaceChildren(...made);
      }
    }

    // Mark the free card of `pile` as the hint's.
    function markHinted(pile) {
      const button = piles.children[pile].querySelector("button.card");
      if (!button) return;
      button.classList.add("hinted");
      shownPiles[pile] = null; // drawn apart from render: the next render draws it again
    }

    // Clicks on cards, delegated: a free card is played, a covered one explains itself.
    function onClick(event) {
      const card = event.target.closest(".card");
      const box = event.target.closest(".pile");
      if (!card || !box) return;
      const pile = Number(box.dataset.pile);
      if (card.classList.contains("covered")) handlers.onCovered(pile, Number(card.dataset.depth));
      else handlers.onFree(pile);
    }

    function freeCards() {
      return Array.from(piles.querySelectorAll("button.card"));
    }

    function focusedPile() {
      const active = document.activeElement;
      if (!active || !piles.contains(active)) return null;
      const box = active.closest(".pile");
      return box ? Number(box.dataset.pile) : null;
    }

    // After a play the focused card is gone: focus the same pile's new free card, else the
    // next pile's with a card (wrapping), else the fallback; never the page itself.
    function focusNear(pile) {
      if (piles.contains(document.activeElement)) return;
      const boxes = piles.children;
      for (let step = 0; step < NUM_PILES; step++) {
        const card = boxes[(pile + step) % NUM_PILES].querySelector("button.card");
        if (card) {
          card.focus();
          return;
        }
      }
      handlers.fallbackFocus.focus();
    }

    function onKey(event) {
      const cards = freeCards();
      const at = cards.indexOf(event.target);
      if (at < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
      let target = null;
      if (event.key === "ArrowRight") target = cards[(at + 1) % cards.length];
      else if (event.key === "ArrowLeft") target = cards[(at - 1 + cards.length) % cards.length];
      else if (event.key === "Home") target = cards[0];
      else if (event.key === "End") target = cards[cards.length - 1];
      else if (event.key === "ArrowDown") target = cardInRow(cards, event.target, 1);
      else if (event.key === "ArrowUp") target = cardInRow(cards, event.target, -1);
      else return;
      event.preventDefault();
      if (target) target.focus();
    }

    return { render: render, markHinted: markHinted };
  }

  // A card face: picture.py's corner (rank over suit) and large suit in the middle.
  function cardElement(card, tag) {
    const made = element(tag, "card " + (words.isRed(card) ? "red" : "black"));
    made.dataset.card = words.cardCode(card);
    const corner = element("span", "corner");
    corner.append(
      element("span", "rank", words.rankLabel(card)),
      element("span", "suit", words.suitSymbol(card))
    );
    corner.setAttribute("aria-hidden", "true");
    const pip = element("span", "pip", words.suitSymbol(card));
    pip.setAttribute("aria-hidden", "true");
    made.append(corner, pip);
    return made;
  }

  function freeCard(card) {
    const made = cardElement(card, "button");
    made.type = "button";
    made.classList.add("free");
    made.setAttribute("aria-label", words.cardWords(card) + ", free");
    return made;
  }

  function coveredCard(card) {
    const made = cardElement(card, "div");
    made.classList.add("covered");
    made.setAttribute("role", "img");
    made.setAttribute("aria-label", words.cardWords(card) + ", covered");
    return made;
  }

  function emptySlot() {
    const slot = element("div", "empty-slot");
    slot.setAttribute("role", "img");
    slot.setAttribute("aria-label", "empty");
    return slot;
  }

  // The free card in the nearest row above (-1) or below (+1) `from`, closest across.
  // Rows are measured, not computed, since the number of piles a row follows the width.
  function cardInRow(cards, from, direction) {
    const centre = (rect) => [rect.left + rect.width / 2, rect.top + rect.height / 2];
    const [fromX, fromY] = centre(from.getBoundingClientRect());
    let best = null;
    let bestKey = null;
    for (const card of cards) {
      const [x, y] = centre(card.getBoundingClientRect());
      const dy = (y - fromY) * direction;
      if (dy < 4) continue;
      const key = [Math.round(dy / 8), Math.abs(x - fromX)];
      if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && key[1] < bestKey[1])) {
        best = card;
        bestKey = key;
      }
    }
    return best;
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).board = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
