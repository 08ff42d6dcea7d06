"""Where a command may write: never over what is not a regular file, never over one of its own inputs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pipeline.cli import app
from pipeline.files import DestinationError, check_writable
from pipeline.game.shuffles import seeded_deal
from pipeline.packs.exports import export_pack_folder
from tests.packs.test_streaming_exports import pack_folder


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
