// The play-tester's side of the page: every attempt recorded (records.js) and resumed after
// a reload, the win banner, a note and a ship / reject mark per deal, and the button that
// exports the records as one JSON file (a download: no server, so it works from file://).
//
// An attempt is over when it is won, blocked in a one-attempt game, or out of time (its game
// stays on show, and what is done to it after is not recorded, until a new attempt); a relaxed
// game blocked is recorded stuck but goes on (Undo opens it again: records.js).
//
// Registers window.Blackhole.playtest: `create(pack, onAgain, onRecorded)` binds the controls
// and gives {store, begin, again, timeUp, over, begun, mode, render, movedOnAfterEnd, show,
// hide, setNext}; the store of records is its own. `onAgain()` is called by "Play again"
// (play.js starts a new attempt); `onRecorded(event, attempt)` after each event recorded.
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

  // "51 moves in 2 min 5 s, 4 undos, 1 hint" for a won attempt's record, `moves` being the
  // moves on the board (the status line's count: moves undone are not in it); "51 moves in
  // 45 s, in one attempt" for a one-attempt game (no undo, no hint: it allows none).
  function winText(attempt, moves) {
    const parts = [words.plural(moves, "move") + " in " + words.durationText(attempt.seconds)];
    if (attempt.mode === "one_attempt") return parts.concat("in one attempt").join(", ");
    parts.push(attempt.undos ? words.plural(attempt.undos, "undo") : "no undo");
    if (attempt.restarts) parts.push(words.plural(attempt.restarts, "restart"));
    parts.push(attempt.hints ? words.plural(attempt.hints, "hint") : "no hint");
    return parts.join(", ");
  }

  function modeOfRecord(attempt) {
    return { mode: attempt.mode, timed: attempt.timed, move_limit: attempt.move_limit };
  }

  function create(pack, onAgain, onRecorded) {
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
    let live = null; // the game.Play being recorded, until its attempt is over
    let won = null; // the record of the attempt won last, while its game is on show
    let over = null; // "won", "stuck" or "out_of_time" when the attempt on show is over
    let overMode = null; // the mode of the attempt over: {mode, timed, move_limit}
    let begun = false; // the attempt on show has an event
    let movedOn = false; // its game changed after the attempt was over (the solution player)

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
      const events = store.resume(shown.deal_id);
      try {
        play = new game.Play(rules, events);
        begun = events.length > 0;
      } catch {
        store.finish(shown.deal_id, "abandoned"); // a record that does not replay: closed, not lost
        play = new game.Play(rules);
        begun = false;
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
      over = null;
      movedOn = false;
      play.listen(function (event) {
        if (live !== play) {
          movedOn = true; // a game whose attempt is over: what follows is not recorded
          return;
        }
        const attempt = store.record(deal.deal_id, event, play);
        begun = true;
        if (attempt.outcome === "won") {
          won = attempt;
          end("won", attempt);
        } else if (attempt.outcome === "stuck" && attempt.mode === "one_attempt") {
          end("stuck", attempt);
        }
        if (onRecorded) onRecorded(event, attempt);
      });
    }

    function end(outcome, attempt) {
      live = null;
      over = outcome;
      overMode = modeOfRecord(attempt);
    }

    // A new attempt at the deal shown: the attempt in progress ends (stuck, or abandoned
    // when moves were left) and a fresh deal's game is given, played in `choice` when given
    // (else in the mode chosen for the next attempt).
    function again(play, choice) {
      if (live === play) store.finish(deal.deal_id, play.status());
      won = null;
      begun = false;
      store.show(deal.deal_id);
      if (choice) store.setPendingMode(deal.deal_id, choice);
      const fresh = new game.Play(play.rules);
      listen(fresh);
      return fresh;
    }

    // The move's time of `play`'s attempt ran out: it ends out of time. Its record (a copy).
    function timeUp(play) {
      if (live !== play) return null;
      const attempt = store.finish(deal.deal_id, "out_of_time");
      if (attempt) end("out_of_time", attempt);
      return attempt;
    }

    // The banner while the game won is on show, and the line of what is recorded here.
    function render(play) {
      const showing = won !== null && live === null && play.status() === "won";
      byId("win-banner").hidden = !showing;
      if (showing) byId("win-text").textContent = "Won: " + winText(won, play.moveCount) + ".";
      personal.showDeal(store.attempts(deal.deal_id), pack.game.pileCards); // the deal's personal records
    }

    // Whether `play`'s attempt is over and its game has moved on since (the solution player
    // stepped back): play.js then starts a new attempt at that position.
    function movedOnAfterEnd(play) {
      return live !== play && movedOn;
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
      movedOnAfterEnd: movedOnAfterEnd,
      timeUp: timeUp,
      // "won", "stuck" or "out_of_time" when the attempt on show is over, else null.
      over: function () {
        return over;
      },
      // Whether the attempt on show has an event (its mode can no longer be chosen).
      begun: function () {
        return begun;
      },
      // The mode of the attempt on show, {mode, timed, move_limit}: the one it was played in
      // when it is over, else the one it is (or will be) played in.
      mode: function () {
        return over ? Object.assign({}, overMode) : store.modeOf(deal.deal_id);
      },
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
        dom.showLink(byId("win-next"), href);
      },
    };
  }

  const api = { create: create, winText: winText };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).playtest = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
