// The gallery's exact solver: a second implementation of the rules of Black Hole,
// in plain JavaScript, for hints that are always right.
//
// A position is the 17 pile heights and the rank on the foundation (suits never
// matter to play). The search is a depth-first search that remembers every
// position it searched in full without a win (such a position is lost for good),
// skips a move when a same-rank move is at least as good (the same-rank
// dominance rule below), and gives up on a position where no win can exist: a
// rank with cards left that the foundation cannot reach, or no walk round the
// ranks that plays every card left (the Euler walk condition, in `walkable`).
// Each cut is sound, so "unsolvable" is a proof. It stops after `budget`
// positions with "unknown", never with a guess, so a hint can never hang the page.
//
// Same-rank dominance. Let a and b be free cards of the same rank in piles A and
// B, where the ranks under a, read downwards, begin the ranks under b (A may be
// shorter, down to a alone). Any line that plays a now has a twin that plays b
// now and is as long: the twin plays from B whenever the line's count of cards
// played from that pair of piles makes B's count strictly the larger, and from A
// otherwise; each card it plays is free and has the rank the line's card has. So
// a is not tried while b is free; when both piles hold the same ranks, the lower
// pile number is tried.
//
// Loaded by index.html as a plain script (it defines `BlackholeSolver`), and by
// Node.js as a CommonJS module for quick checks.
(function (root) {
  "use strict";

  const NUM_PILES = 17;
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

  // "JD KS TH / ..." as card names without spaces ("JDKSTH2D..."): 51 cards, pile 0
  // first, each pile from its covered card to its free one.
  function parseCards(text) {
    if (text.length !== 2 * NUM_CARDS) throw new Error("a deal is 51 cards");
    const cards = new Array(NUM_CARDS);
    for (let i = 0; i < NUM_CARDS; i++) {
      const rank = RANKS.indexOf(text[2 * i]);
      const suit = SUITS.indexOf(text[2 * i + 1]);
      if (rank < 0 || suit < 0) throw new Error("unknown card " + text.substr(2 * i, 2));
      cards[i] = rank * 4 + suit;
    }
    return cards;
  }

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

  // One deal's game: its ranks, and the lost positions every search of it has found
  // (a position lost once is lost for good, so hints after the first are quicker).
  class Game {
    constructor(cards) {
      if (typeof cards === "string") cards = parseCards(cards);
      this.cards = cards.slice();
      this.ranks = new Int8Array(NUM_CARDS);
      for (let i = 0; i < NUM_CARDS; i++) this.ranks[i] = rankOf(cards[i]);
      this.lost = new LostTable();
    }

    start() {
      return { heights: new Array(NUM_PILES).fill(PILE_SIZE), foundation: ACE_OF_SPADES };
    }

    // The free card of `pile` in `position`, or -1 when the pile is empty.
    topCard(position, pile) {
      const h = position.heights[pile];
      return h ? this.cards[pile * PILE_SIZE + h - 1] : -1;
    }

    legalMoves(position) {
      const moves = [];
      const foundation = rankOf(position.foundation);
      for (let pile = 0; pile < NUM_PILES; pile++) {
        const card = this.topCard(position, pile);
        if (card >= 0 && adjacent(rankOf(card), foundation)) moves.push(pile);
      }
      return moves;
    }

    play(position, pile) {
      const card = this.topCard(position, pile);
      if (card < 0 || !adjacent(rankOf(card), rankOf(position.foundation))) {
        throw new Error("illegal move: pile " + pile);
      }
      const heights = position.heights.slice();
      heights[pile]--;
      return { heights: heights, foundation: card };
    }

    after(moves) {
      let position = this.start();
      for (const pile of moves) position = this.play(position, pile);
      return position;
    }

    // Can every card left be played from `position`? {verdict: "solved" | "unsolvable"
    // | "unknown", line: the moves of a win (solved only), nodes: positions searched}.
    solve(position, budget) {
      const limit = budget === undefined ? DEFAULT_BUDGET : budget;
      const ranks = this.ranks;
      const lost = this.lost;
      const heights = Int8Array.from(position.heights);
      let lo = 0;
      for (let pile = 0; pile < 16; pile++) lo |= heights[pile] << (2 * pile);
      let hi = heights[16];
      let left = 0;
      for (let pile = 0; pile < NUM_PILES; pile++) left += heights[pile];
      const line = [];
      let nodes = 0;
      const left_of_rank = new Int8Array(NUM_RANKS);
      for (let pile = 0; pile < NUM_PILES; pile++) {
        for (let k = 0; k < heights[pile]; k++) left_of_rank[ranks[pile * PILE_SIZE + k]]++;
      }

      // How many non-empty piles have a bottom card of each rank: the last card of a win is one.
      const bottoms_of_rank = new Int8Array(NUM_RANKS);
      for (let pile = 0; pile < NUM_PILES; pile++) {
        if (heights[pile]) bottoms_of_rank[ranks[pile * PILE_SIZE]]++;
      }
      const twice_edges = new Int32Array(NUM_RANKS);

      // The Euler walk condition. A win plays the cards left as a walk around the circle of
      // ranks from `foundation`, a step up or down at a time, that stops at each rank as many
      // times as it has cards left and ends on a bottom card. Let x[r] count the walk's steps
      // between ranks r and r + 1: the steps at rank r number x[r - 1] + x[r] = 2 * left[r],
      // plus one at the start rank, less one at the end rank. On a circle of odd length these
      // equations have one solution, 2 * x[r] = the alternating sum of the right-hand sides
      // from rank r + 1 round to rank r. A win needs an end rank (the rank of a bottom card
      // left) for which every x[r] is at least 0 and the steps used form one arc of the circle
      // (or all of it). Euler's theorem says no more: it is necessary, not sufficient.
      function walkable(foundation) {
        let first = 0; // 2 * x[0] for the walk that ends nowhere: the alternating sum from rank 1
        for (let k = 1; k <= NUM_RANKS; k++) {
          const r = k % NUM_RANKS;
          const steps = 2 * left_of_rank[r] + (r === foundation ? 1 : 0);
          first += k & 1 ? steps : -steps;
        }
        twice_edges[0] = first;
        for (let r = NUM_RANKS - 1; r > 0; r--) {
          const next = (r + 1) % NUM_RANKS;
          const steps = 2 * left_of_rank[next] + (next === foundation ? 1 : 0);
          twice_edges[r] = 2 * steps - twice_edges[next];
        }
        for (let end = 0; end < NUM_RANKS; end++) {
          if (!bottoms_of_rank[end]) continue;
          let arcs = 0;
          let fits = true;
          for (let r = 0; r < NUM_RANKS && fits; r++) {
            // ending at `end` takes one step away from rank `end`: x[r] changes by -1/2 or +1/2
            const k = (end - r + NUM_RANKS) % NUM_RANKS;
            const twice = twice_edges[r] - (k === 0 || k & 1 ? 1 : -1);
            if (twice < 0) fits = false;
            const nextK = (end - r - 1 + 2 * NUM_RANKS) % NUM_RANKS;
            const nextTwice = twice_edges[(r + 1) % NUM_RANKS] - (nextK === 0 || nextK & 1 ? 1 : -1);
            if (twice > 0 && nextTwice === 0) arcs++;
          }
          if (fits && arcs <= 1) return true;
        }
        return false;
      }

      // Every play moves the foundation one rank up or down the circle, so every rank
      // with cards left must be reachable from `foundation` through ranks with cards left.
      function reachable(foundation) {
        let covered = 0;
        let up = foundation;
        for (let i = 1; i < NUM_RANKS; i++) {
          up = (up + 1) % NUM_RANKS;
          if (!left_of_rank[up]) break;
          covered += left_of_rank[up];
        }
        let down = foundation;
        for (let i = 1; i < NUM_RANKS && down !== up; i++) {
          down = (down + NUM_RANKS - 1) % NUM_RANKS;
          if (!left_of_rank[down] || down === up) break;
          covered += left_of_rank[down];
        }
        return covered + left_of_rank[foundation] === left;
      }

      // Piles worth playing on `foundation`, after same-rank dominance, into `out`.
      function moves(foundation, out) {
        let count = 0;
        for (let pile = 0; pile < NUM_PILES; pile++) {
          const h = heights[pile];
          if (h && adjacent(ranks[pile * PILE_SIZE + h - 1], foundation)) out[count++] = pile;
        }
        let kept = 0;
        for (let i = 0; i < count; i++) {
          const a = out[i];
          let dominated = false;
          for (let j = 0; j < count && !dominated; j++) {
            if (i !== j) dominated = dominates(out[j], a);
          }
          if (!dominated) out[kept++] = a;
        }
        return kept;
      }

      // Does playing from pile b make playing from pile a unnecessary?
      function dominates(b, a) {
        const ha = heights[a];
        const hb = heights[b];
        if (ha > hb) return false;
        for (let k = 1; k <= ha; k++) {
          if (ranks[a * PILE_SIZE + ha - k] !== ranks[b * PILE_SIZE + hb - k]) return false;
        }
        return ha < hb || b < a;
      }

      const buffers = [];
      for (let depth = 0; depth <= NUM_CARDS; depth++) buffers.push(new Int8Array(NUM_PILES));

      function search(foundation, depth) {
        if (left === 0) return WON;
        if (lost.has(lo, hi | (foundation << 2))) return LOST;
        if (nodes >= limit) return OUT;
        nodes++;
        if (!reachable(foundation) || !walkable(foundation)) {
          lost.add(lo, hi | (foundation << 2));
          return LOST;
        }
        const options = buffers[depth];
        const count = moves(foundation, options);
        for (let i = 0; i < count; i++) {
          const pile = options[i];
          const h = heights[pile];
          const rank = ranks[pile * PILE_SIZE + h - 1];
          heights[pile] = h - 1;
          if (pile < 16) lo = (lo - (1 << (2 * pile))) | 0;
          else hi -= 1;
          left--;
          left_of_rank[rank]--;
          if (h === 1) bottoms_of_rank[rank]--;
          line.push(pile);
          const result = search(rank, depth + 1);
          if (result === WON) return WON;
          line.pop();
          left_of_rank[rank]++;
          if (h === 1) bottoms_of_rank[rank]++;
          left++;
          if (pile < 16) lo = (lo + (1 << (2 * pile))) | 0;
          else hi += 1;
          heights[pile] = h;
          if (result === OUT) return OUT;
        }
        lost.add(lo, hi | (foundation << 2));
        return LOST;
      }

      const result = search(rankOf(position.foundation), 0);
      const verdict = result === WON ? "solved" : result === LOST ? "unsolvable" : "unknown";
      return { verdict: verdict, line: result === WON ? line.slice() : [], nodes: nodes };
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
    // moves played before it; losing lists the piles whose move loses).
    // Null when the budget ran out.
    traps(solution, budget) {
      const found = [];
      let position = this.start();
      for (let step = 0; step < solution.length; step++) {
        const legal = this.legalMoves(position);
        if (legal.length > 1) {
          const losing = [];
          for (const pile of legal) {
            const verdict = this.solve(this.play(position, pile), budget).verdict;
            if (verdict === "unknown") return null;
            if (verdict === "unsolvable") losing.push(pile);
          }
          if (losing.length) found.push({ step: step, legal: legal, losing: losing });
        }
        position = this.play(position, solution[step]);
      }
      return found;
    }
  }

  const api = {
    Game: Game,
    parseCards: parseCards,
    rankOf: rankOf,
    adjacent: adjacent,
    NUM_PILES: NUM_PILES,
    PILE_SIZE: PILE_SIZE,
    RANKS: RANKS,
    SUITS: SUITS,
    ACE_OF_SPADES: ACE_OF_SPADES,
    DEFAULT_BUDGET: DEFAULT_BUDGET,
  };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.BlackholeSolver = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
