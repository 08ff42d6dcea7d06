// The index: every deal of the pack as a row (thumbnail, level and id, tier, figures),
// filtered by tier, sorted, searched by id; rows come a page at a time as the list scrolls.
//
// Registers window.Blackhole.dealList: `create(pack)` gives {show, saveScroll,
// restoreScroll}; the list's state (the matches, the rows shown, the observers, the scroll
// position) is its own.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const thumbnail = inNode ? require("./thumbnail.js") : root.Blackhole.thumbnail;
  const byId = dom.byId;
  const element = dom.element;

  const PAGE_SIZE = 100; // index rows appended per page as the list scrolls

  function create(pack) {
    let built = false;
    let matches = []; // the deals that pass the filters, in the chosen order
    let shown = 0; // how many of them have rows
    let pageObserver = null;
    let thumbObserver = null;
    let scroll = 0; // the index's scroll position, restored when coming back from a deal

    function build() {
      const present = new Set(pack.deals.map((deal) => deal.tier));
      const select = byId("tier-filter");
      for (const tier of pack.tierOrder.filter((tier) => present.has(tier))) {
        const option = element("option", null, tier);
        option.value = tier;
        select.append(option);
      }
      select.addEventListener("change", applyFilters);
      byId("sort").addEventListener("change", applyFilters);
      byId("search").addEventListener("input", applyFilters);

      // Rows come a page at a time as the sentinel below the list nears the viewport,
      // and each thumbnail is drawn only when its row scrolls into view.
      pageObserver = new IntersectionObserver(onSentinel, { rootMargin: "800px 0px" });
      thumbObserver = new IntersectionObserver(onThumbnails, { rootMargin: "200px 0px" });
      pageObserver.observe(byId("list-sentinel"));
      built = true;
      applyFilters();
    }

    function currentMatches() {
      const tier = byId("tier-filter").value;
      const needle = byId("search").value.trim().toLowerCase();
      const ordered = pack.sorted[byId("sort").value] || pack.sorted.level;
      return ordered.filter(function (deal) {
        return (tier === "all" || deal.tier === tier) && (!needle || deal.searchKey.includes(needle));
      });
    }

    function applyFilters() {
      matches = currentMatches();
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
        thumbnail.draw(canvas, pack.byId.get(canvas.dataset.dealId).cards);
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
      canvas.width = thumbnail.WIDTH;
      canvas.height = thumbnail.HEIGHT;
      canvas.dataset.dealId = deal.deal_id;
      canvas.setAttribute("aria-hidden", "true");
      thumbObserver.observe(canvas);

      const name = element("span", "deal-name");
      name.append(
        element("span", "deal-level", deal.level === null ? "" : "Level " + deal.level),
        element("span", "deal-id", deal.deal_id)
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

    function stat(label, value) {
      const made = element("span", "stat");
      made.append(element("span", "stat-label", label), element("span", "stat-value", value));
      return made;
    }

    return {
      // Fill the list the first time the index is shown; later, keep it as it is.
      show: function () {
        if (!built) build();
      },
      // Remember where the index was scrolled to (before a deal covers it)...
      saveScroll: function () {
        scroll = window.scrollY;
      },
      // ...and go back there.
      restoreScroll: function () {
        window.scrollTo(0, scroll);
      },
    };
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).dealList = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
