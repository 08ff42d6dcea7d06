"""Where a command may write: never over what is not a regular file, never over one of its own inputs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline import files
from pipeline.cli import app
from pipeline.files import DestinationError, check_writable, replacing_folder
from pipeline.game.shuffles import seeded_deal
from pipeline.packs.exports import export_pack_folder
from tests.packs.test_streaming_exports import pack_folder
from tests.test_locks import dead_pid


def _refused(path: Path, message: str, **options) -> None:
    with pytest.raises(DestinationError) as error:
        check_writable(path, **options)
    assert message in str(error.value)


def test_a_new_file_or_a_regular_file_may_be_written(tmp_path):
    (tmp_path / "old.parquet").write_bytes(b"old")
    assert check_writable(tmp_path / "new.parquet") == tmp_path / "new.parquet"
    assert (
        check_writable(tmp_path / "old.parquet", inputs=[tmp_path / "other.parquet"])
        == tmp_path / "old.parquet"
    )


def test_a_fifo_a_folder_or_a_link_is_never_replaced(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    (tmp_path / "real.parquet").write_bytes(b"real")
    (tmp_path / "link.parquet").symlink_to(tmp_path / "real.parquet")
    _refused(tmp_path / "fifo", "fifo: not a regular file")
    _refused(tmp_path / "folder", "folder: not a regular file")
    _refused(tmp_path / "link.parquet", "link.parquet: is a symbolic link; refusing to replace it")


def test_an_input_is_never_written_over_however_its_path_is_spelled(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "in.txt").write_text("board")
    _refused(Path("sub/../in.txt"), "is this command's input 'in.txt'", inputs=[Path("in.txt")])
    _refused(Path("sub/x.csv"), "is inside this command's input 'sub'", inputs=[Path("sub")])


@pytest.mark.parametrize("command", ["import", "solve"])
def test_import_and_solve_refuse_to_write_over_their_input(tmp_path, command):
    if command == "import":
        source = tmp_path / "boards.txt"
        source.write_text(seeded_deal(1, 0).to_board_text())
    else:
        source = tmp_path / "deals.parquet"
        assert (
            CliRunner()
            .invoke(app, ["generate", "--seed", "1", "--count", "3", "--out", str(source)])
            .exit_code
            == 0
        )
    before = source.read_bytes()
    result = CliRunner().invoke(app, [command, str(source), "--out", str(tmp_path / "." / source.name)])
    assert result.exit_code == 1
    assert (
        result.stderr
        == f"error: {tmp_path / '.' / source.name}: is this command's input '{source}'; refusing to write over it\n"
    )
    assert source.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == [source.name]


def test_export_refuses_to_write_into_the_pack_it_reads(tmp_path, pack_rows):
    folder = pack_folder(tmp_path / "pack", pack_rows)
    before = {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()}
    with pytest.raises(DestinationError, match="is inside this command's input"):
        export_pack_folder(folder, folder / "manifest.json", "json")
    assert {path: path.read_bytes() for path in folder.rglob("*") if path.is_file()} == before


def _hidden(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.startswith("."))


@pytest.mark.parametrize("kind", ["link", "file"])
def test_a_link_or_a_file_where_a_folder_goes_is_refused_and_left_as_it_was(tmp_path, kind):
    real = tmp_path / "real"
    real.mkdir()
    (real / "keep.txt").write_text("mine")
    target = tmp_path / "pack"
    if kind == "link":
        target.symlink_to(real)
        message = "pack: is a symbolic link; a folder is replaced whole, never through a link"
    else:
        target.write_text("a file")
        message = "pack: not a folder; refusing to replace it with one"
    with pytest.raises(DestinationError, match=message), replacing_folder(target):
        raise AssertionError("never reached")
    assert target.is_symlink() == (kind == "link") and (real / "keep.txt").read_text() == "mine"
    assert _hidden(tmp_path) == []


def test_a_failed_swap_puts_the_old_folder_back(tmp_path, monkeypatch):
    target = tmp_path / "pack"
    target.mkdir()
    (target / "old.txt").write_text("old")
    rename = os.replace

    def failing(source, destination):
        if Path(source).name.startswith(".pack.tmp-"):
            raise OSError("rename failed")
        rename(source, destination)

    monkeypatch.setattr(files.os, "replace", failing)
    with pytest.raises(OSError, match="rename failed"), replacing_folder(target) as staging:
        (staging / "new.txt").write_text("new")
    assert [path.name for path in target.iterdir()] == ["old.txt"]
    assert _hidden(tmp_path) == []


def test_a_live_writers_staging_stays_and_a_dead_ones_goes_links_unfollowed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("mine")
    folder = tmp_path / "packs"
    folder.mkdir()
    live = folder / f".pack.tmp-{os.getppid()}"
    live.mkdir()
    (folder / f".pack.old-{dead_pid()}").mkdir()
    (folder / f".pack.tmp-{dead_pid()}").symlink_to(outside)
    with replacing_folder(folder / "pack") as staging:
        (staging / "new.txt").write_text("new")
    assert _hidden(folder) == [live.name]
    assert (outside / "keep.txt").read_text() == "mine"


def test_a_folder_of_other_files_is_not_replaced_by_a_pack(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    with pytest.raises(DestinationError, match="a folder of other files .no manifest.json."):
        files.check_replaceable_folder(tmp_path / "mine", marked_by="manifest.json")
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "manifest.json").write_text("{}")
    (tmp_path / "empty").mkdir()
    for folder in ("pack", "empty", "missing"):
        assert (
            files.check_replaceable_folder(tmp_path / folder, marked_by="manifest.json") == tmp_path / folder
        )
    assert files.check_replaceable_folder(tmp_path / "mine") == tmp_path / "mine"  # no mark asked for


def test_a_loop_of_links_is_one_clean_error(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(DestinationError, match="cannot follow its symbolic links"):
        files.resolved(tmp_path / "a")
    with pytest.raises(DestinationError, match="cannot follow its symbolic links"):
        check_writable(tmp_path / "out.parquet", inputs=[tmp_path / "a"])
