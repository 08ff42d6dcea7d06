"""Run configurations: sections, checks with file and line, command-line settings."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.config import ConfigError, RunConfig, load_config, parse_config
from pipeline.engine.budgets import LEAST_MAX_MEMORY_MIB
from pipeline.stages.settings import DEFAULT_TIERS, CurateSettings

GOOD = '[run]\nname = "x"\nseed = 1\ncount = 10\n'

# A value for every key, unlike its default, as it would be written after "=".
EVERY_KEY = {
    "run.name": ('"y"', "y"),
    "run.seed": ("7", 7),
    "run.source": ('"pysol"', "pysol"),
    "run.game": ('"golf"', "golf"),
    "run.first": ("100", 100),
    "run.count": ("20", 20),
    "run.shard_size": ("4", 4),
    "run.jobs": ("3", 3),
    "run.backend": ('"dask"', "dask"),
    "run.scheduler": ('"tcp://127.0.0.1:8786"', "tcp://127.0.0.1:8786"),
    "run.output": ('"elsewhere"', Path("elsewhere")),
    "run.timings": ("true", True),
    "solve.max_nodes": ("99", 99),
    "solve.longest_play": ("false", False),
    "crosscheck.sample": ("1", 1.0),
    "crosscheck.seed": ("5", 5),
    "crosscheck.loss_sample": ("0", 0.0),
    "crosscheck.time_limit": ("2.5", 2.5),
    "crosscheck.reference_nodes": ("1000", 1000),
    "grade.max_positions": ("12345", 12345),
    "grade.max_memory_mib": ("2048", 2048),
    "grade.tiers": ('"t.toml"', Path("t.toml")),
    "grade.sample": ("0.01", 0.01),
    "grade.seed": ("3", 3),
    "curate.per_tier": ("{ hard = 3, easy = 1 }", (("easy", 1), ("hard", 3))),
    "curate.order": ('"pack"', "pack"),
}


def test_every_key_of_every_section_can_be_set_in_the_file_and_on_the_command_line():
    base = parse_config(GOOD)
    assert set(EVERY_KEY) == {f"{s}.{k}" for s, keys in base.settings().items() for k in keys}
    for dotted, (text, value) in EVERY_KEY.items():
        section, key = dotted.split(".")
        from_file = parse_config(_with_key(section, key, text))
        from_line = base.with_settings([f"{dotted}={text}"])
        assert from_file == from_line, dotted
        holder = from_line if section == "run" else getattr(from_line, section)
        assert getattr(holder, key) == value and from_line != base, dotted


def _with_key(section: str, key: str, text: str) -> str:
    """GOOD with ``key = text`` in ``[section]`` (replacing GOOD's own line for that key)."""
    if section != "run":
        return GOOD + f"[{section}]\n{key} = {text}\n"
    lines = [line for line in GOOD.splitlines() if not line.startswith(f"{key} =")]
    return "\n".join(lines + [f"{key} = {text}"]) + "\n"


def test_a_setting_without_quotes_is_read_as_text():
    assert parse_config(GOOD).with_settings(["run.backend=dask"]).backend == "dask"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GOOD + "[solve]\nmax_nodes = 0\n", "x.toml:6: [solve] max_nodes must be at least 1, got 0"),
        (GOOD + "[crosscheck]\nsample = 1.5\n", "x.toml:6: [crosscheck] sample must be at most 1.0, got 1.5"),
        (GOOD + "[run.extra]\n", "x.toml: [run] has unknown key 'extra'"),
        (
            GOOD.replace("count = 10", "count = true"),
            "x.toml:4: [run] count must be an integer, not a boolean",
        ),
        (GOOD + 'backend = "ray"\n', "x.toml:5: [run] backend must be loky or dask, got 'ray'"),
        (GOOD + "[curate]\norder = 'random'\n", "x.toml:6: [curate] order must be difficulty or pack"),
        (GOOD + "[curate]\nper_tier = { easy = -1 }\n", "x.toml:6: [curate] per_tier easy must be a whole"),
        ('[run]\nname = "x"\nseed = 1\n', "x.toml:1: [run] needs 'count'"),
        (
            GOOD.replace('"x"', '"x-curated"'),
            "x.toml:2: [run] name 'x-curated' ends in -curated, which names run 'x''s curated pack",
        ),
        ("grade = 3\n" + GOOD, "x.toml:1: grade must be a [grade] table"),
        ('[run]\nname = "x"\ncount = 3\n', "x.toml:1: [run] needs 'seed'"),
        (GOOD + 'source = "deck"\n', "x.toml:5: [run] source must be seed or pysol, got 'deck'"),
        (GOOD.replace("count = 10", "count = 9223372036854775809"), "[run] count must be at most"),
        # bounds against what holds the values later: int64 indices and counts, uint64 seeds, memory
        (
            GOOD.replace("count = 10", f"count = {2**63}"),
            "x.toml:4: [run] count must be at most 9223372036854775807",
        ),
        (
            GOOD.replace("count = 10", f"count = {'9' * 5000}"),
            "x.toml:4: [run] count: a number too long to read",
        ),
        (GOOD + "jobs = 1025\n", "x.toml:5: [run] jobs must be at most 1024, got 1025"),
        (GOOD + "shard_size = 100001\n", "x.toml:5: [run] shard_size must be at most 100000"),
        (
            GOOD.replace("seed = 1", f"seed = {2**64}"),
            "x.toml:3: [run] seed must be at most 18446744073709551615",
        ),
        (
            GOOD + f"[crosscheck]\nseed = {2**64}\n",
            "x.toml:6: [crosscheck] seed must be at most 18446744073709551615",
        ),
        (GOOD + f"[grade]\nseed = {2**64}\n", "x.toml:6: [grade] seed must be at most 18446744073709551615"),
        (
            '[run]\nname = "x"\nsource = "pysol"\nfirst = 8589934590\ncount = 3\n',
            "PySol FC deals 8589934590 to 8589934592 pass the last one, 8589934591",
        ),
        (GOOD + "[grade]\nsample = -0.1\n", "x.toml:6: [grade] sample must be at least 0.0, got -0.1"),
        (
            GOOD + "[grade]\nmax_memory_mib = 100\n",
            f"x.toml:6: [grade] max_memory_mib must be at least {LEAST_MAX_MEMORY_MIB}, got 100",
        ),
        (GOOD + "[grade]\nsample = nan\n", "x.toml:6: [grade] sample must be a finite number, got nan"),
        (
            GOOD + "[crosscheck]\ntime_limit = inf\n",
            "x.toml:6: [crosscheck] time_limit must be a finite number",
        ),
        (
            GOOD + "[crosscheck]\ntime_limit = 86401\n",
            "x.toml:6: [crosscheck] time_limit must be at most 86400",
        ),
        (
            GOOD.replace('name = "x"', 'name = "a\\u0000b"'),
            "[run] name 'a\\x00b' is not a folder name (it holds",
        ),
        (GOOD + 'scheduler = "garbage"\n', "x.toml:5: [run] scheduler 'garbage' is not an address"),
        (GOOD + 'scheduler = "tcp://h:0"\n', "[run] scheduler 'tcp://h:0' is not an address"),
    ],
)
def test_errors_name_the_file_line_and_problem(text, message):
    with pytest.raises(ConfigError) as error:
        parse_config(text, source="x.toml")
    assert message in str(error.value)


@pytest.mark.parametrize(
    "address", ["tcp://127.0.0.1:8786", "localhost:8786", "tls://[::1]:65535", "ucx://node-3:1"]
)
def test_a_scheduler_address_with_a_host_and_port_is_taken(address):
    assert parse_config(GOOD + f'scheduler = "{address}"\n').scheduler == address
    assert parse_config(GOOD).with_overrides(scheduler=address).scheduler == address


def test_command_line_overrides_are_checked_like_the_file():
    with pytest.raises(ConfigError, match="command line: \\[run\\] scheduler 'garbage' is not an address"):
        parse_config(GOOD).with_overrides(scheduler="garbage")
    with pytest.raises(ConfigError, match="command line: \\[run\\] jobs must be at least 1"):
        parse_config(GOOD).with_overrides(jobs=0)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("run.count", "expected section.key=value"),
        ("count=3", "expected section.key=value"),
        ("solve.max_positions=3", "unknown key 'solve.max_positions'"),
        ("run.count=0", "[run] count must be at least 1"),
        ("run.name=x-curated", "command line: [run] name 'x-curated' ends in -curated"),
        (f"run.count={'9' * 5000}", "a number too long to read (past 4,300 digits)"),
        ("run.jobs=1025", "[run] jobs must be at most 1024"),
        (f"run.shard_size={10**12}", "[run] shard_size must be at most 100000"),
        (f"crosscheck.seed={2**64}", "[crosscheck] seed must be at most 18446744073709551615"),
    ],
)
def test_settings_are_checked_like_the_file(setting, message):
    config = parse_config(GOOD + "[curate]\nper_tier = { easy = 3 }\n")
    with pytest.raises(ConfigError) as error:
        config.with_settings([setting])
    assert message in str(error.value)


def test_the_largest_values_are_taken():
    text = GOOD.replace("count = 10", f"count = {2**63 - 1}").replace("seed = 1", f"seed = {2**64 - 1}")
    config = parse_config(text + "jobs = 1024\nshard_size = 100000\n[grade]\nseed = 18446744073709551615\n")
    assert (config.count, config.seed, config.jobs, config.shard_size) == (
        2**63 - 1,
        2**64 - 1,
        1024,
        100_000,
    )
    assert config.grade.seed == 2**64 - 1


def test_a_pysol_run_needs_no_seed():
    config = parse_config('[run]\nname = "census"\nsource = "pysol"\ncount = 1000000\n')
    assert (config.source, config.first, config.count) == ("pysol", 1, 1_000_000)


def test_a_work_folder_and_packs_live_under_output():
    config = RunConfig(name="n", seed=1, count=1, output=Path("out"))
    assert (config.pack_directory, config.curated_directory, config.work_directory) == (
        Path("out/packs/n"),
        Path("out/packs/n-curated"),
        Path("out/work/n"),
    )


# --- paths in a config file ----------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def _config_in(folder: Path, lines: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "run.toml"
    path.write_text(GOOD + lines, encoding="utf-8")
    return path


def test_paths_in_a_config_file_are_read_relative_to_its_folder(tmp_path, monkeypatch):
    path = _config_in(tmp_path / "configs", 'output = "../out"\n[grade]\ntiers = "mine.toml"\n')
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / "other")
    config = load_config(path)
    assert (config.output, config.grade.tiers) == (tmp_path / "out", tmp_path / "configs" / "mine.toml")
    monkeypatch.chdir(tmp_path)  # inside the working folder, spelled relative to it
    config = load_config(Path("configs/run.toml"))
    assert (config.output, config.grade.tiers) == (Path("out"), Path("configs/mine.toml"))


def test_an_absolute_path_in_a_config_file_stays_as_it_is(tmp_path):
    path = _config_in(tmp_path / "configs", f'output = "{tmp_path / "elsewhere"}"\n')
    assert load_config(path).output == tmp_path / "elsewhere"


def test_paths_on_the_command_line_are_read_relative_to_the_working_folder(tmp_path, monkeypatch):
    path = _config_in(tmp_path / "configs", 'output = "../out"\n')
    monkeypatch.chdir(tmp_path / "configs")
    config = load_config(path).with_settings(["run.output=here", "grade.tiers=t.toml"])
    assert (config.output, config.grade.tiers) == (Path("here"), Path("t.toml"))


def test_the_repository_configs_write_under_its_output_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert load_config(Path("configs/default.toml")).pack_directory == Path("output/packs/default")
    monkeypatch.chdir(tmp_path)
    for name in ("default", "smoke", "census"):
        config = load_config(ROOT / "configs" / f"{name}.toml")
        assert config.output == ROOT / "output" and config.grade.tiers == DEFAULT_TIERS


# --- quotas that ask for more deals than the run makes ---------------------------------------------


@pytest.mark.parametrize("count", [1, 3, 7, 200, 399, 400, 1000])
def test_the_default_config_takes_any_count_its_quotas_scaled_to_fit(count, monkeypatch):
    monkeypatch.chdir(ROOT)
    config = load_config(Path("configs/default.toml")).with_settings([f"run.count={count}"])
    assert dict(config.curate.per_tier) == dict.fromkeys(("easy", "medium", "hard", "expert"), 100)
    fitted = dict(config.curate.within(count).per_tier)
    assert sum(fitted.values()) == min(count, 400)
    assert max(fitted.values()) - min(fitted.values()) <= 1 and list(fitted) == list(
        dict(config.curate.per_tier)
    )


@given(
    st.dictionaries(st.sampled_from(["easy", "medium", "hard", "expert"]), st.integers(0, 10**6), min_size=1),
    st.integers(1, 10**7),
)
def test_scaled_quotas_fill_the_run_and_never_grow(quotas, count):
    ordered = tuple((tier, quotas[tier]) for tier in ("easy", "medium", "hard", "expert") if tier in quotas)
    fitted = CurateSettings(per_tier=ordered).within(count).per_tier
    assert [tier for tier, _ in fitted] == [tier for tier, _ in ordered]
    assert sum(n for _, n in fitted) == min(count, sum(quotas.values()))
    for (_, asked), (_, got) in zip(ordered, fitted, strict=True):
        assert got <= asked and abs(got - asked * min(1, count / max(1, sum(quotas.values())))) < 1 + 1e-9


@pytest.mark.parametrize("name", ["curated", "x-curated-2", "curated-x", "x_curated", "-curate"])
def test_a_name_that_only_looks_curated_keeps_its_folders(name):
    config = parse_config(GOOD.replace('"x"', f'"{name}"'))
    assert (config.pack_directory.name, config.curated_directory.name) == (name, f"{name}-curated")
