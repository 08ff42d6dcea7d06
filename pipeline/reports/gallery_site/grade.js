// The grade of a deal, explained in a player's words: the tier and what it spans, what each
// player model meets, what makes the deal hard along its solution, how it plays, the traps
// (traps.js), and every column of deals.js under "All the numbers". The figures are the
// pipeline's, handed over in deals.js; the page only says them, and where it splits a whole
// (the solution's moves, the cards that can be played first) the parts it says add up to
// the whole it says. A deal with no grade says why, from its grade status and the budgets
// the pack was made with.
//
// Registers window.Blackhole.grade: `create(pack, traps)` gives {render}; `pack` is
// Blackhole.pack's, `traps` a Blackhole.traps section maker.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const words = inNode ? require("./words.js") : root.Blackhole.words;
  const dom = inNode ? require("./dom.js") : root.Blackhole.dom;
  const element = dom.element;
  const tierBadge = dom.tierBadge;
  const plural = words.plural;
  const sentenceCase = words.sentenceCase;
  const attemptsText = words.attemptsText;
  const deadEndsText = words.deadEndsText;
  const winsText = words.winsText;
  const shareText = words.shareText;
  const countText = words.countText;
  const roundedCount = words.roundedCount;
  const groupDigits = words.groupDigits;

  function paragraph(text, className) {
    return element("p", className, text);
  }

  function create(pack, traps) {
    // Golf's moves may deal from the talon rather than play a card: its words say moves made.
    const talon = pack.game.talonSize > 0;
    const cards = pack.game.pileCards; // a win plays them all
    const move = talon ? { one: "move", many: "moves", verb: "made" } : { one: "card", many: "cards", verb: "played" };
    const figure = pack.byAttempts ? "attempts" : "dead_ends"; // what the difficulty counts, as words.json names it

    // Fill the grade panel for `deal`; its traps are searched with `rules` (the deal's
    // BlackholeSolver.Game) once the board is drawn.
    function render(deal, rules) {
      traps.cancel();
      const parts = [element("h3", null, "The grade, explained")];
      parts.push(...gradeSummary(deal));
      if (deal.solution.length) parts.push(traps.section(deal));
      parts.push(numbersTable(deal));
      dom.byId("grade").replaceChildren(...parts);
      if (deal.solution.length) traps.find(deal, rules);
    }

    // The grade in a player's words: the reference player's figure as the heading, then each
    // player of the ladder, what makes the deal hard along the solution, and how it plays.
    // Never a formula or a column's name: those are under "All the numbers".
    function gradeSummary(deal) {
      if (deal.tier === "unsolvable" || deal.verdict === "unsolvable") return unsolvableSummary(deal);
      if (deal.difficulty === null || deal.tier === "ungraded") return ungradedSummary(deal);
      const parts = [tierLine(deal), element("h4", "difficulty-line", difficultyLine(deal))];
      parts.push(paragraph(deadEndsMeaning(), "dead-ends-meaning"));
      const players = playersList(deal);
      if (players) parts.push(paragraph("Player by player, the weakest first:"), players);
      const reasons = reasonsList(deal);
      if (reasons) parts.push(element("h4", null, "What makes it this hard"), reasons);
      parts.push(element("h4", null, "How the deal plays"));
      parts.push(factsList(deal));
      return parts;
    }

    function tierLine(deal) {
      const line = element("p", "tier-line");
      line.append("Tier ", tierBadge(deal.tier), " " + tierRange(deal.tier));
      return line;
    }

    // What a tier spans, from the pack's thresholds (each the fewest of its tier): "(at least 8
    // and fewer than 20 dead ends in this pack)."
    function tierRange(tier) {
      if (!pack.tiers || !pack.difficulty) return "";
      const span = words.tierSpan(tier, pack.tiers, figure);
      return span ? "(" + span + " in this pack)." : "";
    }

    // "Hard: a player who follows the tips and looks 2 moves ahead meets about 15 dead ends
    // before the win, with undo".
    function difficultyLine(deal) {
      const tier = sentenceCase(deal.tier);
      if (!pack.reference) return tier;
      const who = tier + ": " + pack.reference.words;
      const undo = words.undoText(figure);
      if (pack.byAttempts) return who + " needs " + attemptsText(deal.difficulty, true) + " to win, " + undo;
      return who + " meets " + deadEndsText(deal.difficulty, true) + " before the win, " + undo;
    }

    function deadEndsMeaning() {
      const stuck = talon
        ? "cards are left in the piles, none fits on the foundation and the talon is empty. "
        : "cards are left and none fits on the foundation. ";
      return (
        "A dead end is a game that gets stuck: " + stuck +
        "With undo, the player then takes moves back to the last position from which a win was " +
        "still possible (as the hint does) and chooses again, until the win."
      );
    }

    // One line a player model, the weakest first: "A player who follows the usual tips wins about
    // 1 game in 1,600 without undo; with undo, expect about 15 dead ends before the win."
    function playersList(deal) {
      const list = element("ul", "players");
      for (const player of pack.players) {
        const chance = deal[player.win_column];
        if (chance === null || chance === undefined) continue;
        const deadEnds = deadEndsText(deal[player.dead_ends_column], true);
        const withUndo = deadEnds ? "; with undo, expect " + deadEnds + " before the win" : "";
        const item = element("li", null, sentenceCase(player.words) + " " + winsText(chance) + withUndo + ".");
        item.dataset.player = player.name;
        if (player === pack.reference) {
          item.classList.add("reference");
          item.append(" ", element("span", "term-detail", "The tiers are cut on this player."));
        }
        list.append(item);
      }
      return list.childElementCount ? list : null;
    }

    // What makes the deal hard along its solution: the traps, the first of them, the cost of a slip.
    function reasonsList(deal) {
      const list = element("ul", "reasons");
      const add = (text) => text && list.append(element("li", null, text));
      if (deal.traps !== null && deal.traps !== undefined) add(trapsText(deal.traps));
      add(firstTrapText(deal));
      add(slipsText(deal.winnable_share));
      return list.childElementCount ? list : null;
    }

    function trapsText(traps) {
      if (traps === 0) return "The solution passes no trap: no single move along it loses the deal.";
      const where = traps === 1 ? "a position" : "positions";
      return "The solution passes " + plural(traps, "trap") + ": " + where + " where one of the moves you can play loses the deal.";
    }

    function firstTrapText(deal) {
      const first = deal.first_trap;
      if (first === null || first === undefined || !deal.traps) return null;
      if (first === 0) {
        return "The first trap comes at the very first move: one of the opening moves loses the deal.";
      }
      return (
        "The first trap comes after " + plural(first, "move") +
        ": until then, no move you can play along the solution loses the deal."
      );
    }

    // How forgiving a slip is: the share of the positions a move can lead to, from a position
    // that can still be won, that can still be won themselves (winnable_share).
    function slipsText(share) {
      if (share === null || share === undefined) return null;
      const where = "of the positions a move can lead to while the deal can still be won, ";
      if (share < 0.5) return "Slips are costly: " + where + "only " + shareText(share) + " can still be won.";
      return "Most slips can be mended: " + where + shareText(share) + " can still be won.";
    }

    // The deal's facts: the ways to win, the first moves, the solution's moves. Where a whole
    // is split, the parts are said with the whole and add up to it.
    function factsList(deal) {
      const list = element("ul", "facts");
      const add = (text) => text && list.append(element("li", null, text));
      add(waysText(deal.solution_count));
      if (deal.first_moves !== null && deal.winning_first_moves !== null) {
        add(firstMovesText(deal.first_moves, deal.winning_first_moves));
      }
      if (deal.forced_moves !== null && deal.decisions !== null) add(solutionMovesText(deal));
      return list;
    }

    // "About 12 billion ways to win: orders of the 51 moves that play every card." In Golf,
    // whose lines differ in length (talon deals), "lines of play that clear the seven piles".
    function waysText(count) {
      const shown = countText(count);
      if (!shown) return null;
      const only = talon
        ? "the only line of play that clears the " + pack.game.numPiles + " piles"
        : "the only order of the " + cards + " moves that plays every card";
      if (count === "1") return "One way to win: the solution is " + only + ".";
      const ways = shown === "1" ? " way" : " ways";
      const orders = talon
        ? "lines of play that clear the " + pack.game.numPiles + " piles"
        : "orders of the " + cards + " moves that play every card";
      return sentenceCase(shown) + ways + " to win: " + orders + ".";
    }

    // "Of the 4 cards you can play first, 1 still leaves a way to win and 3 lose the deal."
    // (In Golf, "moves you can make", the talon deal among them.)
    function firstMovesText(first, winning) {
      const losing = first - winning;
      const can = " " + move.many + " you can " + (talon ? "make" : "play") + " first";
      if (first === 1) return "Only one " + move.one + " can be " + move.verb + " first" + (winning ? "." : ", and it loses the deal.");
      if (losing === 0) return "Any of the " + first + can + " still leaves a way to win.";
      if (winning === 0) return "None of the " + first + can + " leaves a way to win.";
      const leave = winning === 1 ? " still leaves" : " still leave";
      const lose = losing === 1 ? " loses" : " lose";
      return (
        "Of the " + first + can + ", " + winning + leave + " a way to win and " +
        losing + lose + " the deal."
      );
    }

    // "Of the solution's 51 moves, 16 are forced (only one card can be played) and 35 are
    // choices (more than one can)." The whole is the sum of its parts.
    function solutionMovesText(deal) {
      const forced = deal.forced_moves;
      const choices = deal.decisions;
      const are = (n) => (n === 1 ? " is " : " are ");
      return (
        "Of the solution's " + plural(forced + choices, "move") + ", " + forced + are(forced) +
        "forced (only one " + move.one + " can be " + move.verb + ") and " + choices + are(choices) +
        (choices === 1 ? "a choice" : "choices") + " (more than one can)."
      );
    }

    function unsolvableSummary(deal) {
      const parts = [tierLine(deal)];
      const none = talon ? "clears the " + pack.game.numPiles + " piles" : "plays all " + cards + " cards";
      parts.push(
        paragraph("This deal cannot be won: the solver searched every line of play and none " + none + ".")
      );
      const known = element("ul", "facts");
      if (deal.first_moves !== null) known.append(element("li", null, firstMovesText(deal.first_moves, 0)));
      known.append(element("li", null, "No player ever wins it, with undo or without."));
      parts.push(known);
      return parts;
    }

    function ungradedSummary(deal) {
      const parts = [tierLine(deal), paragraph(ungradedText(deal), "ungraded-reason")];
      const facts = factsList(deal);
      if (facts.childElementCount) parts.push(facts);
      return parts;
    }

    // Why the deal has no grade, from its verdict and grade status and the budgets the pack
    // was made with: the solver's or the grader's budget ran out, a count too large to keep
    // exactly, a win left out of the run's sample, or a pack never graded. The grader's
    // budget is its memory, and its positions beside (a pack graded before memory budgets:
    // its positions alone).
    function ungradedText(deal) {
      const budget = (value) => (value ? " of " + roundedCount(value) + " positions" : "");
      const memory = pack.budgets.grade_memory_mib;
      const gradeBudget = memory
        ? " of " + groupDigits(memory) + " MiB of memory" +
          (pack.budgets.grade ? " (or " + roundedCount(pack.budgets.grade) + " positions)" : "")
        : budget(pack.budgets.grade);
      if (deal.verdict === "unknown") {
        return (
          "Nobody knows yet whether this deal can be won: the solver ran out of its budget" +
          budget(pack.budgets.solve) + " before it found a win or proved there is none."
        );
      }
      if (deal.verdict !== "solved") return "This deal has no grade: the pack was never solved.";
      const solved = "This deal can be won (watch the solution below the board), but it has no grade: ";
      const unknown = ", so what each player meets is not known.";
      const reasons = {
        out_of_budget:
          "the grader ran out of its budget" + gradeBudget +
          " before it could count every line of play" + unknown,
        overflow: "it has more ways to win than the grader can count exactly" + unknown,
        not_sampled: "this run graded only a sample of its wins, and this deal was not among them.",
      };
      return solved + (reasons[deal.grade_status] || "the pack was never graded.");
    }

    function numbersTable(deal) {
      const details = element("details");
      details.id = "grade-numbers";
      details.append(element("summary", null, "All the numbers"));
      const table = element("table", "numbers");
      const body = element("tbody");
      for (const column of pack.columns) {
        const row = element("tr");
        row.append(element("th", null, column), element("td", null, numberText(deal[column])));
        body.append(row);
      }
      table.append(body);
      details.append(table);
      return details;
    }

    return { render: render };
  }

  function numberText(value) {
    if (value === null || value === undefined) return "—";
    if (Array.isArray(value)) return value.length ? value.join(" ") : "—";
    return String(value);
  }

  const api = { create: create };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).grade = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
