// The board of a deal in play: the foundation and the piles as cards (a free card is a
// button, a covered one an image), in Golf the talon with its count of cards left (a button
// that deals the next one), the marks on them, and their input: clicks and the arrow keys
// between free cards. It draws what it is given and keeps no game state.
//
// Each game has its layout (`game.layout`, the board's data-layout, which gallery.css reads):
// Black Hole's 17 fans of 3; All in a Row's 13 fans of 4, under a foundation that starts
// empty; Golf's 7 fans of 5, with the foundation's dealt card and the talon beside it.
//
// Registers window.Blackhole.board: `create(handlers, game)` builds the piles once and gives
// {render, markHinted}.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const byId = dom.byId;
  const element = dom.element;

  // The rules in a line above the piles, for each game (index.html holds Black Hole's).
  const RULES_HELP = {
    all_in_a_row:
      "Play any free card (the last of a pile) to start the foundation, then one rank above or below " +
      "its card; K and A are neighbours.",
    dead_king_golf:
      "Play a free card (the last of a pile) one rank above or below the foundation's card, or deal the " +
      "next talon card onto it; K and A are not neighbours, and nothing goes on a King. Clear the seven " +
      "piles to win.",
    golf:
      "Play a free card (the last of a pile) one rank above or below the foundation's card, or deal the " +
      "next talon card onto it; K and A are not neighbours. Clear the seven piles to win.",
    relaxed_golf:
      "Play a free card (the last of a pile) one rank above or below the foundation's card, or deal the " +
      "next talon card onto it; K and A are neighbours. Clear the seven piles to win.",
  };

  // handlers: onFree(pile) when a free card is clicked, onCovered(pile, depth) when a
  // covered one is, onTalon() when the talon is; `fallbackFocus`, the element focused when a
  // play leaves no free card. `game`: the rules' game (solver.js's GAMES; Black Hole's when
  // not given).
  function create(handlers, game) {
    const rules = game || Solver.GAMES.black_hole;
    const numPiles = rules.numPiles;
    const pileSize = rules.pileSize;
    const talonMove = rules.talonMove;
    const piles = byId("piles");
    const talon = byId("talon");
    byId("board").dataset.layout = rules.layout;
    byId("board").dataset.game = rules.name;
    if (RULES_HELP[rules.name]) byId("rules-help").textContent = RULES_HELP[rules.name];
    byId("talon-keys").hidden = !rules.talonSize;
    byId("talon-slot").hidden = !rules.talonSize;
    if (rules.talonSize) talon.addEventListener("click", handlers.onTalon);

    for (let pile = 0; pile < numPiles; pile++) {
      const box = element("div", "pile");
      box.dataset.pile = String(pile);
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", words.pileName(pile)); // data-pile keeps the index from 0
      box.append(element("div", "fan"), element("span", "slot-label", words.pileName(pile)));
      box.lastChild.setAttribute("aria-hidden", "true");
      piles.append(box);
    }
    piles.addEventListener("click", onClick);
    piles.addEventListener("keydown", onKey);

    // What each part shows now, so a render touches only what changed: the foundation's
    // card and mark, and per pile the key of its cards and marks (null: nothing drawn yet).
    let shownCards = null;
    let shownFoundation = null;
    let shownTalon = null;
    const shownPiles = new Array(numPiles).fill(null);

    // Draw `position` of the deal of `cards` (its cards as numbers, as the rules hold them)
    // with `marks`: {hinted: the hint's move, current: the solution's next move, last: mark
    // the foundation as the last card played, losing: the moves that lose here (a trap
    // shown), or none}; a move is a pile, or the talon deal. Only the piles, the foundation
    // and the talon that look different are drawn again (a move changes one pile). Focus
    // stays on the pile it was on.
    function render(cards, position, marks) {
      if (!sameCards(cards)) {
        shownCards = Array.from(cards);
        shownFoundation = null;
        shownTalon = null;
        shownPiles.fill(null);
      }
      // Redrawing a pile removes its focused card; remember the pile to move focus on.
      const focused = focusedPile();
      renderFoundation(position, marks);
      if (rules.talonSize) renderTalon(position, marks);
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
      if (position.foundation < 0) { // All in a Row's before its first card
        foundation.setAttribute("aria-label", "foundation, empty: any free card may start it");
        const slot = emptySlot();
        slot.setAttribute("aria-hidden", "true");
        foundation.replaceChildren(slot);
        return;
      }
      foundation.setAttribute("aria-label", "foundation, " + words.cardWords(position.foundation));
      const card = cardElement(position.foundation, "div");
      card.setAttribute("aria-hidden", "true");
      card.title = words.cardFace(position.foundation);
      if (marks.last) card.classList.add("last-played");
      foundation.replaceChildren(card);
    }

    // The talon: a face-down stack with its count of cards left, or an empty slot.
    function renderTalon(position, marks) {
      const left = rules.talonSize - position.dealt;
      const hinted = marks.hinted === talonMove;
      const current = marks.current === talonMove;
      const loses = (marks.losing || []).includes(talonMove);
      const key = left + (hinted ? "h" : "") + (current ? "c" : "") + (loses ? "l" : "");
      if (key === shownTalon) return;
      shownTalon = key;
      talon.dataset.left = String(left);
      talon.classList.toggle("empty", left === 0);
      talon.classList.toggle("hinted", hinted && left > 0);
      talon.classList.toggle("current-move", current && left > 0);
      talon.classList.toggle("losing", loses && left > 0);
      byId("talon-count").textContent = String(left);
      const named = "talon, " + words.plural(left, "card") + " left: deal the next one" + (loses ? ", loses here" : "");
      talon.setAttribute("aria-label", left ? named : "talon, empty");
      talon.title = left ? "Deal the next talon card (d)" : "The talon is empty";
      byId("talon-left").textContent = left ? words.plural(left, "card") + " left" : "empty";
    }

    function renderPiles(cards, position, marks) {
      const boxes = piles.children;
      const losing = marks.losing || [];
      for (let pile = 0; pile < numPiles; pile++) {
        const height = position.heights[pile];
        const hinted = marks.hinted === pile;
        const current = marks.current === pile;
        const loses = losing.includes(pile);
        const key = height + (hinted ? "h" : "") + (current ? "c" : "") + (loses ? "l" : "");
        if (key === shownPiles[pile]) continue;
        shownPiles[pile] = key;
        const made = [];
        for (let depth = 0; depth < height; depth++) {
          const card = cards[pile * pileSize + depth];
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

    // Mark the free card of `pile` (or the talon) as the hint's.
    function markHinted(pile) {
      if (pile === talonMove) {
        talon.classList.add("hinted");
        shownTalon = null; // drawn apart from render: the next render draws it again
        return;
      }
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
      for (let step = 0; step < numPiles; step++) {
        const card = boxes[(pile + step) % numPiles].querySelector("button.card");
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
