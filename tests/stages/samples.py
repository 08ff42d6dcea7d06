"""Deals whose grading is known: shared by the grade and calibration tests."""

# The sample pack: (seed, index) of each row. The budgets keep wide margins
# (measured on the engine): the exact rows' trees are counted within 34,000
# positions, a tenth of BUDGET; the out-of-budget rows' need 2.5 million or
# more, six times it.
ROWS = [(1, 98), (1, 97), (1, 101), (1, 99), (1, 100), (653, 0)]
OUT_OF_BUDGET_ROWS, UNSOLVABLE_ROW, UNKNOWN_ROW, EXACT_ROWS = (0, 2), 1, 3, (4, 5)
STATUSES = ["out_of_budget", "exact", "out_of_budget", "unknown", "exact", "exact"]
# deal 97 of seed 1 is lost at once (no first move); row 3's verdict is planted
BUDGET = 400_000
CHEAP = [(1, 19), (1, 52), (1, 71), (1, 100), (1, 143), (4, 7), (4, 119), (4, 139)]  # fmt: skip
CHEAP_BUDGET = 4_000_000  # each CHEAP tree is counted within 180,000 positions
