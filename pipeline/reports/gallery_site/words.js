// The gallery's words: cards as faces and words, and every figure rounded for a person.
// No DOM: Node's unit tests load it too.
//
// Every figure a player reads is rounded for a person and said in words: "about 1 game in
// 1,600", "about 15 dead ends", "71 billion". Counts keep two significant figures (the
// figures are averages over a player model, not promises); the exact values stay under
// "All the numbers". tests/reports/gallery_words.py holds the same rules in Python.
//
// The words themselves (the scale names, the thresholds of "almost", the units, the phrases
// and what a tier spans) are pipeline/reports/words.json, the table the reports' words.py
// reads too: Node reads the file, and the gallery's build (gallery.py) writes the table into
// this script in its place, since a page opened from file:// may not fetch a file.
//
// Registers window.Blackhole.words (module.exports under Node).
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;

  // Card faces, as picture.py prints them: "10" for tens, suit symbols in HCDS order.
  const RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const RANK_WORDS = [
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
  ];
  const SUIT_SYMBOLS = ["♥", "♣", "♦", "♠"];
  const SUIT_WORDS = ["hearts", "clubs", "diamonds", "spades"];

  const WORDS = inNode ? require("../words.json") : /* words.json */ null;
  const PHRASES = WORDS.phrases;
  const SCALES = WORDS.scales; // the names of large numbers, largest first: 2,300,000 reads "2.3 million"
  const NOTHING = WORDS.nothing; // fewer dead ends than this read "almost no dead ends"
  const NEARLY_ALWAYS = WORDS.nearly_always; // a win chance from this up reads "almost every game"

  // A phrase of the table with its {names} filled in: say("1 in {count}", {count: "40"}).
  function say(phrase, values) {
    return phrase.replace(/\{(\w+)\}/g, (whole, name) => String(values[name]));
  }

  // ---------------------------------------------------------------- cards

  const rankOf = Solver.rankOf;

  function suitOf(card) {
    return card & 3;
  }

  function isRed(card) {
    return suitOf(card) === 0 || suitOf(card) === 2;
  }

  // "TH", as in board text and deals.js.
  function cardCode(card) {
    return Solver.RANKS[rankOf(card)] + Solver.SUITS[suitOf(card)];
  }

  // "10♥", as on the card.
  function cardFace(card) {
    return RANK_LABELS[rankOf(card)] + SUIT_SYMBOLS[suitOf(card)];
  }

  function rankLabel(card) {
    return RANK_LABELS[rankOf(card)];
  }

  function suitSymbol(card) {
    return SUIT_SYMBOLS[suitOf(card)];
  }

  // "ten of hearts", for screen readers.
  function cardWords(card) {
    return RANK_WORDS[rankOf(card)] + " of " + SUIT_WORDS[suitOf(card)];
  }

  // "pile 1" for the pile of index 0: players count piles from 1, while the data, the
  // events and the exports keep the rules' index from 0.
  function pileName(pile) {
    return "pile " + (pile + 1);
  }

  // ---------------------------------------------------------------- numbers

  // "1 move", "51 moves", "10,000 deals".
  function plural(count, one) {
    return groupDigits(count) + " " + (count === 1 ? one : one + "s");
  }

  function groupDigits(digits) {
    return String(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }

  function formatInteger(value) {
    return groupDigits(Math.round(value));
  }

  // Two significant figures, the precision a "1 in N" needs to be read at a glance.
  function roundTwoFigures(value) {
    const scale = Math.pow(10, Math.floor(Math.log10(value)) - 1);
    return Math.round(value / scale) * scale;
  }

  // A count of 1 or more for a person: whole below 10, else two significant figures, large
  // ones by name: "3", "12", "7,600", "2.3 million", "8.1 trillion".
  function roundedCount(value) {
    const shown = value >= 10 ? roundTwoFigures(value) : Math.round(value);
    for (const [scale, name] of SCALES) {
      if (shown >= scale) return figuresText(roundTwoFigures(shown / scale)) + " " + name;
    }
    return formatInteger(shown);
  }

  // A number rounded already, without trailing zeros or an exponent: "2.3", "270", "5,000".
  function figuresText(value) {
    return value >= 100 || Number.isInteger(value) ? formatInteger(value) : trimNumber(value);
  }

  function trimNumber(value) {
    return String(Number(value.toPrecision(2)));
  }

  // A tier threshold as written in a sentence: "3", "2,000", "1.5".
  function thresholdText(value) {
    return Number.isInteger(value) ? groupDigits(value) : String(value);
  }

  // "1 in 3,400" for a probability, short for the index; null when there is no chance to print.
  function oddsText(probability) {
    if (probability === null || probability === undefined) return null;
    if (probability <= 0) return PHRASES.never;
    const n = 1 / probability;
    return say(PHRASES.odds, { count: n < 10 ? trimNumber(n) : roundedCount(n) });
  }

  // How often one attempt without undo wins (a chance above 0): "about 1 game in 1,600",
  // "about 7 games in 10", "almost every game", "every game".
  function gamesText(probability) {
    if (probability >= 1) return "every game";
    if (probability >= NEARLY_ALWAYS) return PHRASES.almost_every_game;
    if (probability >= 0.5) return say(PHRASES.games_in_ten, { tenths: Math.round(probability * 10) });
    return say(PHRASES.one_game_in, { count: roundedCount(1 / probability) });
  }

  // "wins about 1 game in 1,600 without undo", "never wins without undo".
  function winsText(probability) {
    return probability > 0 ? "wins " + gamesText(probability) + " without undo" : "never wins without undo";
  }

  // Dead ends with undo: "15 dead ends", "1 dead end", "0.4 dead ends", "almost no dead ends";
  // "about 15 dead ends" with `about` (they are an average); null when not known.
  function deadEndsText(value, about) {
    if (value === null || value === undefined || !isFinite(value)) return null;
    if (value < NOTHING) return PHRASES.almost_no_dead_ends;
    return amountText(value, about, "dead_ends");
  }

  // Attempts without undo a win takes: "about 1,600 attempts"; null when not known.
  function attemptsText(value, about) {
    if (value === null || value === undefined || !isFinite(value)) return null;
    return amountText(value, about, "attempts");
  }

  // An amount of a figure ("dead_ends" or "attempts") with its unit, "about" it with `about`.
  function amountText(value, about, figure) {
    const [one, many] = WORDS.units[figure];
    const tenths = Number(value.toPrecision(1));
    const shown = tenths < 1 ? tenths : roundedCount(value);
    const amount = shown + " " + (shown === "1" ? one : many);
    return about ? say(PHRASES.about, { amount: amount }) : amount;
  }

  // What a tier of a pack spans in its difficulty figure ("dead_ends" or "attempts"), from its
  // thresholds {medium, hard, expert} (each the fewest of its tier): "at least 8 and fewer
  // than 20 dead ends"; null for a tier without a span (unsolvable).
  function tierSpan(tier, thresholds, figure) {
    const span = WORDS.tier_spans[tier];
    if (!span) return null;
    const [one, many] = WORDS.units[figure];
    const values = { units: many };
    for (const name of ["medium", "hard", "expert"]) {
      values[name] = thresholdText(thresholds[name]);
      values[name + "_unit"] = thresholds[name] === 1 ? one : many;
    }
    return say(span, values);
  }

  // "with undo" for dead ends, "without undo" for attempts.
  function undoText(figure) {
    return WORDS.undo[figure];
  }

  // A pack's difficulty figure: attempts (`byAttempts`) or dead ends, as above.
  function difficultyText(value, about, byAttempts) {
    return byAttempts ? attemptsText(value, about) : deadEndsText(value, about);
  }

  // Solution counts are decimal strings (they may pass 2^53): group short ones exactly, and
  // say long ones in words from their first digits and their length: "about 71 billion".
  function countText(digits) {
    if (digits === null || digits === undefined) return null;
    const text = String(digits);
    if (text.length <= 9) return groupDigits(text);
    return "about " + roundedCount(Number(text.slice(0, 3)) * Math.pow(10, text.length - 3));
  }

  // A share of a whole, as a person says it: "about 7 in 10", "about 1 in 14", "almost all",
  // "all", "none" (tenths above one in ten, like gamesText).
  function shareText(share) {
    if (share >= 1) return "all";
    if (share >= NEARLY_ALWAYS) return "almost all";
    if (share >= 0.1) return "about " + Math.round(share * 10) + " in 10";
    if (share <= 0) return "none";
    return "about 1 in " + roundedCount(1 / share);
  }

  function percentText(share) {
    const percent = share * 100;
    if (percent >= 10) return Math.round(percent) + " %";
    return trimNumber(percent) + " %";
  }

  function sentenceCase(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  // "45 s", "2 min 5 s", "1 h 3 min": a time of play, as the banners and the records say it.
  function durationText(seconds) {
    const whole = Math.round(seconds);
    if (whole < 60) return whole + " s";
    const minutes = Math.floor(whole / 60);
    if (minutes < 60) return minutes + " min " + (whole % 60) + " s";
    return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min";
  }

  const api = {
    isRed: isRed,
    cardCode: cardCode,
    cardFace: cardFace,
    rankLabel: rankLabel,
    suitSymbol: suitSymbol,
    cardWords: cardWords,
    pileName: pileName,
    durationText: durationText,
    plural: plural,
    groupDigits: groupDigits,
    roundedCount: roundedCount,
    thresholdText: thresholdText,
    oddsText: oddsText,
    winsText: winsText,
    deadEndsText: deadEndsText,
    attemptsText: attemptsText,
    difficultyText: difficultyText,
    tierSpan: tierSpan,
    undoText: undoText,
    countText: countText,
    percentText: percentText,
    shareText: shareText,
    sentenceCase: sentenceCase,
  };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).words = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
