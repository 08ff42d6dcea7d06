"""Lock files: one holder at a time, a refusal that names the holder, a killed holder's file taken over."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from pipeline.locks import Holder, LockedError, holding


def dead_pid() -> int:
    """The PID of a process that has ended: a child started and waited for."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_second_holder_is_refused_with_the_first_named_and_the_file_kept(tmp_path):
    path = tmp_path / "locks" / "t.lock"
    with holding(path, what="run 't'") as taken_over:
        assert taken_over is None
        record = path.read_text()
        with pytest.raises(LockedError) as error, holding(path, what="run 't'"):
            pass
        assert path.read_text() == record
    me = Holder.from_text(record)
    assert me is not None and me.pid == os.getpid() and me.host == socket.gethostname()
    assert str(error.value) == (f"{path}: run 't' is already running ({me}); wait for it to end, or stop it")
    assert not path.exists()  # let go: the file is gone, the folder stays
    with holding(path, what="run 't'"):  # and free again
        pass


@pytest.mark.parametrize("stop", [ValueError, KeyboardInterrupt])
def test_the_lock_is_let_go_on_error_and_ctrl_c(tmp_path, stop):
    path = tmp_path / "t.lock"
    with pytest.raises(stop), holding(path, what="run 't'"):
        raise stop
    assert not path.exists()
    with holding(path, what="run 't'") as taken_over:
        assert taken_over is None


def test_a_lock_file_left_by_a_dead_process_is_taken_over(tmp_path):
    path = tmp_path / "t.lock"
    left = Holder(pid=dead_pid(), host=socket.gethostname(), since="2026-01-02T03:04:05+00:00")
    path.write_text(left.to_text())
    with holding(path, what="run 't'") as taken_over:
        assert taken_over == left
        assert Holder.from_text(path.read_text()).pid == os.getpid()
    assert not path.exists()


@pytest.mark.parametrize("text", ["", '{"pid": 12', "[1, 2]"])
def test_an_empty_or_torn_lock_file_is_taken_over(tmp_path, text):
    path = tmp_path / "t.lock"
    path.write_text(text)
    with holding(path, what="run 't'") as taken_over:
        assert taken_over is None
    assert not path.exists()


def test_a_lock_file_of_another_host_is_refused_and_kept(tmp_path):
    path = tmp_path / "t.lock"
    other = Holder(pid=1, host=socket.gethostname() + "-elsewhere", since="2026-01-02T03:04:05+00:00")
    path.write_text(other.to_text())
    with pytest.raises(LockedError) as error, holding(path, what="run 't'"):
        pass
    assert str(error.value) == (
        f"{path}: left by run 't' on another host ({other}); if it has stopped, delete this file and start again"
    )
    assert path.read_text() == other.to_text()
    path.unlink()
    with holding(path, what="run 't'"):
        pass


def test_a_tidy_holder_removes_the_folder_it_leaves_empty_and_keeps_one_in_use(tmp_path):
    first, second = tmp_path / "locks" / "a.lock", tmp_path / "locks" / "b.lock"
    with holding(first, what="run 'a'", tidy=True):
        with holding(second, what="run 'b'", tidy=True):
            pass
        assert first.parent.is_dir()  # 'a' still holds its lock there
    assert not first.parent.exists()
    with pytest.raises(ValueError), holding(first, what="run 'a'", tidy=True):
        raise ValueError
    assert not first.parent.exists()  # on error too


def test_a_holder_whose_folder_is_removed_as_it_opens_makes_it_again(tmp_path, monkeypatch):
    """The race of two runs: one removes the empty folder between the other's mkdir and open."""
    import pipeline.locks as locks

    path, opened = tmp_path / "locks" / "t.lock", []
    real_open = os.open

    def open_after_a_removal(name, *args):
        if not opened:
            opened.append(name)
            path.parent.rmdir()  # what a holder leaving meanwhile does
        return real_open(name, *args)

    monkeypatch.setattr(locks.os, "open", open_after_a_removal)
    with holding(path, what="run 't'", tidy=True):
        assert path.exists()
    assert opened and not path.parent.exists()
