// The gallery's page: the index of deals, and a deal in play with hints, the solution
// player and the grade explained.
//
// Plain script, no modules and no requests: the page must work when opened from
// file://, so the deals come from deals.js (window.BLACKHOLE_GALLERY) and the rules
// and hints from solver.js (window.BlackholeSolver), both loaded before this file.
//
// Routes: "#" or nothing is the index; "#deal=ID" is that deal in play. The body gets
// data-ready="true" once the first view is drawn, and data-view names the view shown.
(function () {
  "use strict";

  const Solver = window.BlackholeSolver;
  const DATA = window.BLACKHOLE_GALLERY;

  const NUM_PILES = Solver.NUM_PILES;
  const PILE_SIZE = Solver.PILE_SIZE;
  const PAGE_SIZE = 100; // index rows appended per page as the list scrolls
  const TIER_ORDER = DATA.tier_order; // the pack's tiers, easiest first, as the pack names them
  // The ladder of player models, weakest first: each one's name, words and columns. The
  // reference is the one whose figure (dead ends with undo, or attempts without) the tiers
  // are cut on; null for a pack that was never graded.
  const PLAYERS = DATA.players;
  const REFERENCE = DATA.difficulty
    ? PLAYERS.find((player) => player.name === DATA.difficulty.player) || null
    : null;
  const BY_ATTEMPTS = Boolean(DATA.difficulty) && DATA.difficulty.figure === "attempts";
  const PAGE_TITLE = document.title;

  // Card faces, as picture.py prints them: "10" for tens, suit symbols in HCDS order.
  const RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const RANK_WORDS = [
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
  ];
  const SUIT_SYMBOLS = ["♥", "♣", "♦", "♠"];
  const SUIT_WORDS = ["hearts", "clubs", "diamonds", "spades"];
  const COLOURS = { table: "#0b6e3a", edge: "#333333", red: "#c8102e", black: "#1a1a1a" };

  // ---------------------------------------------------------------- cards and words

  const rankOf = Solver.rankOf;

  function suitOf(card) {
    return card & 3;
  }

  function isRed(card) {
    return suitOf(card) === 0 || suitOf(card) === 2;
  }

  function cardCode(card) {
    return Solver.RANKS[rankOf(card)] + Solver.SUITS[suitOf(card)];
  }

  function cardFace(card) {
    return RANK_LABELS[rankOf(card)] + SUIT_SYMBOLS[suitOf(card)];
  }

  function cardWords(card) {
    return RANK_WORDS[rankOf(card)] + " of " + SUIT_WORDS[suitOf(card)];
  }

  // "1 move", "51 moves", "10,000 deals".
  function plural(count, one) {
    return groupDigits(count) + " " + (count === 1 ? one : one + "s");
  }

  // ---------------------------------------------------------------- numbers
  //
  // Every figure a player reads is rounded for a person and said in words: "about 1 game in
  // 1,600", "about 15 dead ends", "71 billion". Counts keep two significant figures (the
  // figures are averages over a player model, not promises); the exact values stay under
  // "All the numbers". tests/reports/gallery_words.py holds the same rules in Python.

  // The names of large numbers, largest first: 2,300,000 reads "2.3 million".
  const SCALES = [
    [1e18, "quintillion"], [1e15, "quadrillion"], [1e12, "trillion"], [1e9, "billion"], [1e6, "million"],
  ];
  const NOTHING = 0.05; // fewer dead ends than this read "almost no dead ends"
  const NEARLY_ALWAYS = 0.95; // a win chance from this up reads "almost every game"

  function groupDigits(digits) {
    return String(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  function formatInteger(value) {
    return groupDigits(Math.round(value));
  }

  // Two significant figures, the precision a "1 in N" needs to be read at a glance.
  function roundTwoFigures(value) {
    const scale = Math.pow(10, Math.floor(Math.log10(value)) - 1);
    return Math.round(value / scale) * scale;
  }

  // A count of 1 or more for a person: whole below 10, else two significant figures, large
  // ones by name: "3", "12", "7,600", "2.3 million", "8.1 trillion".
  function roundedCount(value) {
    const shown = value >= 10 ? roundTwoFigures(value) : Math.round(value);
    for (const [scale, name] of SCALES) {
      if (shown >= scale) return figuresText(roundTwoFigures(shown / scale)) + " " + name;
    }
    return formatInteger(shown);
  }

  // A number rounded already, without trailing zeros or an exponent: "2.3", "270", "5,000".
  function figuresText(value) {
    return value >= 100 || Number.isInteger(value) ? formatInteger(value) : trimNumber(value);
  }

  function trimNumber(value) {
    return String(Number(value.toPrecision(2)));
  }

  // A tier threshold as written in a sentence: "3", "2,000", "1.5".
  function thresholdText(value) {
    return Number.isInteger(value) ? groupDigits(value) : String(value);
  }

  // "1 in 3,400" for a probability, short for the index; null when there is no chance to print.
  function oddsText(probability) {
    if (probability === null || probability === undefined) return null;
    if (probability <= 0) return "never";
    const n = 1 / probability;
    if (n < 10) return "1 in " + trimNumber(n);
    return "1 in " + roundedCount(n);
  }

  // How often one attempt without undo wins (a chance above 0): "about 1 game in 1,600",
  // "about 7 games in 10", "almost every game", "every game".
  function gamesText(probability) {
    if (probability >= 1) return "every game";
    if (probability >= NEARLY_ALWAYS) return "almost every game";
    if (probability >= 0.5) return "about " + Math.round(probability * 10) + " games in 10";
    return "about 1 game in " + roundedCount(1 / probability);
  }

  // "wins about 1 game in 1,600 without undo", "never wins without undo".
  function winsText(probability) {
    return probability > 0 ? "wins " + gamesText(probability) + " without undo" : "never wins without undo";
  }

  // Dead ends with undo: "15 dead ends", "1 dead end", "0.4 dead ends", "almost no dead ends";
  // "about 15 dead ends" with `about` (they are an average); null when not known.
  function deadEndsText(value, about) {
    if (value === null || value === undefined || !isFinite(value)) return null;
    if (value < NOTHING) return "almost no dead ends";
    return amountText(value, about, "dead end", "dead ends");
  }

  // Attempts without undo a win takes: "about 1,600 attempts"; null when not known.
  function attemptsText(value, about) {
    if (value === null || value === undefined || !isFinite(value)) return null;
    return amountText(value, about, "attempt", "attempts");
  }

  function amountText(value, about, one, many) {
    const prefix = about ? "about " : "";
    const tenths = Number(value.toPrecision(1));
    if (tenths < 1) return prefix + tenths + " " + many;
    const shown = roundedCount(value);
    return prefix + shown + " " + (shown === "1" ? one : many);
  }

  // Solution counts are decimal strings (they may pass 2^53): group short ones exactly, and
  // say long ones in words from their first digits and their length: "about 71 billion".
  function countText(digits) {
    if (digits === null || digits === undefined) return null;
    const text = String(digits);
    if (text.length <= 9) return groupDigits(text);
    return "about " + roundedCount(Number(text.slice(0, 3)) * Math.pow(10, text.length - 3));
  }

  function percentText(share) {
    const percent = share * 100;
    if (percent >= 10) return Math.round(percent) + " %";
    return trimNumber(percent) + " %";
  }

  function sentenceCase(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // ---------------------------------------------------------------- DOM helpers

  function byId(id) {
    return document.getElementById(id);
  }

  // A new element: element("span", "class names", "text").
  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined && text !== null) made.textContent = text;
    return made;
  }

  function setDisabled(button, disabled) {
    // aria-disabled, not disabled: a disabled button drops keyboard focus to the page.
    button.setAttribute("aria-disabled", disabled ? "true" : "false");
  }

  function isDisabled(button) {
    return button.getAttribute("aria-disabled") === "true";
  }

  function tierBadge(tier) {
    return element("span", "tier-badge tier-" + tier, tier);
  }

  // ---------------------------------------------------------------- the deals

  // Each deal as an object keyed by column, with its place in the pack ("order").
  function readDeals(data) {
    return data.deals.map(function (values, order) {
      const deal = { order: order };
      data.columns.forEach(function (column, i) {
        deal[column] = values[i];
      });
      deal.solution = deal.solution || [];
      deal.searchKey = String(deal.deal_id).toLowerCase();
      return deal;
    });
  }

  const deals = readDeals(DATA);
  const dealById = new Map(deals.map((deal) => [String(deal.deal_id), deal]));

  // Both sort orders, computed once: filtering then keeps the order, so a change of
  // filter on 10,000 deals is one pass over an array.
  function byLevel(a, b) {
    const la = a.level === null ? Infinity : a.level;
    const lb = b.level === null ? Infinity : b.level;
    return la - lb || a.order - b.order;
  }

  function byDifficulty(a, b) {
    const da = a.difficulty === null ? Infinity : a.difficulty;
    const db = b.difficulty === null ? Infinity : b.difficulty;
    return da - db || byLevel(a, b);
  }

  const sortedDeals = {
    level: deals.slice().sort(byLevel),
    difficulty: deals.slice().sort(byDifficulty),
  };

  // One Game per deal for the whole visit: each remembers the lost positions its
  // searches found, so later hints on the same deal are quicker.
  const games = new Map();

  function gameOf(deal) {
    if (!games.has(deal.deal_id)) games.set(deal.deal_id, new Solver.Game(deal.cards));
    return games.get(deal.deal_id);
  }

  // ---------------------------------------------------------------- thumbnails

  // The opening layout in miniature: picture.py's rows of six piles, the short last
  // row centred, each card a white rounded rectangle with its rank in its colour.
  // Sizes in CSS pixels; a pile is a card and two fan steps wide, with the rest of its
  // step as the gap, which is split between the two edges of the picture.
  const THUMB = {
    width: 216, height: 100, perRow: 6, pileStep: 36, rowStep: 34,
    cardW: 19, cardH: 26, fan: 7, top: 4, left: 1.5,
  };

  function thumbOrigin(pile) {
    const row = Math.floor(pile / THUMB.perRow);
    const column = pile % THUMB.perRow;
    const inRow = Math.min(THUMB.perRow, NUM_PILES - row * THUMB.perRow);
    const indent = ((THUMB.perRow - inRow) * THUMB.pileStep) / 2;
    return [THUMB.left + indent + column * THUMB.pileStep, THUMB.top + row * THUMB.rowStep];
  }

  function drawThumbnail(canvas, deal) {
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(THUMB.width * ratio);
    canvas.height = Math.round(THUMB.height * ratio);
    const context = canvas.getContext("2d");
    context.scale(ratio, ratio);
    context.fillStyle = COLOURS.table;
    context.fillRect(0, 0, THUMB.width, THUMB.height);
    const cards = Solver.parseCards(deal.cards);
    context.font = "bold 8px system-ui, sans-serif";
    context.textAlign = "center";
    context.textBaseline = "top";
    for (let pile = 0; pile < NUM_PILES; pile++) {
      const [left, top] = thumbOrigin(pile);
      for (let depth = 0; depth < PILE_SIZE; depth++) {
        drawThumbCard(context, cards[pile * PILE_SIZE + depth], left + depth * THUMB.fan, top);
      }
    }
    canvas.dataset.drawn = "true";
  }

  function drawThumbCard(context, card, left, top) {
    context.beginPath();
    if (context.roundRect) context.roundRect(left, top, THUMB.cardW, THUMB.cardH, 2.5);
    else context.rect(left, top, THUMB.cardW, THUMB.cardH);
    context.fillStyle = "#fff";
    context.fill();
    context.strokeStyle = COLOURS.edge;
    context.lineWidth = 0.6;
    context.stroke();
    context.fillStyle = isRed(card) ? COLOURS.red : COLOURS.black;
    const label = RANK_LABELS[rankOf(card)];
    // "10" is squeezed to the width of one fan step, so every rank stays readable.
    context.fillText(label, left + THUMB.fan / 2 + 0.5, top + 2, THUMB.fan + 1);
    context.fillText(SUIT_SYMBOLS[suitOf(card)], left + THUMB.fan / 2 + 0.5, top + 11, THUMB.fan + 1);
  }

  // ---------------------------------------------------------------- the index

  const index = {
    built: false,
    matches: [], // the deals that pass the filters, in the chosen order
    shown: 0, // how many of them have rows
    pageObserver: null,
    thumbObserver: null,
    scroll: 0, // the index's scroll position, restored when coming back from a deal
  };

  function buildIndex() {
    const present = new Set(deals.map((deal) => deal.tier));
    const select = byId("tier-filter");
    for (const tier of TIER_ORDER.filter((tier) => present.has(tier))) {
      const option = element("option", null, tier);
      option.value = tier;
      select.append(option);
    }
    select.addEventListener("change", applyFilters);
    byId("sort").addEventListener("change", applyFilters);
    byId("search").addEventListener("input", applyFilters);

    // Rows come a page at a time as the sentinel below the list nears the viewport,
    // and each thumbnail is drawn only when its row scrolls into view.
    index.pageObserver = new IntersectionObserver(onSentinel, { rootMargin: "800px 0px" });
    index.thumbObserver = new IntersectionObserver(onThumbnails, { rootMargin: "200px 0px" });
    index.pageObserver.observe(byId("list-sentinel"));
    index.built = true;
    applyFilters();
  }

  function currentMatches() {
    const tier = byId("tier-filter").value;
    const needle = byId("search").value.trim().toLowerCase();
    const ordered = sortedDeals[byId("sort").value] || sortedDeals.level;
    return ordered.filter(function (deal) {
      return (tier === "all" || deal.tier === tier) && (!needle || deal.searchKey.includes(needle));
    });
  }

  function applyFilters() {
    index.matches = currentMatches();
    index.shown = 0;
    index.thumbObserver.disconnect();
    byId("deal-list").replaceChildren();
    byId("shown-count").textContent = plural(index.matches.length, "deal");
    byId("no-match").hidden = index.matches.length > 0;
    appendPage();
  }

  function appendPage() {
    const end = Math.min(index.shown + PAGE_SIZE, index.matches.length);
    const rows = document.createDocumentFragment();
    for (let i = index.shown; i < end; i++) rows.append(dealRow(index.matches[i]));
    byId("deal-list").append(rows);
    index.shown = end;
    // An observer reports changes only: observing the sentinel afresh makes it report
    // again if the new page did not push it out of reach.
    const sentinel = byId("list-sentinel");
    index.pageObserver.unobserve(sentinel);
    index.pageObserver.observe(sentinel);
  }

  function onSentinel(entries) {
    const visible = entries.some((entry) => entry.isIntersecting);
    if (visible && !byId("index").hidden && index.shown < index.matches.length) appendPage();
  }

  function onThumbnails(entries) {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const canvas = entry.target;
      index.thumbObserver.unobserve(canvas);
      drawThumbnail(canvas, dealById.get(canvas.dataset.dealId));
    }
  }

  function dealRow(deal) {
    const row = element("li", "deal-row");
    row.dataset.dealId = deal.deal_id;
    row.dataset.tier = deal.tier;
    if (deal.difficulty !== null) row.dataset.difficulty = String(deal.difficulty);

    const link = element("a", "deal-link");
    link.href = "#deal=" + encodeURIComponent(deal.deal_id);

    const canvas = element("canvas", "thumb");
    canvas.width = THUMB.width;
    canvas.height = THUMB.height;
    canvas.dataset.dealId = deal.deal_id;
    canvas.setAttribute("aria-hidden", "true");
    index.thumbObserver.observe(canvas);

    const name = element("span", "deal-name");
    name.append(
      element("span", "deal-level", deal.level === null ? "" : "Level " + deal.level),
      element("span", "deal-id", deal.deal_id)
    );

    const stats = element("span", "deal-stats");
    stats.append(
      stat("difficulty", difficultyText(deal.difficulty, false) || "—"),
      stat("ways to win", countText(deal.solution_count) || "—"),
      stat("random play", oddsText(deal.random_win_probability) || "—")
    );
    link.append(canvas, name, tierBadge(deal.tier), stats);
    row.append(link);
    return row;
  }

  function stat(label, value) {
    const made = element("span", "stat");
    made.append(element("span", "stat-label", label), element("span", "stat-value", value));
    return made;
  }

  // ---------------------------------------------------------------- play: state

  const play = {
    deal: null,
    game: null,
    moves: [], // the piles played so far
    redo: [], // moves undone, the next redo last
    watching: false, // the solution player is in use: show its next and last cards
    timer: null, // the solution player's auto-play
    hint: null, // the hint on show: {kind, move?, undo?}
    hintToken: 0, // bumped on every change, so a hint computed late is dropped
    trapsToken: 0, // likewise for the traps of a deal no longer open
  };

  function position() {
    return play.game.after(play.moves);
  }

  function cardsLeft(pos) {
    return pos.heights.reduce((sum, height) => sum + height, 0);
  }

  // "won", "stuck" (no legal move, cards left) or "playing".
  function stateOf(pos) {
    if (cardsLeft(pos) === 0) return "won";
    return play.game.legalMoves(pos).length ? "playing" : "stuck";
  }

  function statusMessage(pos) {
    const state = stateOf(pos);
    if (state === "won") return "won in " + plural(play.moves.length, "move");
    if (state === "stuck") {
      return "no free card is one rank from the foundation, " + plural(cardsLeft(pos), "card") + " left";
    }
    return "";
  }

  // The position after solution[0:k], with the rest of the solution as the redo stack,
  // so that undo and redo step along the solution too.
  function goToSolutionStep(step) {
    const solution = play.deal.solution;
    const k = Math.max(0, Math.min(step, solution.length));
    play.moves = solution.slice(0, k);
    play.redo = solution.slice(k).reverse();
    play.watching = true;
    changed();
  }

  // How far the moves follow the solution: {step: moves in common, onPath: all of them}.
  function solutionCursor() {
    const solution = play.deal.solution;
    let step = 0;
    while (step < play.moves.length && step < solution.length && play.moves[step] === solution[step]) step++;
    return { step: step, onPath: step === play.moves.length };
  }

  // ---------------------------------------------------------------- play: actions

  // Play the free card of `pile` if the rules allow it, else say why not.
  function playPile(pile) {
    const pos = position();
    const card = play.game.topCard(pos, pile);
    if (card < 0) return;
    if (!Solver.adjacent(rankOf(card), rankOf(pos.foundation))) {
      say(cardFace(card) + " is not one rank from the foundation's " + cardFace(pos.foundation));
      return;
    }
    play.moves.push(pile);
    play.redo = [];
    play.watching = false;
    changed();
  }

  function undo() {
    if (!play.moves.length) return;
    stopAutoPlay();
    play.redo.push(play.moves.pop());
    changed();
  }

  function redo() {
    if (!play.redo.length) return;
    stopAutoPlay();
    play.moves.push(play.redo.pop());
    changed();
  }

  function restart() {
    stopAutoPlay();
    play.moves = [];
    play.redo = [];
    play.watching = false;
    changed();
  }

  // Every change of position: the hint on show no longer applies; draw it all again.
  function changed() {
    clearHint();
    renderPlay();
  }

  function say(text) {
    byId("message").textContent = text;
  }

  // ---------------------------------------------------------------- play: drawing

  function openDeal(deal) {
    if (play.deal !== deal) {
      stopAutoPlay();
      play.deal = deal;
      play.game = gameOf(deal);
      play.moves = [];
      play.redo = [];
      play.watching = false;
      clearHint();
      renderTitle(deal);
      renderGrade(deal);
      byId("solution-player").hidden = deal.solution.length === 0;
    }
    renderPlay();
  }

  function renderTitle(deal) {
    const title = byId("deal-title");
    const parts = [element("span", "deal-id", deal.deal_id)];
    if (deal.level !== null) parts.unshift(element("span", "deal-level", "Level " + deal.level + ":"));
    parts.push(tierBadge(deal.tier));
    title.replaceChildren(...parts);
    document.title = deal.deal_id + " · " + PAGE_TITLE;
  }

  function renderPlay() {
    const pos = position();
    const state = stateOf(pos);
    // Rebuilding the piles removes the focused card; remember its pile to move focus on.
    const focusedPile = focusedPileNumber();
    const marks = cardMarks();
    renderFoundation(pos, marks);
    renderPiles(pos, marks);
    byId("play").dataset.state = state;
    byId("move-count").textContent = String(play.moves.length);
    say(statusMessage(pos));
    setDisabled(byId("undo"), play.moves.length === 0);
    setDisabled(byId("redo"), play.redo.length === 0);
    setDisabled(byId("restart"), play.moves.length === 0);
    setDisabled(byId("hint"), state === "won");
    renderSolutionPlayer();
    if (focusedPile !== null) focusNear(focusedPile);
  }

  // Which cards the board marks: the hint's, and while watching the solution, the
  // card its next move plays and the last card played.
  function cardMarks() {
    const marks = { hinted: null, current: null, last: false };
    if (play.hint && play.hint.kind === "win") marks.hinted = play.hint.move;
    if (play.watching && play.deal.solution.length) {
      const cursor = solutionCursor();
      if (cursor.onPath && cursor.step < play.deal.solution.length) {
        marks.current = play.deal.solution[cursor.step];
      }
      marks.last = cursor.onPath && cursor.step > 0;
    }
    return marks;
  }

  function renderFoundation(pos, marks) {
    const foundation = byId("foundation");
    const face = cardFace(pos.foundation);
    foundation.setAttribute("aria-label", "foundation, " + cardWords(pos.foundation));
    const card = cardElement(pos.foundation, "div");
    card.setAttribute("aria-hidden", "true");
    card.title = face;
    if (marks.last) card.classList.add("last-played");
    foundation.replaceChildren(card);
  }

  function buildPiles() {
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
    piles.addEventListener("click", onBoardClick);
    piles.addEventListener("keydown", onBoardKey);
  }

  function renderPiles(pos, marks) {
    const boxes = byId("piles").children;
    for (let pile = 0; pile < NUM_PILES; pile++) {
      const fan = boxes[pile].firstChild;
      const height = pos.heights[pile];
      const cards = [];
      for (let depth = 0; depth < height; depth++) {
        const card = play.game.cards[pile * PILE_SIZE + depth];
        const free = depth === height - 1;
        const made = free ? freeCard(card) : coveredCard(card);
        made.dataset.depth = String(depth);
        if (free && marks.hinted === pile) made.classList.add("hinted");
        if (free && marks.current === pile) made.classList.add("current-move");
        cards.push(made);
      }
      if (!height) cards.push(emptySlot());
      fan.replaceChildren(...cards);
    }
  }

  // A card face: picture.py's corner (rank over suit) and large suit in the middle.
  function cardElement(card, tag) {
    const made = element(tag, "card " + (isRed(card) ? "red" : "black"));
    made.dataset.card = cardCode(card);
    const corner = element("span", "corner");
    corner.append(
      element("span", "rank", RANK_LABELS[rankOf(card)]),
      element("span", "suit", SUIT_SYMBOLS[suitOf(card)])
    );
    corner.setAttribute("aria-hidden", "true");
    const pip = element("span", "pip", SUIT_SYMBOLS[suitOf(card)]);
    pip.setAttribute("aria-hidden", "true");
    made.append(corner, pip);
    return made;
  }

  function freeCard(card) {
    const made = cardElement(card, "button");
    made.type = "button";
    made.classList.add("free");
    made.setAttribute("aria-label", cardWords(card) + ", free");
    return made;
  }

  function coveredCard(card) {
    const made = cardElement(card, "div");
    made.classList.add("covered");
    made.setAttribute("role", "img");
    made.setAttribute("aria-label", cardWords(card) + ", covered");
    return made;
  }

  function emptySlot() {
    const slot = element("div", "empty-slot");
    slot.setAttribute("role", "img");
    slot.setAttribute("aria-label", "empty");
    return slot;
  }

  // Clicks on cards, delegated: a free card is played, a covered one explains itself.
  function onBoardClick(event) {
    const card = event.target.closest(".card");
    const box = event.target.closest(".pile");
    if (!card || !box) return;
    stopAutoPlay(); // manual play takes over from the solution player
    const pile = Number(box.dataset.pile);
    if (card.classList.contains("covered")) {
      const covered = play.game.cards[pile * PILE_SIZE + Number(card.dataset.depth)];
      say(cardFace(covered) + " is covered: only the last card of a pile can be played");
    } else {
      playPile(pile);
    }
  }

  // ---------------------------------------------------------------- play: focus and keys

  function freeCards() {
    return Array.from(byId("piles").querySelectorAll("button.card"));
  }

  function focusedPileNumber() {
    const active = document.activeElement;
    if (!active || !byId("piles").contains(active)) return null;
    const box = active.closest(".pile");
    return box ? Number(box.dataset.pile) : null;
  }

  // After a play the focused card is gone: focus the same pile's new free card, else the
  // next pile's with a card (wrapping), else the undo button; never the page itself.
  function focusNear(pile) {
    if (byId("piles").contains(document.activeElement)) return;
    const boxes = byId("piles").children;
    for (let step = 0; step < NUM_PILES; step++) {
      const card = boxes[(pile + step) % NUM_PILES].querySelector("button.card");
      if (card) {
        card.focus();
        return;
      }
    }
    byId("undo").focus();
  }

  function onBoardKey(event) {
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

  // u / r and Ctrl+Z / Ctrl+Y (or Ctrl+Shift+Z) undo and redo; h asks for a hint.
  function onPageKey(event) {
    if (byId("play").hidden || event.altKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const key = event.key.toLowerCase();
    let action = null;
    if (event.ctrlKey) {
      if (key === "z") action = event.shiftKey ? redo : undo;
      else if (key === "y") action = redo;
    } else if (!event.shiftKey) {
      action = { u: undo, r: redo, h: showHint }[key] || null;
    }
    if (!action) return;
    event.preventDefault();
    action();
  }

  // ---------------------------------------------------------------- hints

  function clearHint() {
    play.hintToken++;
    play.hint = null;
    const text = byId("hint-text");
    text.textContent = "";
    delete text.dataset.kind;
    delete text.dataset.move;
    delete text.dataset.undo;
  }

  function showHint() {
    if (isDisabled(byId("hint"))) return;
    stopAutoPlay();
    clearHint();
    const token = play.hintToken;
    byId("hint-text").textContent = "Thinking…";
    // The search runs after the "Thinking…" is painted; its budget bounds it (2 s at worst here).
    setTimeout(function () {
      if (token !== play.hintToken) return;
      presentHint(play.game.hint(play.moves.slice()));
    }, 30);
  }

  function presentHint(answer) {
    const text = byId("hint-text");
    play.hint = answer;
    text.dataset.kind = answer.kind;
    if (answer.kind === "win") {
      const card = play.game.topCard(position(), answer.move);
      text.dataset.move = String(answer.move);
      text.textContent = "Play " + cardFace(card) + " from pile " + answer.move;
      const button = byId("piles").children[answer.move].querySelector("button.card");
      if (button) button.classList.add("hinted");
    } else if (answer.kind === "lost" && answer.undo !== null) {
      text.dataset.undo = String(answer.undo);
      text.textContent =
        "This position is lost: undo " + plural(answer.undo, "move") +
        " to get back to a position that can be won.";
    } else if (answer.kind === "lost") {
      text.textContent = "This deal cannot be won from the start.";
    } else {
      text.textContent = "The hint ran out of its search budget.";
    }
  }

  // ---------------------------------------------------------------- the solution player

  function renderSolutionPlayer() {
    const solution = play.deal.solution;
    if (!solution.length) return;
    const cursor = solutionCursor();
    const step = byId("solution-step");
    const detail = byId("solution-detail");
    byId("solution-play").textContent = play.timer ? "Pause" : "Play";
    if (!play.watching) {
      step.textContent = plural(solution.length, "move") + " to a win";
      detail.textContent = "Step through them, or press Play to watch.";
      return;
    }
    if (!cursor.onPath) {
      step.textContent = "left the solution after move " + cursor.step + " of " + solution.length;
      detail.textContent = "Forward goes back to it.";
      return;
    }
    step.textContent = "move " + cursor.step + " of " + solution.length;
    detail.textContent = solutionDetail(cursor.step);
  }

  // "last: 7♥ from pile 3; next: 8♣ from pile 9", read off the cards of the deal.
  function solutionDetail(step) {
    const solution = play.deal.solution;
    const parts = [];
    if (step > 0) parts.push("last: " + solutionMoveText(step - 1));
    if (step < solution.length) parts.push("next: " + solutionMoveText(step));
    return parts.join("; ");
  }

  function solutionMoveText(index) {
    const pile = play.deal.solution[index];
    const before = play.game.after(play.deal.solution.slice(0, index));
    return cardFace(play.game.topCard(before, pile)) + " from pile " + pile;
  }

  function solutionForward() {
    stopAutoPlay();
    const cursor = solutionCursor();
    // Off the solution, forward first returns to it, at the last move in common.
    goToSolutionStep(cursor.onPath ? cursor.step + 1 : cursor.step);
  }

  function solutionBack() {
    stopAutoPlay();
    const cursor = solutionCursor();
    goToSolutionStep(cursor.onPath ? cursor.step - 1 : cursor.step);
  }

  function solutionFirst() {
    stopAutoPlay();
    goToSolutionStep(0);
  }

  function toggleAutoPlay() {
    if (play.timer) stopAutoPlay();
    else startAutoPlay();
    renderSolutionPlayer();
  }

  function startAutoPlay() {
    const cursor = solutionCursor();
    const end = play.deal.solution.length;
    // From the end, watch again from the start; off the solution, from where it was left.
    goToSolutionStep(cursor.onPath && cursor.step >= end ? 0 : cursor.step);
    scheduleTick();
  }

  function scheduleTick() {
    play.timer = setTimeout(autoPlayTick, Number(byId("solution-speed").value));
    byId("solution-play").textContent = "Pause";
  }

  function autoPlayTick() {
    play.timer = null;
    const cursor = solutionCursor();
    const end = play.deal.solution.length;
    if (!cursor.onPath || cursor.step >= end) {
      renderSolutionPlayer();
      return;
    }
    if (cursor.step + 1 < end) scheduleTick();
    goToSolutionStep(cursor.step + 1);
  }

  function stopAutoPlay() {
    if (play.timer) clearTimeout(play.timer);
    play.timer = null;
    byId("solution-play").textContent = "Play";
  }

  function onSpeedChange() {
    // A new speed applies from the next move on.
    if (!play.timer) return;
    clearTimeout(play.timer);
    scheduleTick();
  }

  // ---------------------------------------------------------------- the grade

  function renderGrade(deal) {
    const grade = byId("grade");
    const parts = [element("h3", null, "The grade, explained")];
    parts.push(...gradeSummary(deal));
    if (deal.solution.length) parts.push(trapSection(deal));
    parts.push(numbersTable(deal));
    grade.replaceChildren(...parts);
    if (deal.solution.length) scheduleTraps(deal);
  }

  function paragraph(text, className) {
    return element("p", className, text);
  }

  // The grade in a player's words: the reference player's figure as the heading, then each
  // player of the ladder, what makes the deal hard along the solution, and how it plays.
  // Never a formula or a column's name: those are under "All the numbers".
  function gradeSummary(deal) {
    if (deal.tier === "unsolvable" || deal.verdict === "unsolvable") return unsolvableSummary(deal);
    if (deal.difficulty === null || deal.tier === "ungraded") return ungradedSummary(deal);
    const parts = [tierLine(deal), element("h4", "difficulty-line", difficultyLine(deal))];
    parts.push(paragraph(deadEndsMeaning(), "dead-ends-meaning"));
    const players = playersList(deal);
    if (players) parts.push(paragraph("Player by player, the weakest first:"), players);
    const reasons = reasonsList(deal);
    if (reasons) parts.push(element("h4", null, "What makes it this hard"), reasons);
    parts.push(element("h4", null, "How the deal plays"));
    parts.push(factsList(deal));
    return parts;
  }

  function tierLine(deal) {
    const line = element("p", "tier-line");
    line.append("Tier ", tierBadge(deal.tier), " " + tierRange(deal.tier));
    return line;
  }

  // The reference's figure of a deal: "15 dead ends", "1,600 attempts" ("about ..." with `about`).
  function difficultyText(value, about) {
    return BY_ATTEMPTS ? attemptsText(value, about) : deadEndsText(value, about);
  }

  // What a tier spans, from the pack's thresholds (each the fewest of its tier): "(at least 8
  // and fewer than 20 dead ends in this pack)."
  function tierRange(tier) {
    const t = DATA.tiers;
    if (!t || !DATA.difficulty) return "";
    const [one, many] = BY_ATTEMPTS ? [" attempt", " attempts"] : [" dead end", " dead ends"];
    const count = (value) => thresholdText(value) + (value === 1 ? one : many);
    const between = (low, high) => "at least " + thresholdText(low) + " and fewer than " + count(high);
    const ranges = {
      easy: "fewer than " + count(t.medium),
      medium: between(t.medium, t.hard),
      hard: between(t.hard, t.expert),
      expert: thresholdText(t.expert) + many + " or more",
    };
    return ranges[tier] ? "(" + ranges[tier] + " in this pack)." : "";
  }

  // "Hard: a player who follows the tips and looks 2 moves ahead meets about 15 dead ends
  // before the win, with undo".
  function difficultyLine(deal) {
    const tier = sentenceCase(deal.tier);
    if (!REFERENCE) return tier;
    const who = tier + ": " + REFERENCE.words;
    if (BY_ATTEMPTS) return who + " needs " + attemptsText(deal.difficulty, true) + " to win, without undo";
    return who + " meets " + deadEndsText(deal.difficulty, true) + " before the win, with undo";
  }

  function deadEndsMeaning() {
    return (
      "A dead end is a game that gets stuck: cards are left and none fits on the foundation. " +
      "With undo, the player then takes moves back to the last position from which a win was " +
      "still possible (as the hint does) and chooses again, until the win."
    );
  }

  // One line a player model, the weakest first: "A player who follows the usual tips wins about
  // 1 game in 1,600 without undo; with undo, expect about 15 dead ends before the win."
  function playersList(deal) {
    const list = element("ul", "players");
    for (const player of PLAYERS) {
      const chance = deal[player.win_column];
      if (chance === null || chance === undefined) continue;
      const deadEnds = deadEndsText(deal[player.dead_ends_column], true);
      const withUndo = deadEnds ? "; with undo, expect " + deadEnds + " before the win" : "";
      const item = element("li", null, sentenceCase(player.words) + " " + winsText(chance) + withUndo + ".");
      item.dataset.player = player.name;
      if (player === REFERENCE) {
        item.classList.add("reference");
        item.append(" ", element("span", "term-detail", "The tiers are cut on this player."));
      }
      list.append(item);
    }
    return list.childElementCount ? list : null;
  }

  // What makes the deal hard along its solution: the traps, the first of them, the cost of a slip.
  function reasonsList(deal) {
    const list = element("ul", "reasons");
    const add = (text) => text && list.append(element("li", null, text));
    if (deal.traps !== null && deal.traps !== undefined) add(trapsText(deal.traps));
    add(firstTrapText(deal));
    add(slipsText(deal.winnable_share));
    return list.childElementCount ? list : null;
  }

  function trapsText(traps) {
    if (traps === 0) return "The solution passes no trap: no single move along it loses the deal.";
    const where = traps === 1 ? "a position" : "positions";
    return "The solution passes " + plural(traps, "trap") + ": " + where + " where one of the moves you can play loses the deal.";
  }

  function firstTrapText(deal) {
    const first = deal.first_trap;
    if (first === null || first === undefined || !deal.traps) return null;
    if (first === 0) {
      return "The first trap comes at the very first move: one of the opening moves loses the deal.";
    }
    return (
      "The first trap comes after " + plural(first, "move") +
      ": until then, no move you can play along the solution loses the deal."
    );
  }

  function slipsText(share) {
    if (share === null || share === undefined) return null;
    const off = "of the positions one move off a winning line, ";
    if (share < 0.5) return "Slips are costly: " + off + "only " + percentText(share) + " can still be won.";
    return sentenceCase(off) + percentText(share) + " can still be won.";
  }

  // The deal's facts: the ways to win, the first moves, the forced moves and decisions.
  function factsList(deal) {
    const list = element("ul", "facts");
    const add = (text) => text && list.append(element("li", null, text));
    const count = countText(deal.solution_count);
    if (count) {
      const ways = deal.solution_count === "1" ? " way" : " ways";
      add(count + ways + " to win (distinct winning orders of the 51 moves)");
    }
    if (deal.first_moves !== null && deal.winning_first_moves !== null) add(firstMovesText(deal));
    if (deal.forced_moves !== null && deal.decisions !== null) {
      add(
        "Along the solution: " + plural(deal.forced_moves, "forced move") + " (one legal move) and " +
          plural(deal.decisions, "decision") + " (more than one)"
      );
    }
    return list;
  }

  function firstMovesText(deal) {
    if (deal.first_moves === 1) return "The only first move " + (deal.winning_first_moves ? "wins" : "loses");
    return deal.winning_first_moves + " of " + deal.first_moves + " first moves win";
  }

  function unsolvableSummary(deal) {
    const parts = [tierLine(deal)];
    parts.push(
      paragraph("This deal cannot be won: the solver searched every line of play and none plays all 51 cards.")
    );
    const known = element("ul", "facts");
    if (deal.first_moves !== null) {
      known.append(element("li", null, plural(deal.first_moves, "first move") + ", none of which wins"));
    }
    known.append(element("li", null, "No player ever wins it, with undo or without"));
    parts.push(known);
    return parts;
  }

  function ungradedSummary(deal) {
    const verdicts = {
      solved: "It can be won: watch the solution below the board.",
      unsolvable: "It cannot be won.",
      unknown: "The solver did not settle whether it can be won.",
    };
    return [
      tierLine(deal),
      paragraph(
        "This deal has no grade: its game tree was not walked, so how each player fares is not known."
      ),
      paragraph(verdicts[deal.verdict] || "Verdict: " + deal.verdict + "."),
      factsList(deal),
    ];
  }

  function trapSection(deal) {
    const section = element("section", "traps");
    section.append(element("h4", null, "Traps along the solution"));
    section.append(
      paragraph(
        "A trap is a position of the solution where some legal move leaves no way to win. " + packTrapText(deal),
        "trap-intro"
      )
    );
    const status = paragraph("Finding the traps…", "trap-status");
    status.id = "trap-status";
    const list = element("ol", "traps-list");
    list.id = "traps-list";
    section.append(status, list);
    return section;
  }

  function packTrapText(deal) {
    if (deal.traps === null) return "The pack has no trap count for this deal.";
    if (deal.traps === 0) return "The grader found none.";
    const first = deal.first_trap === null ? "" : "; the first after " + plural(deal.first_trap, "move");
    return "The grader counted " + deal.traps + first + ".";
  }

  // The traps are found in this browser (the same search as the hints), after the board
  // is drawn, so opening a deal never waits for them.
  function scheduleTraps(deal) {
    const token = ++play.trapsToken;
    setTimeout(function () {
      if (token !== play.trapsToken || play.deal !== deal) return;
      showTraps(deal, play.game.traps(deal.solution));
    }, 50);
  }

  function showTraps(deal, traps) {
    const list = byId("traps-list");
    const status = byId("trap-status");
    if (traps === null) {
      status.textContent = "The trap search ran out of its budget.";
      return;
    }
    status.textContent = traps.length
      ? "This browser found " + plural(traps.length, "trap") + ":"
      : "This browser found no trap.";
    list.replaceChildren(...traps.map(trapItem));
    list.dataset.count = String(traps.length);
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
      stopAutoPlay();
      goToSolutionStep(trap.step);
    });
    item.append(show);
    return item;
  }

  function numbersTable(deal) {
    const details = element("details");
    details.id = "grade-numbers";
    details.append(element("summary", null, "All the numbers"));
    const table = element("table", "numbers");
    const body = element("tbody");
    for (const column of DATA.columns) {
      const row = element("tr");
      row.append(element("th", null, column), element("td", null, numberText(deal[column])));
      body.append(row);
    }
    table.append(body);
    details.append(table);
    return details;
  }

  function numberText(value) {
    if (value === null || value === undefined) return "—";
    if (Array.isArray(value)) return value.length ? value.join(" ") : "—";
    return String(value);
  }

  // ---------------------------------------------------------------- routing

  // The deal id in "#deal=ID", or null on the index.
  function dealIdOfHash() {
    const match = /^#deal=(.*)$/.exec(location.hash);
    if (!match) return null;
    try {
      return decodeURIComponent(match[1]);
    } catch (error) {
      return match[1]; // a malformed escape: look the id up as written
    }
  }

  // Show the view the address names; `event` is the hashchange (null on load), after
  // which focus and scrolling move to the new view.
  function route(event) {
    const id = dealIdOfHash();
    const deal = id === null ? null : dealById.get(id);
    if (deal) showPlay(deal, Boolean(event));
    else showIndex(id === null ? "" : "There is no deal “" + id + "” in this gallery.", Boolean(event));
    document.body.dataset.ready = "true";
  }

  function showIndex(notice, navigated) {
    stopAutoPlay();
    const wasHidden = byId("index").hidden;
    byId("play").hidden = true;
    byId("index").hidden = false;
    document.body.dataset.view = "index";
    document.title = PAGE_TITLE;
    byId("notice").textContent = notice;
    byId("notice").hidden = !notice;
    if (!index.built) buildIndex();
    if (wasHidden && navigated) window.scrollTo(0, index.scroll);
  }

  function showPlay(deal, navigated) {
    if (!byId("index").hidden) index.scroll = window.scrollY;
    byId("index").hidden = true;
    byId("play").hidden = false;
    document.body.dataset.view = "play";
    openDeal(deal);
    if (navigated) {
      window.scrollTo(0, 0);
      // Move focus to the deal's heading, so keyboard and screen reader users start there.
      const heading = byId("deal-title");
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }

  function packLine() {
    const kind = DATA.kind ? DATA.kind + " " : "";
    return DATA.pack + " · " + kind + "pack · " + plural(deals.length, "deal");
  }

  function start() {
    byId("pack-line").textContent = packLine();
    buildPiles();
    byId("undo").addEventListener("click", undo);
    byId("redo").addEventListener("click", redo);
    byId("restart").addEventListener("click", restart);
    byId("hint").addEventListener("click", showHint);
    byId("solution-first").addEventListener("click", solutionFirst);
    byId("solution-back").addEventListener("click", solutionBack);
    byId("solution-forward").addEventListener("click", solutionForward);
    byId("solution-play").addEventListener("click", toggleAutoPlay);
    byId("solution-speed").addEventListener("change", onSpeedChange);
    document.addEventListener("keydown", onPageKey);
    window.addEventListener("hashchange", route);
    route(null);
  }

  start();
})();
