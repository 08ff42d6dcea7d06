// The index: every deal of the pack as a row (thumbnail, level and id, tier, figures),
// filtered by tier, sorted either way, searched by level or id; rows come a page at a time
// as the list scrolls.
//
// The index's state (tier, sort, search) lives in the address, so a reload or a link keeps
// it: "#tier=hard&sort=difficulty-desc&q=11" (defaults left out, so the plain index is "#"),
// and a deal opened from it carries it, "#deal=ID&tier=hard", so that previous / next go
// through the same deals in the same order. The scroll position is kept in the index's
// history entry, so Back (and a reload) bring the list back where it was.
//
// Each row carries the player's mark of the deal (statistics.js's markOf): "Won", "Best 34
// of 51" for a deal tried and not won, nothing for one never tried; `setRecords` gives the
// figures and redraws the marks of the rows shown.
//
// Registers window.Blackhole.dealList: `create(pack)` gives {show, around, restoreScroll,
// setRecords}; the list's state (the matches, the rows shown, the observers, the scroll
// position, the records' figures) is its own. readState, stateQuery, indexHash, dealHash and
// matching need no DOM.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const thumbnail = inNode ? require("./thumbnail.js") : root.Blackhole.thumbnail;
  const statistics = inNode ? require("./statistics.js") : root.Blackhole.statistics;
  const byId = dom.byId;
  const element = dom.element;

  const PAGE_SIZE = 100; // index rows appended per page as the list scrolls
  const SAVE_DELAY = 150; // ms of quiet scrolling before the position is written to history
  const DEFAULTS = Object.freeze({ tier: "all", sort: "level", q: "" });
  // The orders, each [value, label with levels, label without]: a pack that is not curated
  // has no levels, so its "level" order is the pack's own.
  const SORTS = [
    ["level", "level, first to last", "pack order"],
    ["level-desc", "level, last to first", "pack order, last first"],
    ["difficulty", "easiest first", "easiest first"],
    ["difficulty-desc", "hardest first", "hardest first"],
  ];
  const LEVEL_SEARCH = /^(level\s*)?#?(\d+)$/; // "level 11", "11"
  const orders = new WeakMap(); // a pack's descending orders, made when first asked for

  // ---------------------------------------------------------------- state, no DOM

  // The index's state from the address's parameters (URLSearchParams); anything unknown
  // reads as its default.
  function readState(params) {
    const sort = params.get("sort");
    return {
      tier: params.get("tier") || DEFAULTS.tier,
      sort: SORTS.some((known) => known[0] === sort) ? sort : DEFAULTS.sort,
      q: params.get("q") || DEFAULTS.q,
    };
  }

  // "tier=hard&sort=difficulty-desc&q=11": the state's parameters that are not defaults.
  function stateQuery(state) {
    const params = new URLSearchParams();
    for (const key of ["tier", "sort", "q"]) {
      if (state[key] && state[key] !== DEFAULTS[key]) params.set(key, state[key]);
    }
    return params.toString();
  }

  function indexHash(state) {
    return "#" + stateQuery(state);
  }

  function dealHash(dealId, state) {
    const query = stateQuery(state);
    return "#deal=" + encodeURIComponent(dealId) + (query ? "&" + query : "");
  }

  // The last part of an id after its last "-": "11" of "seed-20261129-11".
  function idSuffix(dealId) {
    const text = String(dealId);
    return text.slice(text.lastIndexOf("-") + 1);
  }

  // Whether `deal` matches the search `text`: a number ("11", "level 11") is a level, or
  // without the word "level" also an id's suffix ("seed-77-11", not every id with 11 in its
  // seed); anything else is a part of the id, in any case.
  function searchMatches(deal, text) {
    const needle = text.trim().toLowerCase();
    if (!needle) return true;
    const number = LEVEL_SEARCH.exec(needle);
    if (!number) return deal.searchKey.includes(needle);
    const wanted = Number(number[2]);
    if (deal.level === wanted) return true;
    const suffix = idSuffix(deal.deal_id);
    return !number[1] && /^\d+$/.test(suffix) && Number(suffix) === wanted;
  }

  // The deals in the order `sort` names, each order computed once. Hardest first keeps the
  // deals without a difficulty last, as easiest first does, and equal ones in level order.
  function ordered(pack, sort) {
    if (sort === "difficulty") return pack.sorted.difficulty;
    if (!orders.has(pack)) orders.set(pack, new Map());
    const made = orders.get(pack);
    if (!made.has(sort)) {
      if (sort === "level-desc") made.set(sort, pack.sorted.level.slice().reverse());
      else if (sort === "difficulty-desc") {
        const scored = pack.sorted.difficulty.filter((deal) => deal.difficulty !== null);
        const unscored = pack.sorted.level.filter((deal) => deal.difficulty === null);
        made.set(sort, scored.sort((a, b) => b.difficulty - a.difficulty).concat(unscored)); // stable
      } else return pack.sorted.level;
    }
    return made.get(sort);
  }

  // The deals of `pack` that the index shows for `state`, in its order.
  function matching(pack, state) {
    return ordered(pack, state.sort).filter(function (deal) {
      return (state.tier === "all" || deal.tier === state.tier) && searchMatches(deal, state.q);
    });
  }

  function sameState(a, b) {
    return a.tier === b.tier && a.sort === b.sort && a.q === b.q;
  }

  // ---------------------------------------------------------------- the list

  function create(pack) {
    let built = false;
    let state = Object.assign({}, DEFAULTS);
    let matches = []; // the deals that pass the filters, in the chosen order
    let shown = 0; // how many of them have rows
    let pageObserver = null;
    let thumbObserver = null;
    let scroll = 0; // the index's last scroll position, for an index entry that has none
    let saveTimer = null;
    let aroundCache = { key: null, deals: null };
    let records = new Map(); // deal id -> statistics.ofDeal()'s figures (none: never tried)

    function build() {
      const present = new Set(pack.deals.map((deal) => deal.tier));
      const select = byId("tier-filter");
      for (const tier of pack.tierOrder.filter((tier) => present.has(tier))) {
        const option = element("option", null, tier);
        option.value = tier;
        select.append(option);
      }
      const levels = pack.deals.some((deal) => deal.level !== null);
      const sort = byId("sort");
      sort.replaceChildren(
        ...SORTS.map(function (known) {
          const option = element("option", null, levels ? known[1] : known[2]);
          option.value = known[0];
          return option;
        })
      );
      select.addEventListener("change", onControls);
      sort.addEventListener("change", onControls);
      byId("search").addEventListener("input", onControls);
      byId("deal-list").addEventListener("click", saveScrollNow); // before a row's link is followed
      window.addEventListener("scroll", onScroll, { passive: true });
      window.addEventListener("pagehide", saveScrollNow);

      // Rows come a page at a time as the sentinel below the list nears the viewport,
      // and each thumbnail is drawn only when its row scrolls into view.
      pageObserver = new IntersectionObserver(onSentinel, { rootMargin: "800px 0px" });
      thumbObserver = new IntersectionObserver(onThumbnails, { rootMargin: "200px 0px" });
      pageObserver.observe(byId("list-sentinel"));
      built = true;
    }

    // The controls show `wanted` (a tier the pack lacks reads as all tiers).
    function setControls(wanted) {
      const tier = byId("tier-filter");
      tier.value = wanted.tier;
      if (tier.value !== wanted.tier) tier.value = DEFAULTS.tier;
      byId("sort").value = wanted.sort;
      byId("search").value = wanted.q;
    }

    function controlsState() {
      return { tier: byId("tier-filter").value, sort: byId("sort").value, q: byId("search").value };
    }

    // A control changed: filter again and write the new state into the address (replacing
    // the index's entry: a filter is not a page to go Back to).
    function onControls() {
      applyFilters(controlsState());
      history.replaceState(history.state, "", hashUrl(indexHash(state)));
    }

    function applyFilters(wanted) {
      state = wanted;
      matches = matching(pack, state);
      shown = 0;
      thumbObserver.disconnect();
      byId("deal-list").replaceChildren();
      byId("shown-count").textContent = words.plural(matches.length, "deal");
      byId("no-match").hidden = matches.length > 0;
      appendPage();
    }

    function appendPage() {
      const end = Math.min(shown + PAGE_SIZE, matches.length);
      const rows = document.createDocumentFragment();
      for (let i = shown; i < end; i++) rows.append(dealRow(matches[i]));
      byId("deal-list").append(rows);
      shown = end;
      // An observer reports changes only: observing the sentinel afresh makes it report
      // again if the new page did not push it out of reach.
      const sentinel = byId("list-sentinel");
      pageObserver.unobserve(sentinel);
      pageObserver.observe(sentinel);
    }

    function onSentinel(entries) {
      const visible = entries.some((entry) => entry.isIntersecting);
      if (visible && !byId("index").hidden && shown < matches.length) appendPage();
    }

    function onThumbnails(entries) {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const canvas = entry.target;
        thumbObserver.unobserve(canvas);
        thumbnail.draw(canvas, pack.byId.get(canvas.dataset.dealId).cards, pack.game);
      }
    }

    // ------------------------------------------------------------ scroll

    function onScroll() {
      if (byId("index").hidden) return;
      scroll = window.scrollY;
      clearTimeout(saveTimer);
      saveTimer = setTimeout(saveScrollNow, SAVE_DELAY);
    }

    // Write the index's scroll position into its history entry (while the index is shown).
    function saveScrollNow() {
      clearTimeout(saveTimer);
      if (byId("index").hidden) return;
      scroll = window.scrollY;
      history.replaceState(Object.assign({}, history.state, { indexScroll: scroll }), "", location.href);
    }

    // Scroll to `y` (the entry's own position; the last one known when it has none), with
    // enough rows appended first for the page to be that long.
    function restoreScroll(y) {
      const target = typeof y === "number" ? y : scroll;
      const tall = () => document.documentElement.scrollHeight >= target + window.innerHeight;
      while (!tall() && shown < matches.length) appendPage();
      window.scrollTo(0, target);
      scroll = window.scrollY;
    }

    // ------------------------------------------------------------ rows

    function dealRow(deal) {
      const row = element("li", "deal-row");
      row.dataset.dealId = deal.deal_id;
      row.dataset.tier = deal.tier;
      if (deal.difficulty !== null) row.dataset.difficulty = String(deal.difficulty);

      const link = element("a", "deal-link");
      link.href = dealHash(deal.deal_id, state);

      const canvas = element("canvas", "thumb");
      canvas.width = thumbnail.WIDTH;
      canvas.height = thumbnail.HEIGHT;
      canvas.dataset.dealId = deal.deal_id;
      canvas.setAttribute("aria-hidden", "true");
      thumbObserver.observe(canvas);

      const name = element("span", "deal-name");
      name.append(
        element("span", "deal-level", deal.level === null ? "" : "Level " + deal.level),
        element("span", "deal-id", deal.deal_id),
        recordMark(deal.deal_id)
      );

      const stats = element("span", "deal-stats");
      stats.append(
        stat("difficulty", words.difficultyText(deal.difficulty, false, pack.byAttempts) || "—"),
        stat("ways to win", words.countText(deal.solution_count) || "—"),
        stat("random play", words.oddsText(deal.random_win_probability) || "—")
      );
      link.append(canvas, name, dom.tierBadge(deal.tier), stats);
      row.append(link);
      return row;
    }

    // The player's mark of a deal: won, tried with its best, or nothing (never tried).
    function recordMark(dealId) {
      const mark = statistics.markOf(records.get(String(dealId)), pack.game.pileCards);
      const made = element("span", "deal-record", mark.text);
      made.dataset.record = mark.kind;
      if (mark.title) made.title = mark.title;
      return made;
    }

    function stat(label, value) {
      const made = element("span", "stat");
      made.append(element("span", "stat-label", label), element("span", "stat-value", value));
      return made;
    }

    return {
      // Show the list for `wanted` (readState's): built the first time, filtered again when
      // the state differs from the one on show, else kept as it is.
      show: function (wanted) {
        const first = !built;
        if (first) build();
        if (first || !sameState(wanted, state)) {
          setControls(wanted);
          applyFilters(controlsState());
        }
      },
      restoreScroll: restoreScroll,
      // The records' figures by deal id (statistics.of's `deals`): the rows shown get their
      // marks again, and the rows to come are made with them.
      setRecords: function (figures) {
        records = figures;
        if (!built) return;
        for (const row of byId("deal-list").children) {
          row.querySelector(".deal-record").replaceWith(recordMark(row.dataset.dealId));
        }
      },
      // The deals before and after `deal` in the index of `wanted` (its order, filter and
      // search): {previous, next, place (from 1), count}; the deal outside it goes by the
      // order alone.
      around: function (deal, wanted) {
        const key = stateQuery(wanted);
        if (aroundCache.key !== key) aroundCache = { key: key, deals: matching(pack, wanted) };
        let deals = aroundCache.deals;
        let place = deals.indexOf(deal);
        if (place < 0) {
          deals = ordered(pack, wanted.sort);
          place = deals.indexOf(deal);
        }
        return {
          previous: place > 0 ? deals[place - 1] : null,
          next: place >= 0 && place < deals.length - 1 ? deals[place + 1] : null,
          place: place + 1,
          count: deals.length,
        };
      },
    };
  }

  // The page's address with `hash` ("#" alone drops the fragment: the plain index).
  function hashUrl(hash) {
    return hash === "#" ? location.href.split("#")[0] : hash;
  }

  const api = {
    create: create,
    readState: readState,
    stateQuery: stateQuery,
    indexHash: indexHash,
    dealHash: dealHash,
    matching: matching,
    hashUrl: hashUrl,
  };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).dealList = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
