// The grade of a deal, explained in a player's words: the tier and what it spans, what each
// player model meets, what makes the deal hard along its solution, how it plays, the traps
// (traps.js), and every column of deals.js under "All the numbers". The figures are the
// pipeline's, handed over in deals.js; the page only says them.
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
  const thresholdText = words.thresholdText;
  const attemptsText = words.attemptsText;
  const deadEndsText = words.deadEndsText;
  const winsText = words.winsText;
  const percentText = words.percentText;
  const countText = words.countText;

  function paragraph(text, className) {
    return element("p", className, text);
  }

  function create(pack, traps) {
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
      const t = pack.tiers;
      if (!t || !pack.difficulty) return "";
      const [one, many] = pack.byAttempts ? [" attempt", " attempts"] : [" dead end", " dead ends"];
      const count = (value) => thresholdText(value) + (value === 1 ? one : many);
      const between = (low, high) => "at least " + thresholdText(low) + " and fewer than " + count(high);
      const ranges = {
        easy: "fewer than " + count(t.medium),
        medium: between(t.medium, t.hard),
        hard: between(t.hard, t.expert),
        expert: thresholdText(t.expert) + many + " or more",
      };
      return ranges[tier] ? "(" + ranges[tier] + " in this pack)." : "";
    }

    // "Hard: a player who follows the tips and looks 2 moves ahead meets about 15 dead ends
    // before the win, with undo".
    function difficultyLine(deal) {
      const tier = sentenceCase(deal.tier);
      if (!pack.reference) return tier;
      const who = tier + ": " + pack.reference.words;
      if (pack.byAttempts) return who + " needs " + attemptsText(deal.difficulty, true) + " to win, without undo";
      return who + " meets " + deadEndsText(deal.difficulty, true) + " before the win, with undo";
    }

    function deadEndsMeaning() {
      return (
        "A dead end is a game that gets stuck: cards are left and none fits on the foundation. " +
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

    function slipsText(share) {
      if (share === null || share === undefined) return null;
      const off = "of the positions one move off a winning line, ";
      if (share < 0.5) return "Slips are costly: " + off + "only " + percentText(share) + " can still be won.";
      return sentenceCase(off) + percentText(share) + " can still be won.";
    }

    // The deal's facts: the ways to win, the first moves, the forced moves and decisions.
    function factsList(deal) {
      const list = element("ul", "facts");
      const add = (text) => text && list.append(element("li", null, text));
      const count = countText(deal.solution_count);
      if (count) {
        const ways = deal.solution_count === "1" ? " way" : " ways";
        add(count + ways + " to win (distinct winning orders of the 51 moves)");
      }
      if (deal.first_moves !== null && deal.winning_first_moves !== null) add(firstMovesText(deal));
      if (deal.forced_moves !== null && deal.decisions !== null) {
        add(
          "Along the solution: " + plural(deal.forced_moves, "forced move") + " (one legal move) and " +
            plural(deal.decisions, "decision") + " (more than one)"
        );
      }
      return list;
    }

    function firstMovesText(deal) {
      if (deal.first_moves === 1) return "The only first move " + (deal.winning_first_moves ? "wins" : "loses");
      return deal.winning_first_moves + " of " + deal.first_moves + " first moves win";
    }

    function unsolvableSummary(deal) {
      const parts = [tierLine(deal)];
      parts.push(
        paragraph("This deal cannot be won: the solver searched every line of play and none plays all 51 cards.")
      );
      const known = element("ul", "facts");
      if (deal.first_moves !== null) {
        known.append(element("li", null, plural(deal.first_moves, "first move") + ", none of which wins"));
      }
      known.append(element("li", null, "No player ever wins it, with undo or without"));
      parts.push(known);
      return parts;
    }

    function ungradedSummary(deal) {
      const verdicts = {
        solved: "It can be won: watch the solution below the board.",
        unsolvable: "It cannot be won.",
        unknown: "The solver did not settle whether it can be won.",
      };
      return [
        tierLine(deal),
        paragraph(
          "This deal has no grade: its game tree was not walked, so how each player fares is not known."
        ),
        paragraph(verdicts[deal.verdict] || "Verdict: " + deal.verdict + "."),
        factsList(deal),
      ];
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
