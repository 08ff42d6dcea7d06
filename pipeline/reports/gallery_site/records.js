// Play records: every attempt at every deal, kept in the browser's local storage (it works
// from file://), with a note and a ship / reject mark per deal, and exported as one JSON
// document that `blackhole plays import` reads back (docs/schema.md, "Play records").
// No DOM: Node's unit tests load it too.
//
// An attempt is everything done on a deal from a fresh deal until it ends (won, stuck in a
// one-attempt game, out of time, or a new attempt started); its events are those of game.js
// (a pile, "undo", "redo", "restart", "hint"), and its counts are kept as the events come.
// Each attempt carries the mode it is played in: `mode` ("relaxed" or "one_attempt", which
// allows no undo, redo, restart or hint), `timed`, and `move_limit` (seconds a move, or null).
// A position with no move and cards left is recorded "stuck" at once, in every mode; in a
// relaxed game the next event (an undo) opens the attempt again.
//
// Two or more tabs of one gallery share the storage, so nothing is kept in one text that a
// tab would write over: each attempt has its own key, "blackhole-plays:<build>:attempt:<id>",
// written alone after each of its events (cheap: one attempt, not all of them); each deal's
// note and mark one key, "...:deal:<deal id>", read again before each change; the choice of
// mode for the next attempt "...:choice". A tab learns of another's writes by the browser's
// storage event and merges them, so its view and its export hold every tab's attempts. A tab
// plays only its own attempts: one it resumes (after a reload) is claimed under the tab's id
// (kept in sessionStorage, so a reload keeps it) and released when the page goes away; a tab
// that finds its attempt written by another goes on under a new id, so both are kept. The
// single text of version 1 ("blackhole-plays:<build>") is taken apart on open. Seconds are
// counted while the deal is shown and the page visible.
//
// Registers window.Blackhole.records (module.exports under Node): `open(options)` gives a
// store; `tally(rules, events, mode)` counts events as the store does; `fileName(document)`.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const game = inNode ? require("./game.js") : root.Blackhole.game;
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;

  const PREFIX = "blackhole-plays:";
  const FORMAT = "blackhole-plays";
  const VERSION = 2;
  const MARKS = [null, "ship", "reject"];
  const MODES = ["relaxed", "one_attempt"];
  const MOVE_LIMITS = [10, 30, 60];
  const ENDINGS = ["abandoned", "stuck", "out_of_time"]; // what finish() may end an attempt with
  const ACTIONS = { undo: "undos", redo: "redos", restart: "restarts", hint: "hints" };
  const RELAXED = Object.freeze({ mode: "relaxed", timed: false, move_limit: null });

  function iso(ms) {
    return new Date(ms).toISOString();
  }

  // `choice` ({mode, timed, move_limit}) checked and copied; an Error says what is wrong.
  function checkedChoice(choice) {
    const chosen = { mode: choice.mode, timed: choice.timed, move_limit: choice.move_limit === undefined ? null : choice.move_limit };
    if (!MODES.includes(chosen.mode)) throw new Error("a mode is relaxed or one_attempt, not " + chosen.mode);
    if (typeof chosen.timed !== "boolean") throw new Error("timed is true or false, not " + chosen.timed);
    if (chosen.move_limit !== null && !(chosen.timed && MOVE_LIMITS.includes(chosen.move_limit))) {
      throw new Error("a move limit is one of " + MOVE_LIMITS.join(", ") + " seconds, and only with the clock, not " + chosen.move_limit);
    }
    return chosen;
  }

  // A new attempt's record, as an export writes it.
  function blank(id, started, choice) {
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
      mode: choice.mode,
      timed: choice.timed,
      move_limit: choice.move_limit,
    };
  }

  function copy(attempt) {
    return Object.assign({}, attempt, { events: attempt.events.slice() });
  }

  // Count `event` into `attempt`, `play` (a game.Play) being the game after it; the outcome
  // becomes the position's: won, stuck (no move, cards left) or playing. The game's status.
  function count(attempt, event, play) {
    const state = play.status();
    attempt.events.push(event);
    if (typeof event === "number") attempt.moves++;
    else attempt[ACTIONS[event]]++;
    if (event !== game.HINT && state === "stuck") attempt.dead_ends++;
    attempt.cards_played = play.cardsPlayed();
    attempt.outcome = state;
    attempt.clean = state === "won" && attempt.undos + attempt.restarts + attempt.hints === 0;
    return state;
  }

  // The one line that refuses an event a one-attempt game does not allow, or null.
  function refusal(mode, event, index) {
    if (mode !== "one_attempt" || typeof event === "number") return null;
    return "event " + (index + 1) + " is " + (event === "undo" ? "an " : "a ") + event + ", which a one-attempt game does not allow";
  }

  // What a record counts of `events` played from the opening of the deal of `rules` (a
  // BlackholeSolver.Game or its cards) in `mode` (relaxed when not given): {moves, undos,
  // redos, restarts, hints, dead_ends, cards_played, clean, status, outcome}, the outcome
  // being the one the store records after the last event (won, stuck or playing). An event
  // that does not apply, or that the mode does not allow, is an Error naming it.
  function tally(rules, events, mode) {
    const play = new game.Play(rules);
    const attempt = blank("tally", 0, RELAXED);
    let state = play.status();
    events.forEach(function (event, index) {
      const refused = refusal(mode, event, index);
      if (refused) throw new Error(refused);
      if (state === "won" || !play.apply(event)) {
        throw new Error("event " + (index + 1) + " (" + event + ") does not apply");
      }
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
      outcome: attempt.outcome,
    };
  }

  // "<pack>-plays-YYYYMMDD-HHMMSS.json" for an export document (its time, in UTC).
  function fileName(exported) {
    const stamp = exported.exported.slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
    return exported.pack + "-plays-" + stamp + ".json";
  }

  // Older attempts first: by the time started; of two started in the same millisecond (a one-attempt
  // game over at once, and the next), the one that ended first (one still playing last); then by id.
  function byStart(a, b) {
    if (a.started !== b.started) return a.started < b.started ? -1 : 1;
    const aEnded = a.ended === null ? "\uffff" : a.ended;
    const bEnded = b.ended === null ? "\uffff" : b.ended;
    if (aEnded !== bEnded) return aEnded < bEnded ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  }

  // The page's window, for its storage, sessionStorage and events (none under Node).
  function browserWindow() {
    return !inNode && root.addEventListener ? root : null;
  }

  function sessionStore() {
    try {
      return browserWindow() ? root.sessionStorage : null;
    } catch {
      return null;
    }
  }

  // The play records of one gallery build. Options:
  //   build     the gallery's build id (deals.js's "build")
  //   storage   localStorage, or anything with getItem / setItem / removeItem / key / length
  //             (null: keep them in memory)
  //   session   sessionStorage (where the tab's id survives a reload; the page's by default)
  //   addEventListener  (type, handler) => ..., for "storage" (another tab wrote) and
  //             "pagehide" (this tab's attempts released); the window's by default
  //   now       () => milliseconds since 1970 (Date.now)
  //   random    () => a number in [0, 1) (Math.random), for attempt and tab ids
  //   onTrouble (text) => ..., called once when the records cannot be read or saved
  function open(options) {
    const base = PREFIX + options.build; // version 1's key
    const prefix = base + ":";
    const attemptPrefix = prefix + "attempt:";
    const dealPrefix = prefix + "deal:";
    const choiceKey = prefix + "choice";
    const storage = options.storage || null;
    const session = options.session !== undefined ? options.session : sessionStore();
    const page = browserWindow();
    const addEventListener = options.addEventListener || (page ? page.addEventListener.bind(page) : null);
    const now = options.now || Date.now;
    const random = options.random || Math.random;
    const changed = []; // onChange callbacks
    let troubled = false;

    // Every attempt known, this tab's and the others' (id -> {deal, tab, closed, attempt}),
    // and every deal's note and mark (deal id -> {note, mark}).
    const known = new Map();
    const notes = new Map();
    // This tab's attempts in progress (deal id -> entry of `known`): the tab plays these.
    const own = new Map();
    const pending = new Map(); // deal id -> {started (ms), seconds, choice}: a fresh deal shown, no event yet
    let remembered = RELAXED; // the choice for new attempts
    let shown = null; // the deal whose seconds run
    let visible = true;
    let since = now(); // when the seconds last counted
    let leaving = false; // the page is going away (pagehide): what is saved is released

    function trouble(text) {
      if (troubled) return;
      troubled = true;
      if (options.onTrouble) options.onTrouble(text);
    }

    function randomTail(length) {
      let tail = "";
      for (let i = 0; i < length; i++) tail += Math.floor(random() * 36).toString(36);
      return tail;
    }

    const tab = tabId();

    // This tab's id: kept in sessionStorage, so that a reload is the same tab.
    function tabId() {
      const key = prefix + "tab";
      try {
        const kept = session && session.getItem(key);
        if (kept) return kept;
      } catch {
        // no sessionStorage: a reload is another tab, which resumes what this one released
      }
      const made = randomTail(12);
      try {
        if (session) session.setItem(key, made);
      } catch {
        // as above
      }
      return made;
    }

    function read(key) {
      try {
        return storage.getItem(key);
      } catch {
        trouble("This browser's storage cannot be read: play records are kept until the page closes; export them.");
        return null;
      }
    }

    // Write `value` as JSON under `key`: the text written, or null when it could not be.
    function write(key, value) {
      if (!storage) return null;
      const text = JSON.stringify(value);
      try {
        storage.setItem(key, text);
        return text;
      } catch {
        trouble("This browser's storage is full or blocked: play records are kept until the page closes; export them.");
        return null;
      }
    }

    function remove(key) {
      try {
        storage.removeItem(key);
      } catch {
        // a key that stays is read again next time: nothing is lost
      }
    }

    function parsed(text) {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    }

    function unreadable() {
      trouble("The play records kept in this browser could not be read; new ones start here.");
    }

    function keysOfGallery() {
      const keys = [];
      try {
        for (let i = 0; i < storage.length; i++) {
          const key = storage.key(i);
          if (key !== null && key.startsWith(prefix)) keys.push(key);
        }
      } catch {
        trouble("This browser's storage cannot be read: play records are kept until the page closes; export them.");
      }
      return keys;
    }

    // An attempt's stored entry read into `known` (null text: it was deleted). This tab's
    // attempts in progress are its own to keep: one deleted (a reset) is written back; one
    // another tab wrote (it resumed it) is shown as that tab wrote it, and this tab's own goes
    // on under a new id at its next event (save).
    function take(key, text) {
      const id = key.slice(attemptPrefix.length);
      const mine = ownEntry(id);
      if (text === null) {
        if (mine) save(mine);
        else known.delete(id);
        return;
      }
      const entry = parsed(text);
      if (!entry || !entry.attempt || typeof entry.deal !== "string" || !Array.isArray(entry.attempt.events)) {
        unreadable();
        return;
      }
      if (mine && text === mine.text) return; // as this tab wrote it
      entry.text = text; // as storage holds it: a later write by another tab differs
      known.set(id, entry);
    }

    function takeDeal(key, text) {
      const dealId = key.slice(dealPrefix.length);
      const entry = text === null ? null : parsed(text);
      if (text === null) notes.delete(dealId);
      else if (entry && typeof entry.note === "string" && MARKS.includes(entry.mark)) notes.set(dealId, entry);
      else unreadable();
    }

    function takeChoice(text) {
      const chosen = text === null ? null : parsed(text);
      try {
        remembered = chosen ? checkedChoice(chosen) : RELAXED;
      } catch {
        remembered = RELAXED;
      }
    }

    // Any key of this gallery, as storage now holds it.
    function takeKey(key, text) {
      if (key.startsWith(attemptPrefix)) take(key, text);
      else if (key.startsWith(dealPrefix)) takeDeal(key, text);
      else if (key === choiceKey) takeChoice(text);
    }

    // This tab's attempt in progress of attempt id `id`, or null.
    function ownEntry(id) {
      for (const entry of own.values()) if (!entry.closed && entry.attempt.id === id) return entry;
      return null;
    }

    // Version 1's single text, taken apart into one key per attempt and per deal (its attempts
    // relaxed and untimed; one still playing stays to be resumed), then removed.
    function migrate() {
      const text = read(base);
      if (text === null) return;
      const stored = parsed(text);
      if (!stored || stored.version !== 1 || !stored.deals || typeof stored.deals !== "object") {
        unreadable();
        remove(base);
        return;
      }
      let kept = true;
      for (const [dealId, deal] of Object.entries(stored.deals)) {
        if ((deal.note || deal.mark) && read(dealPrefix + dealId) === null) {
          kept = write(dealPrefix + dealId, { note: deal.note || "", mark: deal.mark || null }) !== null && kept;
        }
        for (const attempt of deal.attempts || []) {
          const entry = {
            deal: dealId,
            tab: null,
            closed: attempt.outcome !== "playing",
            attempt: Object.assign({}, attempt, RELAXED),
          };
          kept = write(attemptPrefix + attempt.id, entry) !== null && kept;
        }
      }
      if (kept) remove(base);
    }

    function load() {
      if (!storage) {
        trouble("This browser keeps no play records here (its storage is off): export them before you leave.");
        return;
      }
      migrate();
      for (const key of keysOfGallery()) {
        const text = read(key);
        if (text !== null) takeKey(key, text);
      }
    }

    // Write `entry` (this tab's attempt) under its key, unless another tab wrote it since this
    // one did (it resumed it, or a duplicated tab plays it too): that tab's record stands, and
    // this one's events, when it has new ones, go on under a new id. Storage's text is only
    // compared with the one written last, not read as JSON: saving stays cheap.
    function save(entry) {
      if (!storage) return;
      const key = attemptPrefix + entry.attempt.id;
      const text = read(key);
      if (text !== null && text !== entry.text) {
        const stored = parsed(text);
        if (stored && stored.attempt && typeof stored.deal === "string") {
          stored.text = text;
          known.set(entry.attempt.id, stored);
        }
        if (entry.attempt.events.length > entry.written) fork(entry);
        return;
      }
      entry.tab = entry.closed || leaving ? null : tab;
      known.set(entry.attempt.id, entry);
      const written = write(key, { deal: entry.deal, tab: entry.tab, closed: entry.closed, attempt: entry.attempt });
      if (written !== null) {
        entry.text = written;
        entry.written = entry.attempt.events.length;
      }
    }

    // This tab's attempt `entry` goes on under a new id (another tab has its old one).
    function fork(entry) {
      if (known.get(entry.attempt.id) === entry) known.delete(entry.attempt.id);
      entry.attempt.id = newId(Date.parse(entry.attempt.started));
      entry.written = -1;
      entry.text = undefined;
      known.set(entry.attempt.id, entry);
      save(entry);
    }

    function newId(started) {
      return started.toString(36) + "-" + randomTail(8);
    }

    // The attempt in progress that this tab plays at `dealId` (its entry), or null.
    function current(dealId) {
      const entry = own.get(dealId);
      return entry && !entry.closed ? entry : null;
    }

    // The latest attempt in progress at `dealId` that no tab plays (after a reload), taken
    // as this tab's.
    function resumable(dealId) {
      let latest = null;
      for (const entry of known.values()) {
        if (entry.deal !== dealId || entry.closed || (entry.tab !== null && entry.tab !== tab)) continue;
        if (latest === null || byStart(latest.attempt, entry.attempt) < 0) latest = entry;
      }
      if (latest === null) return null;
      latest.written = latest.attempt.events.length;
      own.set(dealId, latest);
      save(latest); // claimed
      return current(dealId);
    }

    // Count the seconds since the last count into the deal shown: its attempt in progress,
    // or the one its first event will start.
    function tick() {
      const at = now();
      const entry = shown === null ? null : current(shown);
      const counting = entry ? entry.attempt : shown === null ? null : pending.get(shown);
      if (counting && visible) counting.seconds = Math.round((counting.seconds + (at - since) / 1000) * 1000) / 1000;
      since = at;
    }

    function fresh(dealId) {
      pending.set(dealId, { started: now(), seconds: 0, choice: remembered });
    }

    function end(entry, outcome) {
      if (entry.attempt.outcome !== outcome || entry.attempt.ended === null) entry.attempt.ended = iso(now());
      entry.attempt.outcome = outcome;
      entry.closed = true;
    }

    // Every deal with an attempt, a note or a mark: deal id -> {note, mark, attempts}, the
    // attempts oldest first (copies, as an export writes them).
    function merged() {
      const deals = new Map();
      function dealOf(dealId) {
        if (!deals.has(dealId)) {
          const kept = notes.get(dealId);
          deals.set(dealId, { note: kept ? kept.note : "", mark: kept ? kept.mark : null, attempts: [] });
        }
        return deals.get(dealId);
      }
      for (const dealId of notes.keys()) dealOf(dealId);
      for (const entry of known.values()) dealOf(entry.deal).attempts.push(copy(entry.attempt));
      for (const deal of deals.values()) deal.attempts.sort(byStart);
      return deals;
    }

    // Change the note or mark of `dealId` as storage now holds them (another tab's change kept).
    function changeDeal(dealId, change) {
      const key = dealPrefix + dealId;
      const text = storage ? read(key) : null;
      const stored = text === null ? null : parsed(text);
      const entry = stored && typeof stored.note === "string" ? stored : notes.get(dealId) || { note: "", mark: null };
      const changedEntry = Object.assign({}, entry, change);
      notes.set(dealId, changedEntry);
      write(key, { note: changedEntry.note, mark: changedEntry.mark });
    }

    // Another tab wrote (the browser's storage event): merged, then the page is told.
    function onStorage(event) {
      if (!storage || (event.storageArea && event.storageArea !== storage)) return;
      if (event.key === null || event.key === undefined) {
        known.clear(); // storage cleared: what is in progress here stays
        notes.clear();
        for (const entry of own.values()) {
          if (!entry.closed) {
            known.set(entry.attempt.id, entry);
            entry.written = -1;
            save(entry);
          }
        }
        load();
      } else if (event.key.startsWith(prefix)) {
        takeKey(event.key, read(event.key)); // as it is now: a later write may have come since the event's
      } else {
        return;
      }
      for (const callback of changed) callback();
    }

    // The page goes away (closed, reloaded): its attempts in progress are released, so that
    // the next page to show their deal resumes them; the page shown again (back from the
    // browser's cache) claims them again at their next event.
    function onPageHide() {
      tick();
      leaving = true;
      for (const entry of own.values()) if (!entry.closed) save(entry);
    }

    function onPageShow() {
      leaving = false;
    }

    load();
    if (addEventListener) {
      addEventListener("storage", onStorage);
      addEventListener("pagehide", onPageHide);
      addEventListener("pageshow", onPageShow);
    }

    return {
      prefix: prefix,

      // The mode for new attempts, {mode, timed, move_limit}: the last one chosen here.
      choice: function () {
        return Object.assign({}, remembered);
      },

      // Remember `choice` ({mode, timed, move_limit}) for new attempts (the deal shown keeps
      // its own: setPendingMode changes that).
      setChoice: function (choice) {
        remembered = checkedChoice(choice);
        write(choiceKey, remembered);
      },

      // The mode of this tab's attempt in progress at `dealId`, or of the one its first event
      // will start.
      modeOf: function (dealId) {
        dealId = String(dealId);
        const entry = current(dealId);
        if (entry) return { mode: entry.attempt.mode, timed: entry.attempt.timed, move_limit: entry.attempt.move_limit };
        const waiting = pending.get(dealId);
        return Object.assign({}, waiting ? waiting.choice : remembered);
      },

      // The attempt that the first event at `dealId` will start is played in `choice`; an
      // Error when an attempt there has an event already.
      setPendingMode: function (dealId, choice) {
        dealId = String(dealId);
        if (current(dealId)) throw new Error("the attempt at " + dealId + " has begun: its mode stays");
        const chosen = checkedChoice(choice);
        if (!pending.has(dealId)) fresh(dealId);
        pending.get(dealId).choice = chosen;
      },

      // `dealId` is shown: its seconds run (while the page is visible); a deal with no
      // attempt in progress starts its clock for the next one.
      show: function (dealId) {
        dealId = String(dealId);
        tick();
        shown = dealId;
        if (!current(dealId) && !resumable(dealId) && !pending.has(dealId)) fresh(dealId);
      },

      // No deal is shown (the index): the seconds stop.
      hide: function () {
        tick();
        const entry = shown === null ? null : current(shown);
        if (entry) save(entry);
        shown = null;
      },

      // The page is hidden or shown again (visibilitychange).
      setVisible: function (isVisible) {
        tick();
        visible = isVisible;
        const entry = shown === null ? null : current(shown);
        if (!isVisible && entry) save(entry);
      },

      // The events of this tab's attempt in progress at `dealId` ([] when none), to resume it.
      resume: function (dealId) {
        dealId = String(dealId);
        const entry = current(dealId) || resumable(dealId);
        return entry ? entry.attempt.events.slice() : [];
      },

      // Record `event` at `dealId`, `play` being the game after it: the first event of a
      // fresh deal starts an attempt, in the mode chosen for it. A win ends it; so does a
      // stuck position in a one-attempt game; a relaxed one stuck is recorded stuck and
      // opened again by the next event. Saved at once. The attempt's record (live).
      record: function (dealId, event, play) {
        dealId = String(dealId);
        tick();
        let entry = current(dealId);
        if (!entry) {
          const start = pending.get(dealId) || { started: now(), seconds: 0, choice: remembered };
          pending.delete(dealId);
          const attempt = blank(newId(start.started), start.started, start.choice);
          attempt.seconds = start.seconds;
          entry = { deal: String(dealId), tab: tab, closed: false, attempt: attempt, written: -1 };
          known.set(attempt.id, entry);
          own.set(dealId, entry);
        }
        const attempt = entry.attempt;
        const refused = refusal(attempt.mode, event, attempt.events.length);
        if (refused) throw new Error(refused);
        const wasStuck = attempt.outcome === "stuck";
        const state = count(attempt, event, play);
        if (state === "won") end(entry, "won");
        else if (state === "stuck") {
          if (!wasStuck) attempt.ended = iso(now());
          if (attempt.mode === "one_attempt") entry.closed = true;
        } else attempt.ended = null;
        save(entry);
        return attempt;
      },

      // End this tab's attempt in progress at `dealId` (for a new one, or the clock ran out):
      // `outcome` is "abandoned", "stuck" or "out_of_time" (an attempt with a move limit), or
      // the game's status: "stuck" when stuck, else abandoned. The ended attempt (a copy), or
      // null when there was none.
      finish: function (dealId, outcome) {
        dealId = String(dealId);
        tick();
        const entry = current(dealId);
        fresh(dealId);
        if (!entry) return null;
        // An attempt recorded stuck ends stuck, whatever ends it (New attempt, the clock): the
        // import refuses out_of_time or abandoned at a dead end.
        const ending = entry.attempt.outcome === "stuck" ? "stuck" : ENDINGS.includes(outcome) ? outcome : "abandoned";
        if (ending === "out_of_time" && entry.attempt.move_limit === null) {
          throw new Error("an attempt with no move limit does not run out of time");
        }
        end(entry, ending);
        save(entry);
        return copy(entry.attempt);
      },

      // Every attempt at `dealId`, every tab's, oldest first (copies).
      attempts: function (dealId) {
        tick();
        const deal = merged().get(String(dealId));
        return deal ? deal.attempts : [];
      },

      // Every deal with an attempt, a note or a mark, every tab's: {deal id: {note, mark,
      // attempts}} (copies, as an export writes them).
      deals: function () {
        tick();
        return Object.fromEntries(merged());
      },

      // {attempts, won}: how many attempts at `dealId` are recorded, and how many were won.
      summary: function (dealId) {
        const found = [...known.values()].filter((entry) => entry.deal === String(dealId));
        return { attempts: found.length, won: found.filter((entry) => entry.attempt.outcome === "won").length };
      },

      // `callback()` is called after another tab's change is merged in (redraw).
      onChange: function (callback) {
        changed.push(callback);
      },

      // The ids of the attempts that a reset here keeps: this tab's still open (in progress,
      // or relaxed and stuck, which Undo takes on), so the page can say what it will delete.
      openHere: function () {
        return [...own.values()].filter((entry) => !entry.closed).map((entry) => entry.attempt.id);
      },

      // Delete every record of this gallery (attempts, notes, marks), here and in every tab;
      // an attempt in progress in an open tab goes on and is kept.
      reset: function () {
        tick();
        for (const [id, entry] of [...known]) if (ownEntry(id) !== entry || entry.closed) known.delete(id);
        notes.clear();
        if (!storage) return;
        for (const key of keysOfGallery()) {
          if (key === choiceKey) continue;
          if (key.startsWith(attemptPrefix) && known.has(key.slice(attemptPrefix.length))) continue;
          remove(key);
        }
        remove(base);
      },

      note: function (dealId) {
        const kept = notes.get(String(dealId));
        return kept ? kept.note : "";
      },

      setNote: function (dealId, text) {
        changeDeal(String(dealId), { note: String(text) });
      },

      mark: function (dealId) {
        const kept = notes.get(String(dealId));
        return kept ? kept.mark : null;
      },

      // "ship", "reject" or null (no mark).
      setMark: function (dealId, mark) {
        if (!MARKS.includes(mark)) throw new Error("a mark is ship, reject or null, not " + mark);
        changeDeal(String(dealId), { mark: mark });
      },

      // The export document: every deal with an attempt, a note or a mark (every tab's), in
      // the order of `dealIds` (the pack's; ids not in it come last). `about`: {pack, title,
      // game}, the game's name written only where the game's records name it (not Black
      // Hole's, as deals.js does).
      exported: function (about, dealIds) {
        tick();
        const deals = merged();
        const order = new Map((dealIds || []).map((id, index) => [String(id), index]));
        const ids = [...deals.keys()]
          .filter((id) => deals.get(id).attempts.length || deals.get(id).note || deals.get(id).mark)
          .sort((a, b) => (order.has(a) ? order.get(a) : Infinity) - (order.has(b) ? order.get(b) : Infinity));
        const played = about.game && Solver.gameNamed(about.game).namedInRecords ? { game: about.game } : {};
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
            note: deals.get(id).note,
            mark: deals.get(id).mark,
            attempts: deals.get(id).attempts,
          })),
        };
      },
    };
  }

  const api = {
    RELAXED: RELAXED,
    open: open,
    tally: tally,
    fileName: fileName,
    PREFIX: PREFIX,
    FORMAT: FORMAT,
    VERSION: VERSION,
    MODES: MODES,
    MOVE_LIMITS: MOVE_LIMITS,
  };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).records = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
