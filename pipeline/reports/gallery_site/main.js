// The gallery's page: the index of deals, and a deal in play with hints, the solution
// player and the grade explained. This file routes between the two views and starts
// the page; each concern has its own file (see index.html for the order they load in).
//
// Plain scripts, no modules and no requests: the page must work when opened from
// file://, so the deals come from deals.js (window.BLACKHOLE_GALLERY), the rules and
// hints from solver.js (window.BlackholeSolver), and the page's parts register on
// window.Blackhole, all loaded before this file.
//
// Routes: "#" or nothing is the index, "#tier=hard&sort=difficulty-desc&q=11" the index
// filtered and sorted (deal-list.js); "#deal=ID" is that deal in play, "#deal=ID&tier=hard"
// the same deal reached from that index, whose order and filter its previous / next
// buttons (and the keys p / n) follow; "#stats" is the player's statistics (personal.js).
// The body gets data-ready="true" once the first view is drawn, and data-view names the
// view shown.
//
// The page has one store of play records (records.js), which playtest.js opens: the deal's
// page, the index's marks and the statistics view all read it, and each is drawn again
// when another tab changes it.
(function (root) {
  "use strict";

  const Blackhole = root.Blackhole;
  const words = Blackhole.words;
  const dom = Blackhole.dom;
  const dealList = Blackhole.dealList;
  const statistics = Blackhole.statistics;
  const personal = Blackhole.personal;
  const byId = dom.byId;
  const VIEWS = ["index", "play", "stats"];

  // The address's route: the deal id in "#deal=ID" (null on the index), whether it is the
  // statistics ("#stats"), and the index's state, which a deal's address carries too.
  function parseHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    return {
      dealId: params.has("deal") ? params.get("deal") : null,
      stats: params.has("stats"),
      state: dealList.readState(params),
    };
  }

  // "p-curated · 8 curated deals, in level order", "smoke · 12 deals, in pack order"; a pack of
  // another game than Black Hole names it: "g · 12 deals of Golf, in pack order".
  function packLine(pack) {
    const count = pack.deals.length;
    const game = pack.game.namedInRecords ? " of " + pack.game.title : "";
    if (pack.kind === "curated") {
      return pack.name + " · " + words.plural(count, "curated deal") + game + ", in level order";
    }
    if (pack.kind === "pack") return pack.name + " · " + words.plural(count, "deal") + game + ", in pack order";
    return pack.name + " · " + words.plural(count, "deal") + game;
  }

  // A previous / next link: to `deal` in the index of `state`, or unavailable.
  function stepLink(link, deal, state) {
    if (deal) {
      link.href = dealList.dealHash(deal.deal_id, state);
      link.removeAttribute("aria-disabled");
      link.dataset.dealId = deal.deal_id;
    } else {
      link.removeAttribute("href");
      link.setAttribute("aria-disabled", "true");
      delete link.dataset.dealId;
    }
  }

  function start() {
    const pageTitle = document.title;
    const pack = Blackhole.pack.read(root.BLACKHOLE_GALLERY);
    const list = Blackhole.dealList.create(pack);
    const playing = Blackhole.play.create(pack, pageTitle);
    const store = playing.store;
    const stats = personal.create(pack, store);

    // Show the view the address names; `event` is the hashchange (null on load), after
    // which focus and scrolling move to the new view.
    function route(event) {
      const { dealId, stats: wantsStats, state } = parseHash();
      const deal = dealId === null ? null : pack.byId.get(dealId);
      if (deal) showPlay(deal, state, Boolean(event));
      else if (wantsStats && dealId === null) showStats(Boolean(event));
      else {
        const notice = dealId === null ? "" : "There is no deal “" + dealId + "” in this gallery.";
        showIndex(notice, state, Boolean(event));
      }
      document.body.dataset.ready = "true";
    }

    // The index for `state`; coming back to it (Back, a link, a reload) brings back its
    // scroll position, which its history entry keeps.
    function showIndex(notice, state, navigated) {
      playing.stop();
      stats.hide();
      const wasHidden = byId("index").hidden;
      showView("index");
      document.title = pageTitle;
      byId("notice").textContent = notice;
      byId("notice").hidden = !notice;
      list.setRecords(statistics.of(store.deals(), pack.deals).deals);
      list.show(state);
      if (wasHidden || !navigated) list.restoreScroll(history.state ? history.state.indexScroll : undefined);
    }

    function showPlay(deal, state, navigated) {
      stats.hide();
      showView("play");
      playing.open(deal);
      showSteps(deal, state);
      if (navigated) {
        window.scrollTo(0, 0);
        // Move focus to the deal's heading, so keyboard and screen reader users start there.
        const heading = byId("deal-title");
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
    }

    // The player's statistics: what was played and won at the pack's deals.
    function showStats(navigated) {
      playing.stop();
      showView("stats");
      document.title = "Statistics · " + pageTitle;
      stats.show();
      if (navigated) {
        window.scrollTo(0, 0);
        byId("stats-heading").focus({ preventScroll: true });
      }
    }

    function showView(name) {
      for (const view of VIEWS) byId(view).hidden = view !== name;
      document.body.dataset.view = name;
      if (name === "stats") byId("stats-link").setAttribute("aria-current", "page");
      else byId("stats-link").removeAttribute("aria-current");
    }

    // Another tab changed the records: the view on show is drawn again from them.
    function onRecordsChanged() {
      const view = document.body.dataset.view;
      if (view === "index") list.setRecords(statistics.of(store.deals(), pack.deals).deals);
      else if (view === "stats") stats.show();
      else if (view === "play") {
        const { dealId } = parseHash();
        if (pack.byId.has(dealId)) personal.showDeal(store.attempts(dealId), pack.game.pileCards);
      }
    }

    // The way back to the index, and the previous / next deal of the index the deal was
    // opened from ("3 of 8").
    function showSteps(deal, state) {
      const around = list.around(deal, state);
      byId("back").href = dealList.indexHash(state);
      stepLink(byId("previous-deal"), around.previous, state);
      stepLink(byId("next-deal"), around.next, state);
      byId("deal-place").textContent = around.count > 1 ? around.place + " of " + around.count : "";
      if (playing.setNext) playing.setNext(around.next ? dealList.dealHash(around.next.deal_id, state) : null);
    }

    // p and n: the previous and next deal, as the buttons go.
    function onKey(event) {
      if (byId("play").hidden || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.target.closest && event.target.closest("input, select, textarea, [contenteditable]")) return;
      const link = { p: byId("previous-deal"), n: byId("next-deal") }[event.key] || null;
      if (!link) return;
      event.preventDefault();
      if (link.hasAttribute("href")) location.hash = link.getAttribute("href");
    }

    history.scrollRestoration = "manual"; // the index restores its own (the browser's runs too early)
    byId("pack-line").textContent = packLine(pack);
    window.addEventListener("hashchange", route);
    store.onChange(onRecordsChanged);
    document.addEventListener("keydown", onKey);
    route(null);
  }

  start();
})(typeof globalThis !== "undefined" ? globalThis : this);
