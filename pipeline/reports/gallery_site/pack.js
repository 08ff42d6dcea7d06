// The pack as deals.js hands it over (window.BLACKHOLE_GALLERY, written by
// pipeline/reports/gallery.py): its game, its deals as objects, both sort orders, the ladder
// of player models and the reference player. No DOM: Node's unit tests load it too.
//
// Registers window.Blackhole.pack (module.exports under Node): `read(data)` gives a frozen
// object; nothing in it changes after the page has loaded.
(function (root) {
  "use strict";

  const inNode = typeof module === "object" && Boolean(module.exports);
  const Solver = inNode ? require("./solver.js") : root.BlackholeSolver;

  // Each deal as an object keyed by column, with its place in the pack ("order").
  function readDeals(data) {
    return data.deals.map(function (values, order) {
      const deal = { order: order };
      data.columns.forEach(function (column, i) {
        deal[column] = values[i];
      });
      deal.solution = deal.solution || [];
      deal.searchKey = String(deal.deal_id).toLowerCase();
      return deal;
    });
  }

  function byLevel(a, b) {
    const la = a.level === null ? Infinity : a.level;
    const lb = b.level === null ? Infinity : b.level;
    return la - lb || a.order - b.order;
  }

  function byDifficulty(a, b) {
    const da = a.difficulty === null ? Infinity : a.difficulty;
    const db = b.difficulty === null ? Infinity : b.difficulty;
    return da - db || byLevel(a, b);
  }

  // The pack of `data` (deals.js's object):
  //   title, name, kind, build  as deals.js says (build: the gallery's build id)
  //   game                      the game's rules (solver.js's GAMES): deals.js's "game", which
  //                             only a pack of another game than Black Hole has
  //   deals                     every deal, in pack order; byId: a Map from deal id
  //   sorted                    {level, difficulty}: the deals in each order, computed once,
  //                             so a change of filter on 10,000 deals is one pass over an array
  //   players                   the ladder of player models, weakest first
  //   reference                 the player whose figure the tiers are cut on (null: ungraded)
  //   byAttempts                the figure is attempts without undo (else dead ends with undo)
  //   tiers, tierOrder, columns the thresholds (null: ungraded), tier names, deals.js's columns
  //   budgets                   {solve, grade, grade_memory_mib}: the positions the solver and
  //                             the grader could search a deal, and the memory (MiB) a grading
  //                             worker could hold (null: not recorded)
  function read(data) {
    const deals = readDeals(data);
    const players = data.players;
    const reference = data.difficulty
      ? players.find((player) => player.name === data.difficulty.player) || null
      : null;
    return Object.freeze({
      title: data.title,
      name: data.pack,
      kind: data.kind,
      build: data.build,
      game: Solver.gameNamed(data.game),
      deals: deals,
      byId: new Map(deals.map((deal) => [String(deal.deal_id), deal])),
      sorted: Object.freeze({
        level: deals.slice().sort(byLevel),
        difficulty: deals.slice().sort(byDifficulty),
      }),
      players: players,
      reference: reference,
      byAttempts: Boolean(data.difficulty) && data.difficulty.figure === "attempts",
      difficulty: data.difficulty,
      tiers: data.tiers,
      budgets: Object.assign({ solve: null, grade: null, grade_memory_mib: null }, data.budgets),
      tierOrder: data.tier_order,
      columns: data.columns,
    });
  }

  const api = { read: read };
  if (inNode) module.exports = api;
  else (root.Blackhole = root.Blackhole || {}).pack = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
