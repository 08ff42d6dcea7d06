// The play-tester's side of the page: every attempt recorded (records.js) and resumed after
// a reload, the win banner, a note and a ship / reject mark per deal, and the button that
// exports the records as one JSON file (a download: no server, so it works from file://).
//
// Registers window.Blackhole.playtest: `create(pack, onAgain)` binds the controls and gives
// {begin, again, render, movedOnAfterWin, show, hide, setNext}; the store of records is its own. `onAgain()` is
// called by "Play again" (play.js starts a new attempt).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const game = inNode ? require("./game.js") : root.Blackhole.game;
  const records = inNode ? require("./records.js") : root.Blackhole.records;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const personal = inNode ? require("./personal.js") : root.Blackhole.personal;
  const byId = dom.byId;

  // localStorage, or null where the browser refuses it (reading it can throw).
  function localStore() {
    try {
      return root.localStorage || null;
    } catch {
      return null;
    }
  }

  // "45 s", "2 min 5 s", "1 h 3 min".
  function durationText(seconds) {
    const whole = Math.round(seconds);
    if (whole < 60) return whole + " s";
    const minutes = Math.floor(whole / 60);
    if (minutes < 60) return minutes + " min " + (whole % 60) + " s";
    return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min";
  }

  // "73 moves in 2 min 5 s, 4 undos, 1 hint" for a won attempt's record.
  function winText(attempt) {
    const parts = [words.plural(attempt.moves, "move") + " in " + durationText(attempt.seconds)];
    parts.push(attempt.undos ? words.plural(attempt.undos, "undo") : "no undo");
    if (attempt.restarts) parts.push(words.plural(attempt.restarts, "restart"));
    parts.push(attempt.hints ? words.plural(attempt.hints, "hint") : "no hint");
    return parts.join(", ");
  }

  function create(pack, onAgain) {
    const store = records.open({
      build: pack.build,
      storage: localStore(),
      onTrouble: function (text) {
        const notice = byId("records-notice");
        notice.textContent = text;
        notice.hidden = false;
      },
    });
    const dealIds = pack.deals.map((deal) => String(deal.deal_id));
    let deal = null; // the deal shown
    let live = null; // the game.Play being recorded, until it is won
    let won = null; // the record of the attempt won last, while its game is on show

    document.querySelectorAll(".export-plays").forEach(function (button) {
      button.addEventListener("click", exportRecords); // in the header, and beside the note
    });
    byId("play-again").addEventListener("click", function () {
      onAgain();
    });
    byId("deal-note").addEventListener("input", function (event) {
      if (deal) store.setNote(deal.deal_id, event.target.value);
    });
    document.querySelectorAll("input[name='deal-mark']").forEach(function (input) {
      input.addEventListener("change", function () {
        if (deal && input.checked) store.setMark(deal.deal_id, input.value || null);
      });
    });
    document.addEventListener("visibilitychange", function () {
      store.setVisible(document.visibilityState === "visible");
    });
    root.addEventListener("pagehide", function () {
      store.setVisible(false);
    });

    // The game of `shown` whose rules are `rules`: its attempt in progress resumed from its
    // events (after a reload, Back / Forward or another deal), or a fresh deal; its events
    // are recorded from now on.
    function begin(shown, rules) {
      deal = shown;
      won = null;
      store.show(shown.deal_id);
      let play;
      try {
        play = new game.Play(rules, store.resume(shown.deal_id));
      } catch {
        store.finish(shown.deal_id, "abandoned"); // a record that does not replay: closed, not lost
        play = new game.Play(rules);
      }
      listen(play);
      showNotes(shown.deal_id);
      return play;
    }

    // The deal's note and mark as the records hold them (a reset or another tab may have
    // changed them while the deal was not shown).
    function showNotes(dealId) {
      byId("deal-note").value = store.note(dealId);
      const mark = store.mark(dealId) || "";
      document.querySelectorAll("input[name='deal-mark']").forEach(function (input) {
        input.checked = input.value === mark;
      });
    }

    function listen(play) {
      live = play;
      play.listen(function (event) {
        if (live !== play) return; // a game whose attempt was won: what follows is not recorded
        const attempt = store.record(deal.deal_id, event, play);
        if (attempt.outcome === "won") {
          live = null;
          won = attempt;
        }
      });
    }

    // A new attempt at the deal shown: the attempt in progress ends (stuck, or abandoned
    // when moves were left) and a fresh deal's game is given.
    function again(play) {
      if (live === play) store.finish(deal.deal_id, play.status());
      won = null;
      store.show(deal.deal_id);
      const fresh = new game.Play(play.rules);
      listen(fresh);
      return fresh;
    }

    // The banner while the game won is on show, and the line of what is recorded here.
    function render(play) {
      const showing = won !== null && live === null && play.status() === "won";
      byId("win-banner").hidden = !showing;
      if (showing) byId("win-text").textContent = "Won: " + winText(won) + ".";
      personal.showDeal(store.attempts(deal.deal_id), pack.game.pileCards); // the deal's personal records
    }

    // Whether `play`'s attempt was won and its game has moved on since (the solution player
    // stepped back): play.js then starts a new attempt at that position.
    function movedOnAfterWin(play) {
      return live !== play && play.status() !== "won";
    }

    function exportRecords() {
      const exported = store.exported({ pack: pack.name, title: pack.title, game: pack.game.name }, dealIds);
      const blob = new Blob([JSON.stringify(exported) + "\n"], { type: "application/json" });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = records.fileName(exported);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(function () {
        URL.revokeObjectURL(link.href);
      }, 0);
    }

    return {
      store: store, // the page's play records: the index's marks and the statistics view read them too
      begin: begin,
      again: again,
      render: render,
      movedOnAfterWin: movedOnAfterWin,
      // The deal of the game on show is shown again (back from the index): its seconds run.
      show: function (shown) {
        deal = shown;
        store.show(shown.deal_id);
        showNotes(shown.deal_id);
      },
      // No deal is shown (the index): its seconds stop.
      hide: function () {
        deal = null;
        store.hide();
      },
      // The banner's "Next deal" link: its address ("#deal=ID"), or null for none.
      setNext: function (href) {
        const next = byId("win-next");
        next.hidden = !href;
        if (href) next.setAttribute("href", href);
      },
    };
  }

  const api = { create: create, durationText: durationText, winText: winText };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).playtest = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
