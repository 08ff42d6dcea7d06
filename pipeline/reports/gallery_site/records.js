// Play records: every attempt at every deal, kept in the browser's local storage (it works
// from file://), with a note and a ship / reject mark per deal, and exported as one JSON
// document that `blackhole plays import` reads back (docs/schema.md, "Play records").
// No DOM: Node's unit tests load it too.
//
// An attempt is everything done on a deal from a fresh deal until it is won or a new attempt
// is started; its events are those of game.js (a pile, "undo", "redo", "restart", "hint"),
// and its counts are kept as the events come, after each of which the store is saved: one
// JSON text per gallery build, under "blackhole-plays:" + the build id, so that galleries
// never mix. Seconds are counted while the deal is shown and the page visible.
//
// Registers window.Blackhole.records (module.exports under Node): `open(options)` gives a
// store; `tally(rules, events)` counts events as the store does; `fileName(document)`.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const game = inNode ? require("./game.js") : root.Blackhole.game;

  const PREFIX = "blackhole-plays:";
  const FORMAT = "blackhole-plays";
  const VERSION = 1;
  const MARKS = [null, "ship", "reject"];
  const ACTIONS = { undo: "undos", redo: "redos", restart: "restarts", hint: "hints" };

  function iso(ms) {
    return new Date(ms).toISOString();
  }

  // A new attempt's record, as an export writes it.
  function blank(id, started) {
    return {
      id: id,
      started: iso(started),
      ended: null,
      seconds: 0,
      outcome: "playing",
      events: [],
      moves: 0,
      undos: 0,
      redos: 0,
      restarts: 0,
      hints: 0,
      dead_ends: 0,
      cards_played: 0,
      clean: false,
    };
  }

  // Count `event` into `attempt`, `play` (a game.Play) being the game after it.
  function count(attempt, event, play) {
    const state = play.status();
    attempt.events.push(event);
    if (typeof event === "number") attempt.moves++;
    else attempt[ACTIONS[event]]++;
    if (event !== game.HINT && state === "stuck") attempt.dead_ends++;
    attempt.cards_played = play.cardsPlayed();
    if (state === "won") attempt.outcome = "won";
    attempt.clean = state === "won" && attempt.undos + attempt.restarts + attempt.hints === 0;
    return state;
  }

  // What a record counts of `events` played from the opening of the deal of `rules` (a
  // BlackholeSolver.Game or its cards): {moves, undos, redos, restarts, hints, dead_ends,
  // cards_played, clean, status}. An event that does not apply is an Error naming it.
  function tally(rules, events) {
    const play = new game.Play(rules);
    const attempt = blank("tally", 0);
    let state = play.status();
    events.forEach(function (event, index) {
      if (state === "won" || !play.apply(event)) {
        throw new Error("event " + (index + 1) + " (" + event + ") does not apply");
      }
      attempt.events.pop(); // count() adds it again
      state = count(attempt, event, play);
    });
    return {
      moves: attempt.moves,
      undos: attempt.undos,
      redos: attempt.redos,
      restarts: attempt.restarts,
      hints: attempt.hints,
      dead_ends: attempt.dead_ends,
      cards_played: attempt.cards_played,
      clean: attempt.clean,
      status: state,
    };
  }

  // "<pack>-plays-YYYYMMDD-HHMMSS.json" for an export document (its time, in UTC).
  function fileName(exported) {
    const stamp = exported.exported.slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
    return exported.pack + "-plays-" + stamp + ".json";
  }

  // The play records of one gallery build. Options:
  //   build     the gallery's build id (deals.js's "build")
  //   storage   localStorage, or anything with getItem / setItem (null: keep them in memory)
  //   now       () => milliseconds since 1970 (Date.now)
  //   random    () => a number in [0, 1) (Math.random), for attempt ids
  //   onTrouble (text) => ..., called once when the records cannot be read or saved
  function open(options) {
    const key = PREFIX + options.build;
    const storage = options.storage || null;
    const now = options.now || Date.now;
    const random = options.random || Math.random;
    let troubled = false;
    const deals = load(); // deal id -> {note, mark, attempts}
    const pending = new Map(); // deal id -> {started (ms), seconds}: a fresh deal shown, no event yet
    let shown = null; // the deal whose seconds run
    let visible = true;
    let since = now(); // when the seconds last counted

    function trouble(text) {
      if (troubled) return;
      troubled = true;
      if (options.onTrouble) options.onTrouble(text);
    }

    function load() {
      if (!storage) {
        trouble("This browser keeps no play records here (its storage is off): export them before you leave.");
        return {};
      }
      let text = null;
      try {
        text = storage.getItem(key);
      } catch {
        trouble("This browser's storage cannot be read: play records are kept until the page closes; export them.");
        return {};
      }
      if (text === null) return {};
      try {
        const stored = JSON.parse(text);
        if (stored && stored.version === VERSION && stored.deals && typeof stored.deals === "object") {
          return stored.deals;
        }
      } catch {
        // an unreadable text: said below, and written over at the next save
      }
      trouble("The play records kept in this browser could not be read; new ones start here.");
      return {};
    }

    function save() {
      if (!storage) return;
      try {
        storage.setItem(key, JSON.stringify({ version: VERSION, deals: deals }));
      } catch {
        trouble("This browser's storage is full or blocked: play records are kept until the page closes; export them.");
      }
    }

    function dealOf(dealId) {
      if (!Object.prototype.hasOwnProperty.call(deals, dealId)) {
        deals[dealId] = { note: "", mark: null, attempts: [] };
      }
      return deals[dealId];
    }

    // The attempt in progress at `dealId`, or null.
    function current(dealId) {
      const found = deals[dealId];
      const last = found && found.attempts[found.attempts.length - 1];
      return last && last.outcome === "playing" ? last : null;
    }

    // Count the seconds since the last count into the deal shown: its attempt in progress,
    // or the one its first event will start.
    function tick() {
      const at = now();
      const counting = shown === null ? null : current(shown) || pending.get(shown);
      if (counting && visible) counting.seconds = Math.round((counting.seconds + (at - since) / 1000) * 1000) / 1000;
      since = at;
    }

    function fresh(dealId) {
      pending.set(dealId, { started: now(), seconds: 0 });
    }

    function newId(started) {
      let tail = "";
      for (let i = 0; i < 8; i++) tail += Math.floor(random() * 36).toString(36);
      return started.toString(36) + "-" + tail;
    }

    function end(attempt, outcome) {
      attempt.outcome = outcome;
      attempt.ended = iso(now());
    }

    return {
      key: key,

      // `dealId` is shown: its seconds run (while the page is visible); a deal with no
      // attempt in progress starts its clock for the next one.
      show: function (dealId) {
        tick();
        shown = dealId;
        if (!current(dealId)) fresh(dealId);
      },

      // No deal is shown (the index): the seconds stop.
      hide: function () {
        tick();
        shown = null;
        save();
      },

      // The page is hidden or shown again (visibilitychange).
      setVisible: function (isVisible) {
        tick();
        visible = isVisible;
        if (!isVisible) save();
      },

      // The events of the attempt in progress at `dealId` ([] when none), to resume it.
      resume: function (dealId) {
        const attempt = current(dealId);
        return attempt ? attempt.events.slice() : [];
      },

      // Record `event` at `dealId`, `play` being the game after it: the first event of a
      // fresh deal starts an attempt; the win ends it. Saved at once.
      record: function (dealId, event, play) {
        tick();
        let attempt = current(dealId);
        if (!attempt) {
          const start = pending.get(dealId) || { started: now(), seconds: 0 };
          pending.delete(dealId);
          attempt = blank(newId(start.started), start.started);
          attempt.seconds = start.seconds;
          dealOf(dealId).attempts.push(attempt);
        }
        count(attempt, event, play);
        if (attempt.outcome === "won") attempt.ended = iso(now());
        save();
        return attempt;
      },

      // End the attempt in progress at `dealId` for a new one: "stuck" when `status` (the
      // game's) is stuck, else "abandoned". The ended attempt, or null when there was none.
      finish: function (dealId, status) {
        tick();
        const attempt = current(dealId);
        fresh(dealId);
        if (!attempt) return null;
        end(attempt, status === "stuck" ? "stuck" : "abandoned");
        save();
        return attempt;
      },

      // Every attempt at `dealId`, oldest first (copies).
      attempts: function (dealId) {
        tick();
        const found = deals[dealId];
        return found ? found.attempts.map((attempt) => Object.assign({}, attempt, { events: attempt.events.slice() })) : [];
      },

      // {attempts, won}: how many attempts at `dealId` are recorded, and how many were won.
      summary: function (dealId) {
        const found = deals[dealId] ? deals[dealId].attempts : [];
        return { attempts: found.length, won: found.filter((attempt) => attempt.outcome === "won").length };
      },

      note: function (dealId) {
        return deals[dealId] ? deals[dealId].note : "";
      },

      setNote: function (dealId, text) {
        dealOf(dealId).note = String(text);
        save();
      },

      mark: function (dealId) {
        return deals[dealId] ? deals[dealId].mark : null;
      },

      // "ship", "reject" or null (no mark).
      setMark: function (dealId, mark) {
        if (!MARKS.includes(mark)) throw new Error("a mark is ship, reject or null, not " + mark);
        dealOf(dealId).mark = mark;
        save();
      },

      // The export document: every deal with an attempt, a note or a mark, in the order of
      // `dealIds` (the pack's; ids not in it come last). `about`: {pack, title, game}, the game's
      // name written only for a pack of another game than Black Hole (as deals.js does).
      exported: function (about, dealIds) {
        tick();
        const order = new Map((dealIds || []).map((id, index) => [String(id), index]));
        const ids = Object.keys(deals)
          .filter((id) => deals[id].attempts.length || deals[id].note || deals[id].mark)
          .sort((a, b) => (order.has(a) ? order.get(a) : Infinity) - (order.has(b) ? order.get(b) : Infinity));
        const played = about.game && about.game !== "black_hole" ? { game: about.game } : {};
        return {
          format: FORMAT,
          version: VERSION,
          pack: about.pack,
          ...played,
          gallery: options.build,
          title: about.title,
          exported: iso(now()),
          deals: ids.map((id) => ({
            deal_id: id,
            note: deals[id].note,
            mark: deals[id].mark,
            attempts: deals[id].attempts.map((attempt) => Object.assign({}, attempt)),
          })),
        };
      },
    };
  }

  const api = { open: open, tally: tally, fileName: fileName, PREFIX: PREFIX, FORMAT: FORMAT, VERSION: VERSION };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).records = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
