// Personal records, as a solitaire app keeps them (PySolFC's statistics, for one): per deal
// the attempts, wins, clean wins, best cards out and fastest win; per pack what was played
// and won, by tier and by mode, the winning streaks and the best times; and the words a
// player reads of them. Pure, no DOM: Node's unit tests load it too.
//
// The figures are computed from the play records (records.js's store.deals(): every deal's
// {note, mark, attempts} in the export's shape), never stored: what the records hold is
// the truth, so a reset, an import or another tab's attempt shows at the next look.
//
// A finished attempt is one whose outcome is not "playing" (won, stuck, abandoned,
// out_of_time); only finished attempts are counted as played, as a solitaire app counts a
// game when it ends. An attempt of a version 1 record has no mode: it was relaxed, untimed.
//
// Registers window.Blackhole.statistics (module.exports under Node).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;

  const MODES = ["relaxed", "one_attempt"];
  const MODE_WORDS = { relaxed: "relaxed", one_attempt: "one attempt" };
  const MODE_GAMES = { relaxed: "relaxed game", one_attempt: "one-attempt game" }; // counted: "2 relaxed games"
  const BEST_TIMES = 5; // fastest wins listed for a pack, one a deal

  // ---------------------------------------------------------------- figures

  function isFinished(attempt) {
    return attempt.outcome !== "playing";
  }

  function modeOf(attempt) {
    return MODES.includes(attempt.mode) ? attempt.mode : "relaxed";
  }

  // {played, won}, counted into by tally().
  function counts() {
    return { played: 0, won: 0 };
  }

  function tally(counted, attempt) {
    counted.played++;
    if (attempt.outcome === "won") counted.won++;
  }

  // The figures of one deal's attempts (oldest first):
  //   attempts    finished attempts; playing: attempts still in progress (in any tab)
  //   wins, cleanWins  won, and won with no undo, restart or hint (the record's `clean`)
  //   bestCards   the most cards out in a finished attempt (null: none finished)
  //   fastestWin  the fewest seconds of a win (null: no win)
  //   byMode      {relaxed, one_attempt}: {played, won} each; timed: {played, won} with a clock
  function ofDeal(attempts) {
    const figures = {
      attempts: 0,
      playing: 0,
      wins: 0,
      cleanWins: 0,
      bestCards: null,
      fastestWin: null,
      byMode: { relaxed: counts(), one_attempt: counts() },
      timed: counts(),
    };
    for (const attempt of attempts || []) {
      if (!isFinished(attempt)) {
        figures.playing++;
        continue;
      }
      figures.attempts++;
      tally(figures.byMode[modeOf(attempt)], attempt);
      if (attempt.timed) tally(figures.timed, attempt);
      figures.bestCards = Math.max(figures.bestCards === null ? 0 : figures.bestCards, attempt.cards_played || 0);
      if (attempt.outcome !== "won") continue;
      figures.wins++;
      if (attempt.clean) figures.cleanWins++;
      if (figures.fastestWin === null || attempt.seconds < figures.fastestWin) figures.fastestWin = attempt.seconds;
    }
    return figures;
  }

  // store.deals() as [dealId, {note, mark, attempts}] pairs: it may be an object keyed by
  // deal id, or the export's list of {deal_id, note, mark, attempts}.
  function entries(deals) {
    if (!deals) return [];
    if (Array.isArray(deals)) return deals.map((deal) => [String(deal.deal_id), deal]);
    return Object.keys(deals).map((id) => [id, deals[id]]);
  }

  // What a reset deletes: {attempts, notes, marks} across every deal of the records, and
  // {open}: the attempts it keeps, those whose ids are in `openIds` (store.openHere(): this
  // tab's attempts still open, in progress or relaxed and stuck). Another tab's attempt in
  // progress is not counted either: that tab keeps it.
  function kept(deals, openIds) {
    const open = new Set(openIds || []);
    const found = { attempts: 0, notes: 0, marks: 0, open: 0 };
    for (const [, deal] of entries(deals)) {
      for (const attempt of deal.attempts || []) {
        if (open.has(attempt.id)) found.open++;
        else if (isFinished(attempt)) found.attempts++;
      }
      if (deal.note) found.notes++;
      if (deal.mark) found.marks++;
    }
    return found;
  }

  // The finished attempts in the order they ended (then started, then by id: stable for
  // attempts that ended in the same millisecond).
  function inEndOrder(finished) {
    return finished.slice().sort(function (a, b) {
      const x = a.attempt;
      const y = b.attempt;
      return compare(x.ended, y.ended) || compare(x.started, y.started) || compare(x.id, y.id);
    });
  }

  function compare(a, b) {
    const x = a || "";
    const y = b || "";
    return x < y ? -1 : x > y ? 1 : 0;
  }

  // {current, longest}: wins in a row, the last run and the longest, over attempts in the
  // order they ended; a win extends a run, any other finished outcome breaks it.
  function streaks(ordered) {
    let current = 0;
    let longest = 0;
    for (const item of ordered) {
      current = item.attempt.outcome === "won" ? current + 1 : 0;
      longest = Math.max(longest, current);
    }
    return { current: current, longest: longest };
  }

  // The statistics of a pack: `deals` is store.deals(); `packDeals` the pack's deals (pack.js:
  // {deal_id, tier, ...}), in pack order. Gives
  //   deals        a Map from deal id to ofDeal()'s figures, for every deal of the pack
  //   played, won  finished attempts at the pack's deals, and those won; winRate won / played
  //                (null when nothing was played); playing: attempts in progress
  //   dealsTried, dealsWon, dealCount  deals with a finished attempt, with a win, in the pack
  //   byTier       {tier: {deals, tried, dealsWon, played, won}}, tiers in pack order
  //   currentStreak, longestStreak  wins in a row (streaks above)
  //   bestTimes    the fastest wins, one a deal, fastest first (at most `limit`, 5 by default):
  //                [{dealId, seconds, ended, mode, timed}]
  //   byMode, timed  as ofDeal's, for the whole pack
  function of(deals, packDeals, limit) {
    const recorded = new Map(entries(deals));
    const figures = new Map();
    const pack = {
      deals: figures,
      played: 0,
      won: 0,
      winRate: null,
      playing: 0,
      dealsTried: 0,
      dealsWon: 0,
      dealCount: packDeals.length,
      byTier: {},
      currentStreak: 0,
      longestStreak: 0,
      bestTimes: [],
      byMode: { relaxed: counts(), one_attempt: counts() },
      timed: counts(),
    };
    const finished = [];
    const fastest = [];
    for (const deal of packDeals) {
      const id = String(deal.deal_id);
      const attempts = recorded.has(id) ? recorded.get(id).attempts || [] : [];
      const one = ofDeal(attempts);
      figures.set(id, one);
      if (!Object.prototype.hasOwnProperty.call(pack.byTier, deal.tier)) {
        pack.byTier[deal.tier] = { deals: 0, tried: 0, dealsWon: 0, played: 0, won: 0 };
      }
      const tier = pack.byTier[deal.tier];
      tier.deals++;
      tier.played += one.attempts;
      tier.won += one.wins;
      pack.playing += one.playing;
      if (one.attempts) {
        tier.tried++;
        pack.dealsTried++;
      }
      if (one.wins) {
        tier.dealsWon++;
        pack.dealsWon++;
      }
      for (const mode of MODES) {
        pack.byMode[mode].played += one.byMode[mode].played;
        pack.byMode[mode].won += one.byMode[mode].won;
      }
      pack.timed.played += one.timed.played;
      pack.timed.won += one.timed.won;
      for (const attempt of attempts) {
        if (isFinished(attempt)) finished.push({ dealId: id, attempt: attempt });
      }
      const best = fastestWinOf(attempts);
      if (best) fastest.push({ dealId: id, attempt: best });
    }
    pack.played = finished.length;
    pack.won = finished.filter((item) => item.attempt.outcome === "won").length;
    pack.winRate = pack.played ? pack.won / pack.played : null;
    const runs = streaks(inEndOrder(finished));
    pack.currentStreak = runs.current;
    pack.longestStreak = runs.longest;
    pack.bestTimes = inEndOrder(fastest)
      .sort((a, b) => a.attempt.seconds - b.attempt.seconds) // stable: equal times, the earlier first
      .slice(0, limit === undefined ? BEST_TIMES : limit)
      .map((item) => ({
        dealId: item.dealId,
        seconds: item.attempt.seconds,
        ended: item.attempt.ended,
        mode: modeOf(item.attempt),
        timed: Boolean(item.attempt.timed),
      }));
    return pack;
  }

  // The won attempt with the fewest seconds (the first of equals), or null.
  function fastestWinOf(attempts) {
    let best = null;
    for (const attempt of attempts) {
      if (attempt.outcome === "won" && (best === null || attempt.seconds < best.seconds)) best = attempt;
    }
    return best;
  }

  // ---------------------------------------------------------------- words

  // "1 won (clean)", "2 won (1 clean)", "3 won (all clean)", "1 won", "none won".
  function winsText(figures) {
    if (!figures.wins) return "none won";
    const won = figures.wins + " won";
    if (!figures.cleanWins) return won;
    if (figures.cleanWins === figures.wins) return won + (figures.wins === 1 ? " (clean)" : " (all clean)");
    return won + " (" + figures.cleanWins + " clean)";
  }

  // A mode and clock as a player says them: "one attempt", "relaxed, with a clock".
  function modeText(mode, timed) {
    return MODE_WORDS[mode] + (timed ? ", with a clock" : "");
  }

  // The attempts by mode, when any was not relaxed or had a clock: "2 relaxed games (1 won),
  // 1 one-attempt game (won); 1 with a clock (none won)". Empty when every attempt was relaxed
  // and untimed.
  function modesText(figures) {
    const relaxedOnly = figures.byMode.one_attempt.played === 0 && figures.timed.played === 0;
    if (relaxedOnly) return "";
    const parts = [];
    for (const mode of MODES) {
      const counted = figures.byMode[mode];
      if (counted.played) parts.push(words.plural(counted.played, MODE_GAMES[mode]) + wonText(counted));
    }
    const text = parts.join(", ");
    return figures.timed.played ? text + "; " + figures.timed.played + " with a clock" + wonText(figures.timed) : text;
  }

  // " (1 won)", " (none won)", " (all won)" after a count of attempts.
  function wonText(counted) {
    if (!counted.won) return " (none won)";
    if (counted.won === counted.played) return counted.played === 1 ? " (won)" : " (all won)";
    return " (" + counted.won + " won)";
  }

  // A deal's record for its page, `pileCards` the cards a win plays (51 in Black Hole):
  // "3 attempts, 1 won (clean) · best 51 of 51 cards · fastest win 2 min 5 s", then the
  // modes when any was not relaxed, and an attempt in progress; "No attempt yet." when none.
  function dealText(figures, pileCards) {
    const under = figures.playing ? words.plural(figures.playing, "attempt") + " under way" : "";
    if (!figures.attempts) {
      return under ? sentence(under + ", none finished yet") : "No attempt yet.";
    }
    const parts = [words.plural(figures.attempts, "attempt") + ", " + winsText(figures)];
    parts.push("best " + figures.bestCards + " of " + words.plural(pileCards, "card"));
    if (figures.fastestWin !== null) parts.push("fastest win " + words.durationText(figures.fastestWin));
    const modes = modesText(figures);
    if (modes) parts.push("by mode: " + modes);
    if (under) parts.push(under);
    return sentence(parts.join(" · "));
  }

  function sentence(text) {
    return words.sentenceCase(text) + ".";
  }

  // The index's mark of a deal: {kind, text, title}: kind "won", "tried" or "untried"; the
  // text on the row ("Won", "Best 34 of 51", "" for a deal never tried), and the longer
  // words for a tooltip and screen readers.
  function markOf(figures, pileCards) {
    if (figures && figures.wins) {
      return {
        kind: "won",
        text: "Won",
        title: "Won " + words.plural(figures.wins, "time") + " in " + words.plural(figures.attempts, "attempt"),
      };
    }
    if (figures && figures.attempts) {
      return {
        kind: "tried",
        text: "Best " + figures.bestCards + " of " + pileCards,
        title:
          "Not won yet: " + words.plural(figures.attempts, "attempt") + ", best " + figures.bestCards + " of " +
          words.plural(pileCards, "card"),
      };
    }
    return { kind: "untried", text: "", title: "" };
  }

  // A win rate as a percentage, "—" when nothing was played: "50 %", "33 %", "0 %".
  function rateText(won, played) {
    if (!played) return "—";
    return Math.round((100 * won) / played) + " %";
  }

  // "12 attempts, 2 notes and 1 mark" (the parts there are), "nothing" when there are none.
  function recordsText(records) {
    const parts = [];
    if (records.attempts) parts.push(words.plural(records.attempts, "attempt"));
    if (records.notes) parts.push(words.plural(records.notes, "note"));
    if (records.marks) parts.push(words.plural(records.marks, "mark"));
    if (!parts.length) return "nothing";
    if (parts.length === 1) return parts[0];
    return parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1];
  }

  const api = {
    of: of,
    ofDeal: ofDeal,
    kept: kept,
    winsText: winsText,
    modeText: modeText,
    modesText: modesText,
    dealText: dealText,
    markOf: markOf,
    rateText: rateText,
    recordsText: recordsText,
    MODES: MODES,
    BEST_TIMES: BEST_TIMES,
  };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).statistics = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
