// The gallery's exact solver: a second implementation of the rules of Black Hole and of the
// other games of its family (All in a Row, Dead King Golf, Golf, Relaxed Golf), in plain
// JavaScript, for hints that are always right.
//
// One search serves every game, driven by the game's layout (`ruleSet`: its piles and their
// heights, how the foundation starts, its talon, which rank steps fit), as
// pipeline/engine/search.py, the Python search, argues. A position is the pile heights, the
// talon cards dealt and the foundation's rank (none while All in a Row's is empty; suits never
// matter to play); a move is a pile's number or, in Golf, the talon deal (`talonMove`, one past
// the last pile), which puts the next talon card on the foundation whatever its rank. The
// search is a depth-first search that remembers every position it searched in full without a
// win (such a position is lost for good), skips a move when a same-rank move is at least as
// good (the same-rank dominance rule below), and gives up on a position where no win can
// exist. Where the cards left must be played as one walk round the cycle of ranks (a card on
// the foundation, no talon card left, K and A neighbours: Black Hole always, All in a Row after
// its first card, Relaxed Golf once its talon is spent), that is when no such walk plays every
// card left (the Euler walk condition, which implies that every rank with cards left can be
// reached), or every such walk must play a card before one that lies above it (the rank order
// condition); `walkOrders` argues both. Elsewhere the predecessors condition
// (`predecessorShortfall`) cuts instead. Each cut is sound, so "unsolvable" is a proof. It
// stops after `budget` positions with "unknown", never with a guess.
//
// Same-rank dominance. Let a and b be free cards of the same rank in piles A and
// B, where the ranks under a, read downwards, begin the ranks under b (A may be
// shorter, down to a alone). Any line that plays a now has a twin that plays b
// now and is as long: the twin plays from B whenever the line's count of cards
// played from that pair of piles makes B's count strictly the larger, and from A
// otherwise; each card it plays is free and has the rank the line's card has. So
// a is not tried while b is free; when both piles hold the same ranks, the lower
// pile number is tried. It holds in every game as it is: whether a card fits and what it
// leaves read ranks only, and a talon deal touches no pile.
//
// The solver is built by one function, `blackholeSolver`, that uses nothing from
// outside itself, so that its source text can start a Web Worker from a Blob
// (which works from file://; worker.js does that) as well as run in the page; its
// `serve` answers the worker's messages. Loaded by index.html as a plain script
// (it defines `BlackholeSolver`), and by Node.js as a CommonJS module for tests.
(function (root) {
  "use strict";

  function blackholeSolver() {
    const NUM_PILES = 17; // Black Hole's layout, the default game's
    const PILE_SIZE = 3;
    const NUM_RANKS = 13;
    const NUM_CARDS = NUM_PILES * PILE_SIZE;
    const RANKS = "A23456789TJQK";
    const SUITS = "HCDS";
    const ACE_OF_SPADES = 3; // rank 0, suit 3
    const DEFAULT_BUDGET = 3000000; // positions per question: about 2 s in headless Chromium on a 2-core VM

    const WON = 1;
    const LOST = 2;
    const OUT = 3;

    function rankOf(card) {
      return card >> 2;
    }

    function adjacent(a, b) {
      const d = (a - b + NUM_RANKS) % NUM_RANKS;
      return d === 1 || d === NUM_RANKS - 1;
    }

    function mod(value) {
      return ((value % NUM_RANKS) + NUM_RANKS) % NUM_RANKS;
    }

    // ------------------------------------------------------------ the games

    // One game of the family, as pipeline/game/games.py's Game holds it: `numPiles` fans of
    // `pileSize` cards, a talon of `talonSize` cards, how the foundation starts ("ace_of_spades",
    // "empty" or "dealt"), whether K and A are neighbours (`wrap`) and whether nothing goes on a
    // King (`deadKing`); `tallerFirst`, whether the search tries the taller piles first (as the
    // family's Python search does) or keeps pile order (as Black Hole's does); `namedInRecords`,
    // whether what is written of the game names it (deals.js, an export of play records, the
    // pack's line: not Black Hole's, the bytes they were before the family came). Derived:
    // `pileCards`, the cards a win plays; `cards`, the cards deals.js lists (the piles, then
    // Golf's foundation card and talon); `talonMove`, the move that deals the next talon card
    // (-1: no talon); `moves`, the number of distinct moves.
    function ruleSet(name, title, layout, numPiles, pileSize, talonSize, foundation, wrap, deadKing, tallerFirst, named) {
      const dealt = foundation === "dealt" ? 1 + talonSize : 0;
      return Object.freeze({
        name: name,
        title: title,
        layout: layout,
        numPiles: numPiles,
        pileSize: pileSize,
        talonSize: talonSize,
        foundation: foundation,
        wrap: wrap,
        deadKing: deadKing,
        tallerFirst: tallerFirst,
        namedInRecords: named,
        pileCards: numPiles * pileSize,
        cards: numPiles * pileSize + dealt,
        talonMove: talonSize ? numPiles : -1,
        moves: numPiles + (talonSize ? 1 : 0),
      });
    }

    const GAMES = Object.freeze({
      black_hole: ruleSet("black_hole", "Black Hole", "black_hole", 17, 3, 0, "ace_of_spades", true, false, false, false),
      all_in_a_row: ruleSet("all_in_a_row", "All in a Row", "all_in_a_row", 13, 4, 0, "empty", true, false, true, true),
      dead_king_golf: ruleSet("dead_king_golf", "Dead King Golf", "golf", 7, 5, 16, "dealt", false, true, true, true),
      golf: ruleSet("golf", "Golf", "golf", 7, 5, 16, "dealt", false, false, true, true),
      relaxed_golf: ruleSet("relaxed_golf", "Relaxed Golf", "golf", 7, 5, 16, "dealt", true, false, true, true),
    });

    // The game called `name` (Black Hole when none is named).
    function gameNamed(name) {
      const key = name || "black_hole";
      if (!Object.prototype.hasOwnProperty.call(GAMES, key)) throw new Error("unknown game " + key);
      return GAMES[key];
    }

    // May a card of `rank` go on a foundation of rank `foundation` (-1: empty, which takes any
    // card) in `game`? One rank up or down; K and A are neighbours where the game wraps; in Dead
    // King Golf nothing goes on a King.
    function fits(game, rank, foundation) {
      if (foundation < 0) return true;
      if (game.deadKing && foundation === NUM_RANKS - 1) return false;
      if (game.wrap) return adjacent(rank, foundation);
      return rank - foundation === 1 || foundation - rank === 1;
    }

    // "JD KS TH / ..." as card names without spaces ("JDKSTH2D..."): `count` cards (Black
    // Hole's 51 by default), pile 0 first, each pile from its covered card to its free one;
    // in Golf then the foundation's card and the talon, first dealt first.
    function parseCards(text, count) {
      const total = count === undefined ? NUM_CARDS : count;
      if (text.length !== 2 * total) throw new Error("a deal is " + total + " cards");
      const cards = new Array(total);
      for (let i = 0; i < total; i++) {
        const rank = RANKS.indexOf(text[2 * i]);
        const suit = SUITS.indexOf(text[2 * i + 1]);
        if (rank < 0 || suit < 0) throw new Error("unknown card " + text.substr(2 * i, 2));
        cards[i] = rank * 4 + suit;
      }
      return cards;
    }

    // ------------------------------------------------------------ the necessary conditions

    // The Euler walk condition. A win plays the cards left as a walk round the 13-cycle
    // of ranks that starts at the foundation rank s, ends at a rank t with cards left,
    // and arrives at each rank v as many times as it has cards left, counts[v]. Let x[v]
    // count the walk's crossings of the edge between ranks v and v + 1. Each arrival at
    // v uses an edge in and (but for the last) an edge out, and the start leaves s once:
    //     x[v - 1] + x[v] = 2 * counts[v] + [v == s] - [v == t]   for every v.
    // On a cycle of odd length this has one solution, by alternating sums. A walk
    // exists only if, for some t, every x[v] is at least 0 and the edges crossed connect
    // s to every rank with cards left (which is also rank reachability: a rank cut off
    // by empty ranks has no crossed edge to it). The last card played is the last of
    // its pile, its bottom card, so t need only range over the ranks of bottom cards
    // left (`endRanks`, a bit set).
    //
    // Write D[v] = 2 * counts[v] + [v == s], A for its alternating sum and
    // P[v] = D[v] - P[v - 1]. Solving for end t gives 2 * x[v] = E[v] + sign, with the
    // odd number E[v] = 2 * P[v] - (-1)^v * A and sign = (-1)^(v + t) when v < t, and
    // -(-1)^(v + t) otherwise (`positiveEdges(t)` is the set where it is +1). So
    // E[v] <= -3 rules out every end, and only edges with E[v] = +1 or -1 depend on t:
    // they are crossed once or never. An edge with E[v] = +3 is crossed once when its
    // sign is -1.
    //
    // The rank order condition. Fix an end t that passes. If some edge is never crossed,
    // the walk lives on a line of ranks, and on a line x is odd exactly on the edges
    // between s and t. An edge crossed exactly once there is crossed on the way to t and
    // never back, so every card of a rank beyond it (seen from s) is played after every
    // card of a rank before it. Give each rank the number of such edges between s and
    // it, its level; ranks on the far side of s from t have level 0. A card above
    // another in a pile is played first, so it may not have a higher level than the
    // card under it. A win needs an end for which no pile holds such a pair.
    //
    // This is pipeline/engine/conditions.py's walk_orders, step for step. It returns -1
    // when no end in `endRanks` passes the Euler condition; 0 when one passes with no
    // order ruled out, or more than MAX_ORDERED_ENDS pass (then nothing is claimed);
    // else the number of ends that pass, each with its row of `forbid` (NUM_RANKS
    // entries an end): forbid[NUM_RANKS * k + a] is the set of ranks b such that, for
    // the k-th end, no card of rank a may lie above one of rank b.
    const MAX_ORDERED_ENDS = 4;
    const ALL_RANKS = (1 << NUM_RANKS) - 1;
    const EVEN_EDGES = 0x1555; // the edges 0, 2, ..., 12

    function positiveEdges(end) {
      const below = (1 << end) - 1;
      const same = end % 2 === 0 ? EVEN_EDGES : ALL_RANKS & ~EVEN_EDGES;
      return (below & same) | (ALL_RANKS & ~below & ~same);
    }

    // The ranks at most `up` steps above or `down` below `foundation` (up + down < 13).
    function arcRanks(foundation, up, down) {
      const span = (1 << (up + down + 1)) - 1;
      const shift = mod(foundation - down);
      return ((span << shift) | (span >> (NUM_RANKS - shift))) & ALL_RANKS;
    }

    function walkOrders(counts, foundation, endRanks, forbid) {
      let alternating = 0;
      for (let rank = 0; rank < NUM_RANKS; rank++) {
        const demand = 2 * counts[rank] + (rank === foundation ? 1 : 0);
        alternating += rank % 2 === 0 ? demand : -demand;
      }
      let needed = 0;
      let plusOne = 0;
      let minusOne = 0;
      let plusThree = 0;
      let blocked = false;
      let partial = 0; // P[v]
      for (let edge = 0; edge < NUM_RANKS; edge++) {
        const demand = 2 * counts[edge] + (edge === foundation ? 1 : 0);
        partial = demand - partial;
        const twice = 2 * partial - (edge % 2 === 0 ? alternating : -alternating); // E[v]
        if (twice <= -3) blocked = true;
        else if (twice === 1) plusOne |= 1 << edge;
        else if (twice === -1) minusOne |= 1 << edge;
        else if (twice === 3) plusThree |= 1 << edge;
        if (counts[edge] > 0) needed |= 1 << edge;
      }
      if (needed === 0) return 0;
      if (blocked) return -1;
      let found = 0;
      const ends = needed & endRanks;
      for (let end = 0; end < NUM_RANKS; end++) {
        if (!((ends >> end) & 1)) continue;
        const positive = positiveEdges(end);
        if (minusOne & ~positive) continue; // an edge crossed -1 times
        const never = (plusOne & ~positive) | (minusOne & positive);
        if (never === 0) return 0; // every edge crossed: a cycle, no order follows
        let up = NUM_RANKS; // steps up and down from the foundation to the first edge never crossed
        let down = NUM_RANKS;
        for (let edge = 0; edge < NUM_RANKS; edge++) {
          if (!((never >> edge) & 1)) continue;
          up = Math.min(up, mod(edge - foundation));
          down = Math.min(down, mod(foundation - 1 - edge));
        }
        if (needed & ~arcRanks(foundation, up, down)) continue; // the edges crossed miss a rank
        if (end === foundation || found === MAX_ORDERED_ENDS) return 0;
        const once = (plusOne & positive) | (plusThree & ~positive); // 2 * x = E + sign = 2
        let step = 1;
        let reach = up;
        let toEnd = mod(end - foundation);
        if (toEnd > up) {
          step = -1;
          reach = down;
          toEnd = mod(foundation - end);
        }
        let lower = 1 << foundation; // ranks of a lower level than the one reached
        const behind = step === 1 ? down : up;
        for (let distance = 1; distance <= behind; distance++) lower |= 1 << mod(foundation - step * distance);
        let belowLevel = 0;
        const row = NUM_RANKS * found;
        forbid.fill(0, row, row + NUM_RANKS);
        for (let distance = 1; distance <= reach; distance++) {
          const rank = mod(foundation + step * distance);
          const edge = step === 1 ? mod(rank - 1) : rank;
          if (distance <= toEnd && (once >> edge) & 1) belowLevel = lower;
          forbid[row + rank] |= belowLevel;
          lower |= 1 << rank;
        }
        if (belowLevel === 0) return 0;
        found++;
      }
      return found > 0 ? found : -1;
    }

    // The predecessors condition (pipeline/engine/conditions.py's predecessor_shortfall, step
    // for step). Every pile card played goes on the card played or dealt just before it, its
    // predecessor: a card of a neighbouring rank (K and A are neighbours where ranks wrap; in
    // Dead King Golf a King precedes nothing) that is a pile card, the foundation or a talon card
    // still to come, and no card precedes two. By Hall's theorem the pile cards of any set R of
    // ranks number at most the cards left of the ranks next to R. Only the runs R = {r, r + 2,
    // ..., r + 2k} need checking (two ranks share a neighbour only when two apart), and one pass
    // (Kadane's) finds the worst run ending at each rank. Returns the most by which some R falls
    // short: a win needs it to be 0 or less. While the foundation is empty, the first card needs
    // no predecessor, so the shortfall is one less.
    //
    // counts[r]: pile cards of rank r left; talonLeft[at + r]: talon cards of rank r still to
    // be dealt; foundation: its rank, or -1 when empty.
    const NO_SHORTFALL = -(1 << 20); // below any shortfall: no run of ranks yet

    function predecessorShortfall(game, counts, talonLeft, at, foundation) {
      const offered = (rank) => counts[rank] + talonLeft[at + rank] + (foundation === rank ? 1 : 0);
      let most = NO_SHORTFALL;
      if (game.wrap) {
        let rank = 0;
        let best = NO_SHORTFALL;
        let below = offered(NUM_RANKS - 1); // what rank - 1 offers
        for (let step = 0; step < 2 * NUM_RANKS; step++) {
          const above = offered(rank < NUM_RANKS - 1 ? rank + 1 : 0);
          best = counts[rank] - above + Math.max(best, -below);
          most = Math.max(most, best);
          rank = rank < NUM_RANKS - 2 ? rank + 2 : rank - (NUM_RANKS - 2); // rank + 1 is below rank + 2
          below = above;
        }
      } else {
        for (let first = 0; first < 2; first++) {
          let best = NO_SHORTFALL;
          let below = first === 0 ? 0 : offered(0);
          for (let rank = first; rank < NUM_RANKS; rank += 2) {
            const kingBelow = game.deadKing && rank === NUM_RANKS - 2; // a King precedes no Queen
            const above = rank < NUM_RANKS - 1 && !kingBelow ? offered(rank + 1) : 0;
            best = counts[rank] - above + Math.max(best, -below);
            most = Math.max(most, best);
            below = above;
          }
        }
      }
      return foundation >= 0 ? most : most - 1;
    }

    // ------------------------------------------------------------ the table of lost positions

    // Positions searched in full without a win: open addressing on the (lo, hi) key,
    // stored as hi + 1 so that 0 marks an empty slot; doubles when half full.
    class LostTable {
      constructor() {
        this.bits = 16;
        this.size = 0;
        this.lo = new Int32Array(1 << this.bits);
        this.hi = new Int32Array(1 << this.bits);
      }

      slot(lo, hi) {
        const mixed = Math.imul(lo ^ Math.imul(hi + 0x27d4eb2d, 0x9e3779b1), 0x85ebca6b);
        return (mixed ^ (mixed >>> 15)) >>> (32 - this.bits);
      }

      has(lo, hi) {
        const mask = (1 << this.bits) - 1;
        for (let i = this.slot(lo, hi); ; i = (i + 1) & mask) {
          const stored = this.hi[i];
          if (stored === 0) return false;
          if (stored === hi + 1 && this.lo[i] === lo) return true;
        }
      }

      add(lo, hi) {
        if (2 * (this.size + 1) > 1 << this.bits) this.grow();
        const mask = (1 << this.bits) - 1;
        let i = this.slot(lo, hi);
        while (this.hi[i] !== 0) i = (i + 1) & mask;
        this.lo[i] = lo;
        this.hi[i] = hi + 1;
        this.size++;
      }

      grow() {
        const oldLo = this.lo;
        const oldHi = this.hi;
        this.bits++;
        this.size = 0;
        this.lo = new Int32Array(1 << this.bits);
        this.hi = new Int32Array(1 << this.bits);
        for (let i = 0; i < oldHi.length; i++) {
          if (oldHi[i] !== 0) this.add(oldLo[i], oldHi[i] - 1);
        }
      }
    }

    // ------------------------------------------------------------ a layout, as the search reads it

    // The ranks that fit on each foundation, as bit sets: fitting[foundation + 1] (an empty
    // foundation, -1, takes every rank), so that the search asks `fits` once a game, not a move.
    function fittingRanks(game) {
      const fitting = new Int32Array(NUM_RANKS + 1);
      for (let foundation = -1; foundation < NUM_RANKS; foundation++) {
        for (let rank = 0; rank < NUM_RANKS; rank++) {
          if (fits(game, rank, foundation)) fitting[foundation + 1] |= 1 << rank;
        }
      }
      return fitting;
    }

    // How a position packs into the two 32-bit words the lost table keys on: each pile's height
    // in the fewest bits that hold `pileSize`, as many piles as fit in the low word (Black Hole's
    // 16 piles of 2 bits fill it, sign bit too), the others in the high word, then the talon
    // cards dealt and the foundation's rank + 1 (0: empty). `low[pile]` and `high[pile]` are
    // what one card of the pile adds to each word (one of the two is 0).
    function keyLayout(game) {
      const bits = 32 - Math.clz32(game.pileSize);
      const lowPiles = Math.min(game.numPiles, Math.floor(32 / bits));
      const low = new Int32Array(game.numPiles);
      const high = new Int32Array(game.numPiles);
      for (let pile = 0; pile < game.numPiles; pile++) {
        if (pile < lowPiles) low[pile] = 1 << (bits * pile);
        else high[pile] = 1 << (bits * (pile - lowPiles));
      }
      const dealtShift = bits * (game.numPiles - lowPiles);
      const foundationShift = dealtShift + 32 - Math.clz32(game.talonSize);
      return { low: low, high: high, dealtShift: dealtShift, foundationShift: foundationShift };
    }

    // ------------------------------------------------------------ the search

    // Does playing from pile b make playing from pile a unnecessary (same-rank dominance: b is at
    // least as tall, and the ranks under a's free card, read downwards, begin those under b's)?
    function pileDominates(b, a, ranks, heights, size) {
      const ha = heights[a];
      const hb = heights[b];
      if (ha > hb) return false;
      for (let k = 1; k <= ha; k++) {
        if (ranks[a * size + ha - k] !== ranks[b * size + hb - k]) return false;
      }
      return ha < hb || b < a;
    }

    // Whether the piles (`piles` of `size` cards, `heights` of them left) leave some end of
    // `walkOrders` (its first `ends` rows of `forbid`) free of a card above one its end forbids it
    // to lie above; `under[at]` is the bit set of the ranks under the card at `at`.
    function pilesAllowOrders(ends, forbid, under, ranks, heights, piles, size) {
      for (let end = 0; end < ends; end++) {
        const row = NUM_RANKS * end;
        let allowed = true;
        for (let pile = 0; pile < piles && allowed; pile++) {
          for (let k = heights[pile] - 1; k > 0; k--) {
            const at = pile * size + k;
            if (forbid[row + ranks[at]] & under[at]) {
              allowed = false;
              break;
            }
          }
        }
        if (allowed) return true;
      }
      return false;
    }

    // Can every pile card left be played from `position` of `deal` (a Game) within `limit`
    // positions? {verdict: "solved" | "unsolvable" | "unknown", line: the moves of a win (solved
    // only), nodes: positions searched}; talon cards may be left at a win. The search keeps the
    // position in place (heights, the key's two words, the cards left of each rank, the ranks of
    // the bottom cards left) and the line that led to it, playing a move and taking it back.
    function solveFrom(deal, position, limit) {
      const game = deal.game;
      const piles = game.numPiles;
      const size = game.pileSize;
      const talonSize = game.talonSize;
      const talonMove = game.talonMove;
      const tallerFirst = game.tallerFirst;
      const walks = game.wrap; // the cards left may have to be one walk round the cycle of ranks
      const ranks = deal.ranks;
      const under = deal.under;
      const talonRanks = deal.talonRanks;
      const talonLeft = deal.talonLeft;
      const fitting = deal.fitting;
      const lost = deal.lost;
      const lowStep = deal.key.low;
      const highStep = deal.key.high;
      const dealtShift = deal.key.dealtShift;
      const foundationShift = deal.key.foundationShift;

      const heights = Int8Array.from(position.heights);
      let lo = 0;
      let hi = 0;
      let left = 0;
      const leftOfRank = new Int8Array(NUM_RANKS);
      // How many non-empty piles have a bottom card of each rank, and the set of those ranks:
      // the last card of a win is one of them.
      const bottomsOfRank = new Int8Array(NUM_RANKS);
      let bottomRanks = 0;
      for (let pile = 0; pile < piles; pile++) {
        const h = heights[pile];
        lo = (lo + h * lowStep[pile]) | 0;
        hi += h * highStep[pile];
        left += h;
        for (let k = 0; k < h; k++) leftOfRank[ranks[pile * size + k]]++;
        if (h) {
          bottomsOfRank[ranks[pile * size]]++;
          bottomRanks |= 1 << ranks[pile * size];
        }
      }
      const forbid = new Int32Array(MAX_ORDERED_ENDS * NUM_RANKS);
      const buffers = [];
      for (let depth = 0; depth <= game.pileCards + talonSize; depth++) buffers.push(new Int8Array(piles + 1));
      const line = [];
      let nodes = 0;

      // No win from here: the walk conditions where the cards left are one walk round the
      // cycle of ranks (a card on the foundation, no talon card left, K and A neighbours), else
      // the predecessors condition.
      function hopeless(foundation, dealt) {
        if (walks && foundation >= 0 && dealt === talonSize) {
          const ends = walkOrders(leftOfRank, foundation, bottomRanks, forbid);
          return ends < 0 || (ends > 0 && !pilesAllowOrders(ends, forbid, under, ranks, heights, piles, size));
        }
        return predecessorShortfall(game, leftOfRank, talonLeft, dealt * NUM_RANKS, foundation) > 0;
      }

      // The moves worth trying on `foundation`, into `out`: the piles whose free card fits (the
      // taller first where the game says so: they are the ones a win must dig through), after
      // same-rank dominance; then the talon deal while cards are left.
      function moves(foundation, dealt, out) {
        const fit = fitting[foundation + 1];
        let count = 0;
        for (let pile = 0; pile < piles; pile++) {
          const h = heights[pile];
          if (!h || !((fit >> ranks[pile * size + h - 1]) & 1)) continue;
          let at = count++;
          if (tallerFirst) {
            while (at > 0 && heights[out[at - 1]] < h) {
              out[at] = out[at - 1];
              at--;
            }
          }
          out[at] = pile;
        }
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const a = out[i];
          let dominated = false;
          for (let j = 0; j < count && !dominated; j++) {
            if (i !== j) dominated = pileDominates(out[j], a, ranks, heights, size);
          }
          if (!dominated) out[kept++] = a;
        }
        if (dealt < talonSize) out[kept++] = talonMove;
        return kept;
      }

      // Play the free card of `pile` (`h` cards high, of `rank`), or take it back.
      function take(pile, h, rank) {
        heights[pile] = h - 1;
        lo = (lo - lowStep[pile]) | 0;
        hi -= highStep[pile];
        left--;
        leftOfRank[rank]--;
        if (h === 1 && --bottomsOfRank[rank] === 0) bottomRanks &= ~(1 << rank);
      }

      function putBack(pile, h, rank) {
        leftOfRank[rank]++;
        if (h === 1 && bottomsOfRank[rank]++ === 0) bottomRanks |= 1 << rank;
        left++;
        lo = (lo + lowStep[pile]) | 0;
        hi += highStep[pile];
        heights[pile] = h;
      }

      // Search on from the position in place (`foundation` on top, `dealt` talon cards dealt,
      // `depth` moves in): WON (the line holds the win), LOST, or OUT when the budget ran out.
      function search(foundation, dealt, depth) {
        if (left === 0) return WON;
        const key = hi | (dealt << dealtShift) | ((foundation + 1) << foundationShift);
        if (lost.has(lo, key)) return LOST;
        if (nodes >= limit) return OUT;
        nodes++;
        if (!hopeless(foundation, dealt)) {
          const options = buffers[depth];
          const count = moves(foundation, dealt, options);
          for (let i = 0; i < count; i++) {
            const move = options[i];
            line.push(move);
            let result;
            if (move === talonMove) {
              result = search(talonRanks[dealt], dealt + 1, depth + 1);
            } else {
              const h = heights[move];
              const rank = ranks[move * size + h - 1];
              take(move, h, rank);
              result = search(rank, dealt, depth + 1);
              if (result !== WON) putBack(move, h, rank);
            }
            if (result === WON) return WON;
            line.pop();
            if (result === OUT) return OUT;
          }
        }
        lost.add(lo, key);
        return LOST;
      }

      const start = position.foundation < 0 ? -1 : rankOf(position.foundation);
      const result = search(start, position.dealt || 0, 0);
      const verdict = result === WON ? "solved" : result === LOST ? "unsolvable" : "unknown";
      return { verdict: verdict, line: result === WON ? line.slice() : [], nodes: nodes };
    }

    // ------------------------------------------------------------ a deal's game

    // One deal of `game` (one of GAMES, Black Hole when not given), from its cards as deals.js
    // lists them (or their numbers), and the lost positions every search of it has found (a
    // position lost once is lost for good, so hints after the first are quicker). A position is
    // {heights, foundation: a card or -1 while empty, dealt: the talon cards dealt}; a move is a
    // pile's number, or the game's `talonMove` to deal the next talon card.
    class Game {
      constructor(cards, game) {
        this.game = game || GAMES.black_hole;
        const rules = this.game;
        if (typeof cards === "string") cards = parseCards(cards, rules.cards);
        if (cards.length !== rules.cards) throw new Error("a deal is " + rules.cards + " cards");
        this.cards = cards.slice();
        const piled = rules.pileCards;
        const size = rules.pileSize;
        this.ranks = new Int8Array(piled);
        for (let i = 0; i < piled; i++) this.ranks[i] = rankOf(cards[i]);
        // under[p * pileSize + k]: the ranks below level k of pile p, as a bit set
        this.under = new Int32Array(piled);
        for (let pile = 0; pile < rules.numPiles; pile++) {
          for (let k = 1; k < size; k++) {
            const at = pile * size + k;
            this.under[at] = this.under[at - 1] | (1 << this.ranks[at - 1]);
          }
        }
        this.foundationCard = { ace_of_spades: ACE_OF_SPADES, empty: -1, dealt: cards[piled] }[rules.foundation];
        this.talon = rules.talonSize ? cards.slice(piled + 1) : [];
        this.talonRanks = Int8Array.from(this.talon, rankOf);
        this.talonLeft = talonCounts(this.talonRanks);
        this.fitting = fittingRanks(rules);
        this.key = keyLayout(rules);
        this.lost = new LostTable();
      }

      start() {
        const game = this.game;
        return { heights: new Array(game.numPiles).fill(game.pileSize), foundation: this.foundationCard, dealt: 0 };
      }

      // The free card of `pile` in `position`, or -1 when the pile is empty (or no pile).
      topCard(position, pile) {
        const h = position.heights[pile];
        return h ? this.cards[pile * this.game.pileSize + h - 1] : -1;
      }

      // The talon card the next talon deal puts on the foundation, or -1 when none is left.
      talonCard(position) {
        const dealt = position.dealt || 0;
        return dealt < this.game.talonSize ? this.talon[dealt] : -1;
      }

      // Is `move` legal in `position`: a free card that fits on the foundation, or the talon
      // deal while a talon card is left?
      isLegal(position, move) {
        if (move === this.game.talonMove) return this.talonCard(position) >= 0;
        const card = this.topCard(position, move);
        const foundation = position.foundation < 0 ? -1 : rankOf(position.foundation);
        return card >= 0 && fits(this.game, rankOf(card), foundation);
      }

      // The piles whose free card fits, in pile order, then the talon deal while cards are left.
      legalMoves(position) {
        const moves = [];
        for (let pile = 0; pile < this.game.numPiles; pile++) {
          if (this.isLegal(position, pile)) moves.push(pile);
        }
        if (this.talonCard(position) >= 0) moves.push(this.game.talonMove);
        return moves;
      }

      play(position, move) {
        if (!this.isLegal(position, move)) throw new Error("illegal move: " + move);
        const dealt = position.dealt || 0;
        if (move === this.game.talonMove) {
          return { heights: position.heights.slice(), foundation: this.talonCard(position), dealt: dealt + 1 };
        }
        const heights = position.heights.slice();
        heights[move]--;
        return { heights: heights, foundation: this.topCard(position, move), dealt: dealt };
      }

      // The position after `moves` from the start.
      after(moves) {
        let position = this.start();
        for (const move of moves) position = this.play(position, move);
        return position;
      }

      // Can every pile card left be played from `position`? See solveFrom.
      solve(position, budget) {
        return solveFrom(this, position, budget === undefined ? DEFAULT_BUDGET : budget);
      }

      // What to do after `moves` from the start: {kind: "win", move, line} when a win
      // exists; {kind: "lost", undo} with the fewest moves to take back to reach a
      // position that can still be won (undo is null when not even the start can);
      // {kind: "unknown"} when the budget ran out first. `nodes` is the positions searched.
      hint(moves, budget) {
        const limit = budget === undefined ? DEFAULT_BUDGET : budget;
        let nodes = 0;
        for (let undo = 0; undo <= moves.length; undo++) {
          const found = this.solve(this.after(moves.slice(0, moves.length - undo)), limit - nodes);
          nodes += found.nodes;
          if (found.verdict === "unknown") return { kind: "unknown", nodes: nodes };
          if (found.verdict === "solved") {
            if (undo === 0) return { kind: "win", move: found.line[0], line: found.line, nodes: nodes };
            return { kind: "lost", undo: undo, nodes: nodes };
          }
        }
        return { kind: "lost", undo: null, nodes: nodes };
      }

      // The traps along `solution`: every position of it with more than one legal move
      // and a move after which no win exists, as {step, legal, losing} (step counts the
      // moves played before it; losing lists the moves that lose).
      // Null when the budget ran out.
      traps(solution, budget) {
        const found = [];
        let position = this.start();
        for (let step = 0; step < solution.length; step++) {
          const legal = this.legalMoves(position);
          if (legal.length > 1) {
            const losing = [];
            for (const move of legal) {
              const verdict = this.solve(this.play(position, move), budget).verdict;
              if (verdict === "unknown") return null;
              if (verdict === "unsolvable") losing.push(move);
            }
            if (losing.length) found.push({ step: step, legal: legal, losing: losing });
          }
          position = this.play(position, solution[step]);
        }
        return found;
      }
    }

    // talonLeft[d * NUM_RANKS + r]: the talon cards of rank r among those from the d-th on.
    function talonCounts(talonRanks) {
      const size = talonRanks.length;
      const left = new Int8Array((size + 1) * NUM_RANKS);
      for (let dealt = size - 1; dealt >= 0; dealt--) {
        for (let rank = 0; rank < NUM_RANKS; rank++) left[dealt * NUM_RANKS + rank] = left[(dealt + 1) * NUM_RANKS + rank];
        left[dealt * NUM_RANKS + talonRanks[dealt]]++;
      }
      return left;
    }

    // The rules of a deal of the game called `name` (Black Hole when none is named), from its
    // cards as deals.js lists them (or their numbers).
    function rulesFor(cards, name) {
      return new Game(cards, gameNamed(name));
    }

    // ------------------------------------------------------------ in a worker

    // Answer a worker's messages: {id, op: "hint", cards, game, moves} or {id, op: "traps",
    // cards, game, solution} (cards as parseCards reads them, or its numbers; game the game's
    // name, Black Hole when absent) get {id, answer} back, from one game per deal (the last few
    // deals asked about), so the lost positions found stay known while the worker lives. With
    // `hold` set (a test's hook for a slow search) a question waits, unanswered, until a
    // {op: "release"} message.
    function serve(scope) {
      const games = new Map(); // by the game's name and the deal's cards, as text
      let held = [];

      function gameOf(cards, name) {
        const key = (name || "") + ":" + String(cards);
        if (!games.has(key)) {
          if (games.size >= 4) games.delete(games.keys().next().value);
          games.set(key, rulesFor(cards, name));
        }
        return games.get(key);
      }

      function answer(question) {
        const game = gameOf(question.cards, question.game);
        const found =
          question.op === "traps" ? game.traps(question.solution) : game.hint(question.moves);
        scope.postMessage({ id: question.id, answer: found });
      }

      scope.onmessage = function (event) {
        const question = event.data;
        if (question.op === "release") {
          const waiting = held;
          held = [];
          waiting.forEach(answer);
        } else if (question.hold) {
          held.push(question);
        } else {
          answer(question);
        }
      };
    }

    return {
      Game: Game,
      GAMES: GAMES,
      gameNamed: gameNamed,
      rulesFor: rulesFor,
      fits: fits,
      predecessorShortfall: predecessorShortfall,
      parseCards: parseCards,
      rankOf: rankOf,
      adjacent: adjacent,
      walkOrders: walkOrders,
      serve: serve,
      NUM_PILES: NUM_PILES,
      PILE_SIZE: PILE_SIZE,
      MAX_ORDERED_ENDS: MAX_ORDERED_ENDS,
      RANKS: RANKS,
      SUITS: SUITS,
      ACE_OF_SPADES: ACE_OF_SPADES,
      DEFAULT_BUDGET: DEFAULT_BUDGET,
    };
  }

  const api = blackholeSolver();
  // A worker's whole script: this solver, answering its messages.
  api.workerSource = '"use strict";\n(' + blackholeSolver.toString() + ")().serve(self);\n";
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.BlackholeSolver = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
