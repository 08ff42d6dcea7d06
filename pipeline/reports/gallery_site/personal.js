// Personal records on the page: a deal's record on its page (#deal-records), and the pack's
// statistics view (#stats: played, won, win rate by tier, streaks, best times, modes) with
// the one way to delete the records, a reset the player confirms. The figures and their
// words are statistics.js's; this file only draws them.
//
// Registers window.Blackhole.personal: `showDeal(attempts, pileCards)` writes a deal's
// record; `create(pack, store)` binds the statistics view and gives {show}, `store` being
// the page's play records (records.js).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const statistics = inNode ? require("./statistics.js") : root.Blackhole.statistics;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const dealList = inNode ? require("./deal-list.js") : root.Blackhole.dealList;
  const byId = dom.byId;
  const element = dom.element;

  // A deal's record on its page, from its attempts (every tab's, oldest first).
  function showDeal(attempts, pileCards) {
    const figures = statistics.ofDeal(attempts);
    const line = byId("deal-records");
    line.textContent = statistics.dealText(figures, pileCards);
    line.dataset.attempts = String(figures.attempts);
    line.dataset.wins = String(figures.wins);
  }

  // "1 win", "3 wins", "none" for a streak.
  function streakText(count) {
    return count ? words.plural(count, "win") : "none";
  }

  // "The attempt still open in this tab carries on": what a reset keeps (a game under way,
  // or a relaxed one stuck, which Undo takes on).
  function openText(count) {
    if (count === 1) return "The attempt still open in this tab carries on";
    return "The " + count + " attempts still open in this tab carry on";
  }

  // A deal as the player knows it: "Level 3 · seed-77-11", or its id alone.
  function dealName(deal, dealId) {
    return deal && deal.level !== null ? "Level " + deal.level + " · " + dealId : dealId;
  }

  function create(pack, store) {
    const defaults = dealList.readState(new URLSearchParams());
    let asking = null; // what the confirmation shown would delete: statistics.kept()'s

    byId("reset-records").addEventListener("click", ask);
    byId("reset-keep").addEventListener("click", keep);
    byId("reset-delete").addEventListener("click", remove);

    function show() {
      const deals = store.deals();
      const figures = statistics.of(deals, pack.deals);
      const played = figures.played > 0;
      byId("stats-empty").hidden = played;
      byId("stats-figures").hidden = !played;
      byId("stats-figures").dataset.played = String(figures.played);
      if (played) {
        summary(figures);
        tiers(figures);
        bestTimes(figures);
        modes(figures);
      }
      const records = statistics.kept(deals, store.openHere());
      byId("reset-records").hidden = !(records.attempts || records.notes || records.marks);
      if (asking) ask(); // the counts may have changed (another tab)
    }

    // ------------------------------------------------------------ the figures

    function summary(figures) {
      const rows = [
        ["Played", words.plural(figures.played, "attempt")],
        ["Won", words.groupDigits(figures.won)],
        ["Win rate", statistics.rateText(figures.won, figures.played)],
        ["Current streak", streakText(figures.currentStreak)],
        ["Longest streak", streakText(figures.longestStreak)],
        ["Deals won", words.groupDigits(figures.dealsWon) + " of " + words.plural(figures.dealCount, "deal")],
      ];
      if (figures.playing) rows.push(["Under way", words.plural(figures.playing, "attempt")]);
      byId("stats-summary").replaceChildren(
        ...rows.map(function ([label, value]) {
          const item = element("div", "stats-item");
          item.dataset.figure = label.toLowerCase().replace(/ /g, "-");
          item.append(element("dt", null, label), element("dd", null, value));
          return item;
        })
      );
    }

    // A row per tier of the pack: its deals won, attempts played and won, win rate.
    function tiers(figures) {
      const rows = pack.tierOrder
        .filter((tier) => figures.byTier[tier])
        .map(function (tier) {
          const counted = figures.byTier[tier];
          const row = element("tr");
          row.dataset.tier = tier;
          const name = element("th");
          name.scope = "row";
          name.append(dom.tierBadge(tier));
          row.append(
            name,
            element("td", null, counted.dealsWon + " of " + counted.deals),
            element("td", null, words.groupDigits(counted.played)),
            element("td", null, words.groupDigits(counted.won)),
            element("td", null, statistics.rateText(counted.won, counted.played))
          );
          return row;
        });
      byId("stats-tier-rows").replaceChildren(...rows);
    }

    function bestTimes(figures) {
      const list = byId("stats-best");
      list.replaceChildren(
        ...figures.bestTimes.map(function (best) {
          const item = element("li");
          item.dataset.dealId = best.dealId;
          const link = element("a", "stats-deal", dealName(pack.byId.get(best.dealId), best.dealId));
          link.href = dealList.dealHash(best.dealId, defaults);
          item.append(element("span", "best-time", words.durationText(best.seconds)), " ", link);
          const mode = statistics.modeText(best.mode, best.timed);
          if (mode !== "relaxed") item.append(" ", element("span", "best-mode", "(" + mode + ")"));
          return item;
        })
      );
      byId("stats-best-none").hidden = figures.bestTimes.length > 0;
    }

    // Relaxed, one attempt (the wins without undo) and with a clock: each mode played.
    function modes(figures) {
      const rows = [
        ["relaxed", "Relaxed", figures.byMode.relaxed],
        ["one_attempt", "One attempt (no undo)", figures.byMode.one_attempt],
        ["timed", "With a clock", figures.timed],
      ].filter((row) => row[2].played);
      byId("stats-modes").replaceChildren(
        ...rows.map(function ([mode, label, counted]) {
          const item = element("li");
          item.dataset.mode = mode;
          item.textContent =
            label + ": " + words.plural(counted.played, "attempt") + ", " + counted.won + " won (" +
            statistics.rateText(counted.won, counted.played) + ")";
          return item;
        })
      );
    }

    // ------------------------------------------------------------ the reset

    // The first press: say what would be deleted, and ask (Keep has the focus: the safe answer).
    function ask() {
      asking = statistics.kept(store.deals(), store.openHere());
      const open = asking.open ? " " + openText(asking.open) + "." : "";
      byId("reset-question").textContent =
        "Delete " + statistics.recordsText(asking) + "?" + open + " Export them first if you want to keep them.";
      byId("reset-confirm").hidden = false;
      byId("reset-records").setAttribute("aria-expanded", "true");
      byId("reset-done").textContent = "";
      if (document.activeElement === byId("reset-records")) byId("reset-keep").focus();
    }

    function close(said) {
      asking = null;
      byId("reset-confirm").hidden = true;
      byId("reset-records").setAttribute("aria-expanded", "false");
      byId("reset-done").textContent = said;
    }

    function keep() {
      close("Kept: nothing was deleted.");
      byId("reset-records").focus();
    }

    function remove() {
      const deleted = asking || statistics.kept(store.deals(), store.openHere());
      store.reset();
      close("Deleted " + statistics.recordsText(deleted) + ".");
      show();
      byId("stats-heading").focus({ preventScroll: true });
    }

    return {
      show: show,
      // Leaving the view: a question left open is dropped (nothing deleted).
      hide: function () {
        if (asking) close("");
      },
    };
  }

  const api = { create: create, showDeal: showDeal };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).personal = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
