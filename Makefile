# The verbs a newcomer needs. Everything runs inside .venv.
PYTHON := .venv/bin/python
STAMP := .venv/.installed
ENGINE_STAMP := .venv/.engine-compiled
NODE_STAMP := node_modules/.installed

.PHONY: setup run test test-slow lint golden bench calibrate validate-players docs

setup: $(STAMP) $(ENGINE_STAMP)

# Reinstall only when pyproject.toml changes.
$(STAMP): pyproject.toml
	test -x $(PYTHON) || python3 -m venv .venv
	$(PYTHON) -m pip install -e '.[dev]'
	touch $(STAMP)

# Compile the engine for this machine into Numba's cache (about a minute), so that no run, test or
# solve-board compiles it; again only when a module it is compiled from changes (then seconds if it is
# cached already).
$(ENGINE_STAMP): $(STAMP) $(wildcard pipeline/engine/*.py pipeline/game/*.py)
	$(PYTHON) -m pipeline.engine.warm
	touch $(ENGINE_STAMP)

run: setup
	.venv/bin/blackhole run --config configs/default.toml

# The suite runs on every core (pytest-xdist), at most 4 workers; a worker that runs out of tests takes some of
# another's (worksteal), so one long test at the end does not leave a core idle.
# Then the gallery's JavaScript unit tests, under Node's own test runner (tests/js/, no npm package needed).
test: setup
	$(PYTHON) -m pytest -q -n auto --maxprocesses 4 --dist worksteal
	node --test tests/js/

test-slow: setup
	$(PYTHON) -m pytest -q -n auto --maxprocesses 4 -m slow

# ESLint from npm (package.json, pinned by package-lock.json): reinstalled only when the lock file changes.
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

lint: setup $(NODE_STAMP)
	.venv/bin/ruff check .
	.venv/bin/ruff format --check .
	.venv/bin/mypy
	node_modules/.bin/eslint .

# The golden cases of the JavaScript tests, from the Python rules and solver (tests/js/write_golden.py).
golden: setup
	$(PYTHON) tests/js/write_golden.py

# black-hole-solver's build, for the family's comparison (bench/build_black_hole_solver.sh makes it)
BHS ?= ../bhs/build/black-hole-solve

bench: setup
	test -d output/packs/default-curated || $(MAKE) run
	$(PYTHON) bench/bench_gallery.py
	$(PYTHON) bench/bench_dealing.py
	$(PYTHON) bench/bench_solver.py
	$(PYTHON) bench/bench_stream.py
	$(PYTHON) bench/bench_crosscheck.py
	$(PYTHON) bench/bench_grading.py
	$(PYTHON) bench/bench_pipeline.py
	$(PYTHON) bench/bench_census.py
	$(PYTHON) bench/bench_memory.py
	$(PYTHON) bench/bench_plays_import.py
	$(PYTHON) bench/bench_family_grading.py
	@if test -x $(BHS); then $(PYTHON) bench/bench_family.py --bhs $(BHS); \
	else echo "bench_family: no black-hole-solver at $(BHS): build it with bash bench/build_black_hole_solver.sh ../bhs, or give BHS=PATH"; fi
	$(PYTHON) bench/bench_door.py $(if $(wildcard $(BHS)),--bhs $(BHS))
	$(PYTHON) bench/bench_first_run.py

# The tier thresholds: round values near the quartiles of the difficulties of 2,000 deals of seed 4
# (not the main job's seed 20261129, so the tiers are not fitted to the deals they grade).
calibrate: setup
	.venv/bin/blackhole calibrate sample --seed 4 --count 2000 --jobs 2 --out pipeline/stages/tiers.toml
	for game in all_in_a_row dead_king_golf golf relaxed_golf; do \
		.venv/bin/blackhole calibrate sample --seed 4 --count 2000 --jobs 2 --game $$game --out pipeline/stages/tiers_$$game.toml || exit 1; \
	done

# The player models' validation of docs/players.md: 2,000 deals of seed 2027, a seed that neither the
# calibration nor the tests use, through every stage; its report (charts), then the tables and play-outs.
validate-players: setup
	.venv/bin/blackhole run --config configs/players-validation.toml
	.venv/bin/blackhole report output/packs/players-validation
	$(PYTHON) bench/validate_players.py output/packs/players-validation

# Regenerate the generated docs: docs/cli.md from the Typer app (and ExitCode),
# the column tables of docs/schema.md from pipeline/packs/schema.py.
docs: setup
	$(PYTHON) docs/generate.py
