// The gallery's page: the index of deals, and a deal in play with hints, the solution
// player and the grade explained. This file routes between the two views and starts
// the page; each concern has its own file (see index.html for the order they load in).
//
// Plain scripts, no modules and no requests: the page must work when opened from
// file://, so the deals come from deals.js (window.BLACKHOLE_GALLERY), the rules and
// hints from solver.js (window.BlackholeSolver), and the page's parts register on
// window.Blackhole, all loaded before this file.
//
// Routes: "#" or nothing is the index; "#deal=ID" is that deal in play. The body gets
// data-ready="true" once the first view is drawn, and data-view names the view shown.
(function (root) {
  "use strict";

  const Blackhole = root.Blackhole;
  const words = Blackhole.words;
  const byId = Blackhole.dom.byId;

  // The deal id in "#deal=ID", or null on the index.
  function dealIdOfHash() {
    const match = /^#deal=(.*)$/.exec(location.hash);
    if (!match) return null;
    try {
      return decodeURIComponent(match[1]);
    } catch {
      return match[1]; // a malformed escape: look the id up as written
    }
  }

  function packLine(pack) {
    const kind = pack.kind ? pack.kind + " " : "";
    return pack.name + " · " + kind + "pack · " + words.plural(pack.deals.length, "deal");
  }

  function start() {
    const pageTitle = document.title;
    const pack = Blackhole.pack.read(root.BLACKHOLE_GALLERY);
    const list = Blackhole.dealList.create(pack);
    const playing = Blackhole.play.create(pack, pageTitle);

    // Show the view the address names; `event` is the hashchange (null on load), after
    // which focus and scrolling move to the new view.
    function route(event) {
      const id = dealIdOfHash();
      const deal = id === null ? null : pack.byId.get(id);
      if (deal) showPlay(deal, Boolean(event));
      else showIndex(id === null ? "" : "There is no deal “" + id + "” in this gallery.", Boolean(event));
      document.body.dataset.ready = "true";
    }

    function showIndex(notice, navigated) {
      playing.stop();
      const wasHidden = byId("index").hidden;
      byId("play").hidden = true;
      byId("index").hidden = false;
      document.body.dataset.view = "index";
      document.title = pageTitle;
      byId("notice").textContent = notice;
      byId("notice").hidden = !notice;
      list.show();
      if (wasHidden && navigated) list.restoreScroll();
    }

    function showPlay(deal, navigated) {
      if (!byId("index").hidden) list.saveScroll();
      byId("index").hidden = true;
      byId("play").hidden = false;
      document.body.dataset.view = "play";
      playing.open(deal);
      if (navigated) {
        window.scrollTo(0, 0);
        // Move focus to the deal's heading, so keyboard and screen reader users start there.
        const heading = byId("deal-title");
        heading.tabIndex = -1;
        heading.focus({ preventScroll: true });
      }
    }

    byId("pack-line").textContent = packLine(pack);
    window.addEventListener("hashchange", route);
    route(null);
  }

  start();
})(typeof globalThis !== "undefined" ? globalThis : this);
