// A deal's opening layout in miniature, drawn on a canvas of the index.
//
// Picture.py's rows of six piles, the short last row centred, each card a white rounded
// rectangle with its rank in its colour. Sizes in CSS pixels; a pile is a card and two fan
// steps wide, with the rest of its step as the gap, which is split between the two edges
// of the picture.
//
// Registers window.Blackhole.thumbnail: `draw(canvas, cards)`, WIDTH and HEIGHT.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;
  const words = inNode ? require("./words.js") : root.Blackhole.words;

  const COLOURS = { table: "#0b6e3a", edge: "#333333", red: "#c8102e", black: "#1a1a1a" };
  const THUMB = {
    width: 216, height: 100, perRow: 6, pileStep: 36, rowStep: 34,
    cardW: 19, cardH: 26, fan: 7, top: 4, left: 1.5,
  };

  function origin(pile) {
    const row = Math.floor(pile / THUMB.perRow);
    const column = pile % THUMB.perRow;
    const inRow = Math.min(THUMB.perRow, Solver.NUM_PILES - row * THUMB.perRow);
    const indent = ((THUMB.perRow - inRow) * THUMB.pileStep) / 2;
    return [THUMB.left + indent + column * THUMB.pileStep, THUMB.top + row * THUMB.rowStep];
  }

  // Draw the deal of `cards` (deals.js's text, "JDKSTH2D...") on `canvas`, sharp at the
  // screen's pixel ratio; marks the canvas data-drawn="true".
  function draw(canvas, cards) {
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(THUMB.width * ratio);
    canvas.height = Math.round(THUMB.height * ratio);
    const context = canvas.getContext("2d");
    context.scale(ratio, ratio);
    context.fillStyle = COLOURS.table;
    context.fillRect(0, 0, THUMB.width, THUMB.height);
    const parsed = Solver.parseCards(cards);
    context.font = "bold 8px system-ui, sans-serif";
    context.textAlign = "center";
    context.textBaseline = "top";
    for (let pile = 0; pile < Solver.NUM_PILES; pile++) {
      const [left, top] = origin(pile);
      for (let depth = 0; depth < Solver.PILE_SIZE; depth++) {
        drawCard(context, parsed[pile * Solver.PILE_SIZE + depth], left + depth * THUMB.fan, top);
      }
    }
    canvas.dataset.drawn = "true";
  }

  function drawCard(context, card, left, top) {
    context.beginPath();
    if (context.roundRect) context.roundRect(left, top, THUMB.cardW, THUMB.cardH, 2.5);
    else context.rect(left, top, THUMB.cardW, THUMB.cardH);
    context.fillStyle = "#fff";
    context.fill();
    context.strokeStyle = COLOURS.edge;
    context.lineWidth = 0.6;
    context.stroke();
    context.fillStyle = words.isRed(card) ? COLOURS.red : COLOURS.black;
    // "10" is squeezed to the width of one fan step, so every rank stays readable.
    context.fillText(words.rankLabel(card), left + THUMB.fan / 2 + 0.5, top + 2, THUMB.fan + 1);
    context.fillText(words.suitSymbol(card), left + THUMB.fan / 2 + 0.5, top + 11, THUMB.fan + 1);
  }

  const api = { draw: draw, WIDTH: THUMB.width, HEIGHT: THUMB.height };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).thumbnail = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
