// A deal's opening layout in miniature, drawn on a canvas of the index.
//
// Picture.py's rows of piles (Black Hole's 17 in rows of six, All in a Row's 13 in rows of
// five), the short last row centred, each card a white rounded rectangle with its rank and
// suit in its colour; Golf's 7 piles in rows of four, with the talon (a card's back) and the
// foundation's card where the second row is short. Sizes in CSS pixels; a pile is a card and
// a fan step a covered card wide, with the rest of its step as the gap, which is split
// between the two edges of the picture. Card edges fall on half pixels, so at a device scale
// of 1 each edge is one sharp column.
//
// A covered card shows one fan step of itself, so its rank and suit must fit in that strip:
// inside its two edges with a clear pixel either side, even a "10" on a screen of standard
// density (drawn in a smaller size, its digits closer, and squeezed to the strip if still
// too wide). Every label is drawn the same on every card, so what fits on a covered card
// is whole on the free one too.
//
// Registers window.Blackhole.thumbnail: `draw(canvas, cards, game)`, WIDTH and HEIGHT.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;
  const words = inNode ? require("./words.js") : root.Blackhole.words;

  const COLOURS = { table: "#0b6e3a", edge: "#333333", red: "#c8102e", black: "#1a1a1a", back: "#7a1f2b" };
  const THUMB = {
    width: 216, height: 100, perRow: 6, pileStep: 36, rowStep: 34,
    cardW: 15, cardH: 26, fan: 9, top: 4, left: 1.5,
  };
  // Each layout's rows (THUMB's are Black Hole's); `besideFoundation`: the short last row
  // starts at its second place, the first holding the talon and the foundation's card.
  const LAYOUTS = {
    black_hole: THUMB,
    all_in_a_row: Object.assign({}, THUMB, { perRow: 5, pileStep: 43, rowStep: 32, top: 3 }),
    golf: Object.assign({}, THUMB, { perRow: 4, pileStep: 54, top: 20, besideFoundation: true }),
  };
  // The room a label has: the fan step less the edge and a clear pixel either side.
  const ROOM = THUMB.fan - 2;
  const FONT = "bold 7.5px system-ui, sans-serif";
  const TEN_FONT = "bold 7px system-ui, sans-serif"; // two digits in the room of one
  const TEN_SPACING = "-0.6px";

  function origin(layout, numPiles, pile) {
    const row = Math.floor(pile / layout.perRow);
    const column = pile % layout.perRow;
    const inRow = Math.min(layout.perRow, numPiles - row * layout.perRow);
    const short = (layout.perRow - inRow) * layout.pileStep;
    const indent = layout.besideFoundation ? short : short / 2;
    return [layout.left + indent + column * layout.pileStep, layout.top + row * layout.rowStep];
  }

  // Draw the deal of `cards` (deals.js's text, "JDKSTH2D...") of `game` (solver.js's GAMES;
  // Black Hole's when not given) on `canvas`, sharp at the screen's pixel ratio; marks the
  // canvas data-drawn="true".
  function draw(canvas, cards, game) {
    const rules = game || Solver.GAMES.black_hole;
    const layout = LAYOUTS[rules.layout];
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(THUMB.width * ratio);
    canvas.height = Math.round(THUMB.height * ratio);
    const context = canvas.getContext("2d");
    context.scale(ratio, ratio);
    context.fillStyle = COLOURS.table;
    context.fillRect(0, 0, THUMB.width, THUMB.height);
    const parsed = Solver.parseCards(cards, rules.cards);
    context.textAlign = "center";
    context.textBaseline = "top";
    for (let pile = 0; pile < rules.numPiles; pile++) {
      const [left, top] = origin(layout, rules.numPiles, pile);
      for (let depth = 0; depth < rules.pileSize; depth++) {
        drawCard(context, parsed[pile * rules.pileSize + depth], left + depth * THUMB.fan, top);
      }
    }
    if (layout.besideFoundation) {
      const top = layout.top + Math.floor((rules.numPiles - 1) / layout.perRow) * layout.rowStep;
      drawBack(context, layout.left, top);
      drawCard(context, parsed[rules.pileCards], layout.left + 2 * THUMB.fan, top);
    }
    canvas.dataset.drawn = "true";
  }

  function cardShape(context, left, top, fill) {
    context.beginPath();
    if (context.roundRect) context.roundRect(left, top, THUMB.cardW, THUMB.cardH, 2.5);
    else context.rect(left, top, THUMB.cardW, THUMB.cardH);
    context.fillStyle = fill;
    context.fill();
    context.strokeStyle = COLOURS.edge;
    context.lineWidth = 0.6;
    context.stroke();
  }

  // The talon: a card's back.
  function drawBack(context, left, top) {
    cardShape(context, left, top, COLOURS.back);
  }

  function drawCard(context, card, left, top) {
    cardShape(context, left, top, "#fff");
    context.fillStyle = words.isRed(card) ? COLOURS.red : COLOURS.black;
    const middle = left + THUMB.fan / 2; // of the strip a covered card shows
    const rank = words.rankLabel(card);
    drawLabel(context, rank, middle, top + 2, rank.length > 1);
    drawLabel(context, words.suitSymbol(card), middle, top + 11, false);
  }

  // `text` with its ink centred at `middle` and at most ROOM wide: measured, then squeezed
  // (fillText's maxWidth scales the advance, and the ink with it) when wider. A two-digit
  // rank is drawn in TEN_FONT with its digits closer first, so it needs little squeezing.
  function drawLabel(context, text, middle, top, twoDigits) {
    context.font = twoDigits ? TEN_FONT : FONT;
    if ("letterSpacing" in context) context.letterSpacing = twoDigits ? TEN_SPACING : "0px";
    const measured = context.measureText(text);
    const ink = measured.actualBoundingBoxLeft + measured.actualBoundingBoxRight;
    const scale = ink > ROOM ? ROOM / ink : 1;
    const shift = (scale * (measured.actualBoundingBoxLeft - measured.actualBoundingBoxRight)) / 2;
    context.fillText(text, middle + shift, top, measured.width * scale);
    if ("letterSpacing" in context) context.letterSpacing = "0px";
  }

  const api = { draw: draw, WIDTH: THUMB.width, HEIGHT: THUMB.height };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).thumbnail = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
