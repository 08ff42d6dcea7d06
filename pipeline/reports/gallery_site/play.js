// A deal in play: wires the game (game.js) to the board, the toolbar and the keys, the
// hints, the solution player and the grade, and redraws after every change of position.
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
  const byId = dom.byId;
  const element = dom.element;
  const KING = 12; // a rank: in Dead King Golf nothing goes on it

  function create(pack, pageTitle) {
    // One rules object per deal for the whole visit: each remembers the lost positions its
    // searches found, so later hints on the same deal are quicker.
    const rulesById = new Map();
    let deal = null; // the deal open
    let play = null; // its game: a Blackhole.game.Play

    const shownBoard = board.create(
      { onFree: onFree, onCovered: onCovered, onTalon: onTalon, fallbackFocus: byId("undo") },
      pack.game
    );
    const hints = hint.create(shownBoard.markHinted);
    const player = solution.create(changed);
    const grading = grade.create(pack, traps.create(player.showTrap));
    const testing = playtest.create(pack, newAttempt); // records every attempt; the win banner
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
      } else {
        testing.show(shown);
      }
      render();
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
      if (play.status() === "won") return;
      player.stop();
      if (!play.play(pack.game.talonMove)) {
        say("The talon is empty: only the piles' free cards are left to play");
        return;
      }
      player.leave();
      changed();
    }

    function undo() {
      if (!play.canUndo() || play.status() === "won") return;
      player.stop();
      play.undo();
      changed();
    }

    function redo() {
      if (!play.canRedo() || play.status() === "won") return;
      player.stop();
      play.redo();
      changed();
    }

    // Restart is a step: Undo brings the position back.
    function restart() {
      if (!play.canRestart() || play.status() === "won") return;
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
      changed();
    }

    function askHint() {
      if (dom.isDisabled(byId("hint"))) return;
      player.stop();
      play.hinted();
      hints.ask(play.rules, play.moves);
    }

    // Every change of position: the hint on show no longer applies; draw it all again.
    function changed() {
      if (testing.movedOnAfterWin(play)) {
        // the solution player stepped back from a win: a new attempt, from the cards it shows
        const shown = play.moves;
        play = testing.again(play);
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
      say(statusMessage(position, state));
      // a game won is over: "Play again" (the banner) or "New attempt" starts the next
      dom.setDisabled(byId("undo"), !play.canUndo() || state === "won");
      dom.setDisabled(byId("redo"), !play.canRedo() || state === "won");
      dom.setDisabled(byId("restart"), !play.canRestart() || state === "won");
      dom.setDisabled(byId("hint"), state === "won");
      player.render();
      testing.render(play);
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
      action();
    }

    return {
      open: open,
      // Stop what runs on its own (the solution's auto-play, a hint searched): the deal is no
      // longer shown, and its seconds of play stop.
      stop: function () {
        player.stop();
        hints.clear();
        testing.hide();
      },
      // The win banner's "Next deal" link: "#deal=ID", or null for none.
      setNext: testing.setNext,
      store: testing.store, // the page's play records (playtest.js opens them)
    };
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).play = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
