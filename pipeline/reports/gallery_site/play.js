// A deal in play: wires the game (game.js) to the board, the toolbar and the keys, the
// hints, the solution player and the grade, the mode and the clock (modes.js) and the end of
// an attempt (ending.js), and redraws after every change of position.
//
// A one-attempt game offers no Undo, Redo, Restart or Hint (nor their keys), and hides the
// solution player and the grade (its traps are hints) until the attempt is over.
//
// Registers window.Blackhole.play: `create(pack, pageTitle)` builds the board and binds the
// controls, and gives {open, stop}. The deal open and its game are its own; each part it
// wires keeps its own state (hint.js, solution.js, traps.js).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const game = inNode ? require("./game.js") : root.Blackhole.game;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const board = inNode ? require("./board.js") : root.Blackhole.board;
  const hint = inNode ? require("./hint.js") : root.Blackhole.hint;
  const solution = inNode ? require("./solution.js") : root.Blackhole.solution;
  const traps = inNode ? require("./traps.js") : root.Blackhole.traps;
  const grade = inNode ? require("./grade.js") : root.Blackhole.grade;
  const playtest = inNode ? require("./playtest.js") : root.Blackhole.playtest;
  const modes = inNode ? require("./modes.js") : root.Blackhole.modes;
  const ending = inNode ? require("./ending.js") : root.Blackhole.ending;
  const records = inNode ? require("./records.js") : root.Blackhole.records;
  const byId = dom.byId;
  const element = dom.element;
  const KING = 12; // a rank: in Dead King Golf nothing goes on it
  // A game begun from the solution player after an attempt ended is relaxed, untimed:
  // watching it is hints.
  const WATCHED = records.RELAXED;

  function create(pack, pageTitle) {
    // One rules object per deal for the whole visit: each remembers the lost positions its
    // searches found, so later hints on the same deal are quicker.
    const rulesById = new Map();
    let deal = null; // the deal open
    let play = null; // its game: a Blackhole.game.Play

    // where focus goes when the card played was the last free one: Undo, or where a
    // one-attempt game has none, New attempt
    const fallbackFocus = {
      focus: function () {
        byId(byId("undo").hidden ? "new-attempt" : "undo").focus();
      },
    };
    const shownBoard = board.create(
      { onFree: onFree, onCovered: onCovered, onTalon: onTalon, fallbackFocus: fallbackFocus },
      pack.game
    );
    const hints = hint.create(shownBoard.markHinted);
    const player = solution.create(changed);
    const grading = grade.create(pack, traps.create(player.showTrap));
    const testing = playtest.create(pack, newAttempt, onRecorded); // records every attempt; the win banner
    const chooser = modes.create(testing.store, { onChoose: onChoose, onTimeUp: onTimeUp });
    const banner = ending.create({ onNewAttempt: newAttempt, onUndo: undoToWinnable });
    byId("undo").addEventListener("click", undo);
    byId("redo").addEventListener("click", redo);
    byId("restart").addEventListener("click", restart);
    byId("new-attempt").addEventListener("click", newAttempt);
    byId("hint").addEventListener("click", askHint);
    document.addEventListener("keydown", onPageKey);

    function rulesOf(shown) {
      if (!rulesById.has(shown.deal_id)) rulesById.set(shown.deal_id, Solver.rulesFor(shown.cards, pack.game.name));
      return rulesById.get(shown.deal_id);
    }

    // Show `shown` in play: a deal opened afresh resumes its attempt in progress (recorded,
    // so a reload or Back / Forward keeps it) or starts from its opening position; the deal
    // already open keeps its game.
    function open(shown) {
      if (deal !== shown) {
        deal = shown;
        play = testing.begin(shown, rulesOf(shown));
        player.open(shown, play);
        hints.clear();
        renderTitle(shown);
        grading.render(shown, play.rules);
        chooser.start(shown.deal_id, testing.mode(), resumedSeconds(shown), testing.begun());
      } else {
        testing.show(shown);
      }
      chooser.setShown(true);
      render();
    }

    // The seconds recorded of the attempt resumed at `shown` (0 for a fresh deal): the last
    // attempt there not ended, as the store resumed it.
    function resumedSeconds(shown) {
      if (!testing.begun()) return 0;
      const going = testing.store.attempts(shown.deal_id).filter((attempt) => attempt.ended === null || attempt.outcome === "stuck");
      return going.length ? going[going.length - 1].seconds : 0;
    }

    function renderTitle(shown) {
      const title = byId("deal-title");
      const parts = [element("span", "deal-id", shown.deal_id)];
      if (shown.level !== null) parts.unshift(element("span", "deal-level", "Level " + shown.level + ":"));
      parts.push(dom.tierBadge(shown.tier));
      title.replaceChildren(...parts);
      document.title = shown.deal_id + " · " + pageTitle;
    }

    // ------------------------------------------------------------ actions

    function onFree(pile) {
      if (refusedAfterEnd()) return;
      player.stop(); // manual play takes over from the solution player
      const position = play.position();
      const card = play.rules.topCard(position, pile);
      if (card < 0) return;
      if (!play.play(pile)) {
        say(refusal(card, position.foundation));
        return;
      }
      player.leave();
      changed();
    }

    // Why a free card does not fit on the foundation: "7♥ is not one rank from the
    // foundation's Q♣", and where the game's ends of the ranks are the reason, that too.
    function refusal(card, foundation) {
      const game = pack.game;
      if (game.deadKing && Solver.rankOf(foundation) === KING) {
        return "Nothing goes on a King in " + game.title;
      }
      const said = words.cardFace(card) + " is not one rank from the foundation's " + words.cardFace(foundation);
      const ends = Solver.adjacent(Solver.rankOf(card), Solver.rankOf(foundation));
      return ends && !game.wrap ? said + " (K and A are not neighbours in " + game.title + ")" : said;
    }

    function onCovered(pile, depth) {
      player.stop();
      const covered = play.rules.cards[pile * pack.game.pileSize + depth];
      say(words.cardFace(covered) + " is covered: only the last card of a pile can be played");
    }

    // Golf's talon: deal its next card onto the foundation (a won game is over: nothing to deal).
    function onTalon() {
      if (play.status() === "won" || refusedAfterEnd()) return;
      player.stop();
      if (!play.play(pack.game.talonMove)) {
        say("The talon is empty: only the piles' free cards are left to play");
        return;
      }
      player.leave();
      changed();
    }

    // Whether Undo, Redo, Restart and Hint are offered: in a relaxed game not yet over.
    function stepsAllowed() {
      return testing.mode().mode === "relaxed" && !testing.over();
    }

    // A card or the talon after the attempt ended out of time or blocked: refused, said.
    function refusedAfterEnd() {
      const over = testing.over();
      if (over !== "out_of_time" && over !== "stuck") return false;
      say(over === "out_of_time" ? "The time for a move ran out: New attempt deals again" : "This attempt is over: New attempt deals again");
      return true;
    }

    function undo() {
      if (!stepsAllowed() || !play.canUndo() || play.status() === "won") return;
      player.stop();
      play.undo();
      changed();
    }

    function redo() {
      if (!stepsAllowed() || !play.canRedo() || play.status() === "won") return;
      player.stop();
      play.redo();
      changed();
    }

    // Restart is a step: Undo brings the position back.
    function restart() {
      if (!stepsAllowed() || !play.canRestart() || play.status() === "won") return;
      player.stop();
      play.restart();
      player.leave();
      changed();
    }

    // End the attempt (stuck, or abandoned while moves were left) and deal afresh; "Play
    // again" after a win too.
    function newAttempt() {
      player.stop();
      play = testing.again(play);
      player.open(deal, play);
      chooser.start(deal.deal_id, testing.mode(), 0, false);
      changed();
    }

    // The end banner's "Undo to the last winnable position": `count` moves back, as the
    // hint's search found (the player was told where a win is: a hint, then the undos).
    function undoToWinnable(count) {
      if (!stepsAllowed()) return;
      player.stop();
      play.hinted();
      for (let undone = 0; undone < count; undone++) play.undo();
      changed();
    }

    // The mode chosen for the attempt on show (before its first move): redraw the toolbar.
    function onChoose() {
      render();
    }

    // Each event recorded: the clock shows the record's seconds, and a new move's time.
    function onRecorded(event, attempt) {
      chooser.recorded(event, attempt);
      if (testing.over()) chooser.end(attempt);
    }

    // The move's time ran out: the attempt ends out of time.
    function onTimeUp() {
      player.stop();
      hints.clear();
      const attempt = testing.timeUp(play);
      chooser.end(attempt);
      render();
    }

    function askHint() {
      if (!stepsAllowed() || dom.isDisabled(byId("hint"))) return;
      player.stop();
      play.hinted();
      hints.ask(play.rules, play.moves);
    }

    // Every change of position: the hint on show no longer applies; draw it all again.
    function changed() {
      if (testing.movedOnAfterEnd(play)) {
        // the solution player stepped on from an attempt over: a new attempt, relaxed (it
        // follows the solution), from the cards it shows
        const shown = play.moves;
        play = testing.again(play, WATCHED);
        chooser.start(deal.deal_id, testing.mode(), 0, false);
        play.follow(shown, shown.length);
        player.open(deal, play);
      }
      hints.clear();
      render();
    }

    function say(text) {
      byId("message").textContent = text;
    }

    // ------------------------------------------------------------ drawing

    function render() {
      const position = play.position();
      const state = game.statusOf(play.rules, position);
      const marks = player.marks();
      const shownHint = hints.shown();
      marks.hinted = shownHint && shownHint.kind === "win" ? shownHint.move : null;
      shownBoard.render(play.rules.cards, position, marks);
      byId("play").dataset.state = state;
      byId("move-count").textContent = String(play.moveCount);
      const mode = testing.mode();
      const over = testing.over();
      say(statusMessage(position, state) || modeMessage(mode));
      // a game over is over: "Play again" (the banner) or "New attempt" starts the next
      const relaxed = mode.mode === "relaxed";
      ["undo", "redo", "restart", "hint"].forEach((id) => (byId(id).hidden = !relaxed));
      dom.setDisabled(byId("undo"), !play.canUndo() || over !== null);
      dom.setDisabled(byId("redo"), !play.canRedo() || over !== null);
      dom.setDisabled(byId("restart"), !play.canRestart() || over !== null);
      dom.setDisabled(byId("hint"), over !== null);
      // the solution and the grade's traps are hints: out of reach while a one-attempt game
      // goes on (the solution player keeps its room, so nothing moves when it comes back)
      const spoilers = relaxed || over !== null;
      const watch = byId("solution-player");
      watch.classList.toggle("held", !spoilers);
      watch.inert = !spoilers;
      byId("grade").hidden = !spoilers;
      if (!spoilers) player.stop();
      chooser.setBlocked(state === "stuck");
      chooser.render(mode, !testing.begun());
      banner.render(endView(state, over, mode));
      player.render();
      testing.render(play);
    }

    // What the end banner says, or null: a block (relaxed or over), or the clock run out.
    function endView(state, over, mode) {
      const ended = over === "out_of_time" ? "out_of_time" : state === "stuck" ? "stuck" : null;
      if (ended === null) return null;
      return {
        ending: ended,
        relaxed: mode.mode === "relaxed" && over === null,
        cardsPlayed: play.cardsPlayed(),
        pileCards: pack.game.pileCards,
        limit: mode.move_limit,
        rules: play.rules,
        moves: play.moves,
      };
    }

    // Before the first move: what the mode chosen means ("" for a relaxed game, no clock).
    function modeMessage(mode) {
      if (testing.begun() || testing.over()) return "";
      const parts = [];
      if (mode.mode === "one_attempt") parts.push("One attempt: no undo and no hint; the solution and the grade come back when it ends.");
      if (mode.move_limit !== null) parts.push("Your first move starts the clock's " + mode.move_limit + " s a move.");
      return parts.join(" ");
    }

    function statusMessage(position, state) {
      if (state === "won") return "won in " + words.plural(play.moveCount, "move");
      if (state === "stuck") {
        const left = words.plural(game.cardsLeft(position), "card") + " left";
        if (!pack.game.talonSize) return "no free card is one rank from the foundation, " + left;
        if (pack.game.deadKing && Solver.rankOf(position.foundation) === KING) {
          return "nothing goes on the King and the talon is empty, " + left;
        }
        return "no free card is one rank from the foundation and the talon is empty, " + left;
      }
      return "";
    }

    // u / r and Ctrl+Z / Ctrl+Y (or Ctrl+Shift+Z) undo and redo; h asks for a hint; d deals
    // from the talon (Golf).
    function onPageKey(event) {
      if (byId("play").hidden || event.altKey || event.metaKey) return;
      if (event.target.closest && event.target.closest("input, select, textarea")) return;
      const key = event.key.toLowerCase();
      let action = null;
      if (event.ctrlKey) {
        if (key === "z") action = event.shiftKey ? redo : undo;
        else if (key === "y") action = redo;
      } else if (!event.shiftKey) {
        action = { u: undo, r: redo, h: askHint }[key] || null;
        if (key === "d" && pack.game.talonSize) action = onTalon;
      }
      if (!action) return;
      event.preventDefault();
      if (action !== onTalon && !stepsAllowed()) return; // a one-attempt game has no such keys
      action();
    }

    return {
      open: open,
      // Stop what runs on its own (the solution's auto-play, a hint searched): the deal is no
      // longer shown, and its seconds of play stop.
      stop: function () {
        player.stop();
        hints.clear();
        chooser.setShown(false);
        testing.hide();
      },
      // The banners' "Next deal" link: "#deal=ID", or null for none.
      setNext: function (href) {
        testing.setNext(href);
        banner.setNext(href);
      },
      store: testing.store, // the page's play records (playtest.js opens them)
    };
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).play = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
