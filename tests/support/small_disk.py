"""Commands run against a small disk: a tmpfs mounted for the purpose, its free space set step by step.

``python -m tests.support.small_disk PLAN RESULT`` reads a plan (JSON): the
folder to mount a tmpfs on and a list of steps, each one of

- ``{"do": "cli", "name": N, "args": [...]}``: run ``blackhole ARGS`` in this
  process (Typer's test runner; ``"stdin"``: its standard input, ``"temporary"``:
  the system's temporary folder, for a copy of standard input) and record its exit code, its standard error
  and every file of the disk before and after (relative path: SHA-256, or
  ``"folder"``);
- ``{"do": "free", "bytes": B}``: remount the disk to hold what it holds and
  ``B`` bytes more (a tmpfs counts whole pages);
- ``{"do": "remount", "options": "ro"}`` (or ``"rw"``, ``"size=8m"``);
- ``{"do": "mkdir", "path": P}``, ``{"do": "copy", "source": S, "path": P}`` and
  ``{"do": "write", "path": P, "text": T}``: a folder, a copy of the folder ``S``
  or a file of text ``T`` made on the disk (paths relative to it);
- ``{"do": "process", "name": N, "args": [...], "environment": {...}}``: the
  command ``ARGS`` run in a process of its own, with these environment variables
  added, recorded as a ``cli`` step is;
- ``{"do": "workers", "name": N, "path": P, "bytes": B}``: two joblib workers
  (:func:`pipeline.workers.unordered`) each write ``B`` bytes to a file of ``P``
  (:func:`write_in_worker`); the record holds the error that comes back.

A step named before the mount (``"mounted": false``) runs before the tmpfs is
mounted: that is how the inputs are made, outside the disk. It writes the
steps' records to RESULT (JSON) as it goes, and ``{"skip": WHY}`` there when the
tmpfs cannot be mounted. Root mounts directly and unmounts at the end; any
other user runs this under ``unshare -rm`` (:func:`command`), in a mount
namespace of its own that ends with the process.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PAGE = 4096


def command(plan: Path, result: Path) -> list[str] | str:
    """The command that carries out ``plan``, or why none can here (a reason to skip)."""
    driver = [sys.executable, "-m", "tests.support.small_disk", str(plan), str(result)]
    if os.geteuid() == 0:
        return driver
    if shutil.which("unshare") is None:
        return "not root, and no unshare to mount a tmpfs in a namespace of its own"
    return ["unshare", "-rm", *driver]


def listing(disk: Path) -> dict[str, str]:
    """Every file and folder under ``disk``, hidden ones too: relative path to SHA-256, or ``"folder"``."""
    found = {}
    for path in sorted(disk.rglob("*")):
        name = str(path.relative_to(disk))
        found[name] = "folder" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def _mount(disk: Path, options: str) -> str | None:
    """Mount a tmpfs with ``options`` on ``disk``; why not, or None."""
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(disk)], capture_output=True, text=True
    )
    return None if done.returncode == 0 else f"mount -t tmpfs failed: {done.stderr.strip()}"


def _remount(disk: Path, options: str) -> None:
    done = subprocess.run(["mount", "-o", f"remount,{options}", str(disk)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"remount,{options} failed: {done.stderr.strip()}; open here: {_open_files(disk)}")


def _open_files(disk: Path) -> list[str]:
    """The files under ``disk`` that any process holds open (what keeps a remount read-only from working)."""
    found = []
    for descriptor in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            target = os.readlink(descriptor)
        except OSError:
            continue
        if target.startswith(str(disk)):
            found.append(f"{descriptor}: {target}")
    return found


def _set_free(disk: Path, free: int) -> None:
    """Remount ``disk`` so that it has room for what it holds and ``free`` bytes more (whole pages)."""
    stats = os.statvfs(disk)
    size = (stats.f_blocks - stats.f_bfree) * stats.f_frsize + -(-free // PAGE) * PAGE
    if size == 0:  # a tmpfs of size 0 would have no limit at all: a page of ballast, then no room
        (disk / "ballast").write_bytes(b"\0" * PAGE)
        size = PAGE
    _remount(disk, f"size={size}")


def write_in_worker(path: str, size: int) -> int:
    """Write ``size`` bytes to ``path`` as every file is written (:func:`pipeline.files.replacing`): a worker's task."""
    from pipeline.files import replacing

    with replacing(Path(path)) as sink:
        sink.write(b"x" * size)
    return size


def _workers(folder: Path, size: int) -> dict[str, Any]:
    """Two loky workers writing ``size`` bytes each into ``folder``: the error the parent meets, named and said."""
    from joblib import delayed

    from pipeline.workers import unordered

    tasks = (delayed(write_in_worker)(str(folder / f"worker-{number}.bin"), size) for number in range(2))
    try:
        list(unordered(tasks, jobs=2, backend="loky"))
    except Exception as error:
        return {"error_type": type(error).__name__, "error": str(error)}
    return {"error_type": None, "error": None}


def _cli(args: Sequence[str], *, stdin: str | None = None, temporary: str | None = None) -> dict[str, Any]:
    """``blackhole ARGS`` run here, ``stdin`` its standard input, ``temporary`` the system's temporary folder."""
    import tempfile

    from typer.testing import CliRunner

    from pipeline.cli import app

    before, tempfile.tempdir = tempfile.tempdir, temporary or tempfile.tempdir
    try:
        result = CliRunner().invoke(app, list(args), input=stdin)
    finally:
        tempfile.tempdir = before
    crashed = None if isinstance(result.exception, SystemExit | None) else repr(result.exception)
    return {"exit_code": result.exit_code, "stderr": result.stderr, "exception": crashed}


def _step(disk: Path, step: dict[str, Any]) -> dict[str, Any] | None:
    """Carry out ``step``; its record for a command, else None."""
    if step["do"] == "cli":
        before = listing(disk)
        started = time.monotonic()
        done = _cli(step["args"], stdin=step.get("stdin"), temporary=step.get("temporary"))
        record = {"name": step["name"], **done, "seconds": time.monotonic() - started}
        return record | {"before": before, "after": listing(disk)}
    if step["do"] == "process":
        before = listing(disk)
        environment = os.environ | step.get("environment", {})
        ran = subprocess.run(step["args"], capture_output=True, text=True, env=environment, timeout=300)
        record = {
            "name": step["name"],
            "exit_code": ran.returncode,
            "stderr": ran.stderr,
            "exception": None,
        }
        return record | {"before": before, "after": listing(disk)}
    if step["do"] == "workers":
        before = listing(disk)
        record = {"name": step["name"], **_workers(disk / step["path"], step["bytes"])}
        return record | {"before": before, "after": listing(disk)}
    if step["do"] == "free":
        _set_free(disk, step["bytes"])
    elif step["do"] == "remount":
        _remount(disk, step["options"])
    elif step["do"] == "mkdir":
        (disk / step["path"]).mkdir(parents=True, exist_ok=True)
    elif step["do"] == "copy":
        shutil.copytree(step["source"], disk / step["path"])
    elif step["do"] == "write":
        (disk / step["path"]).parent.mkdir(parents=True, exist_ok=True)
        (disk / step["path"]).write_text(step["text"])
    else:
        raise ValueError(f"unknown step {step['do']!r}")
    return None


def main(plan_file: Path, result_file: Path) -> None:
    plan = json.loads(plan_file.read_text())
    disk = Path(plan["disk"])
    records: list[dict[str, Any]] = []

    def save(**more: Any) -> None:
        result_file.write_text(json.dumps({"records": records, **more}))

    steps = plan["steps"]
    for step in (step for step in steps if step.get("mounted") is False):
        records.append(_cli(step["args"]) | {"name": step["name"]})
    save()
    why = _mount(disk, f"size={plan.get('size', 1 << 20)}")
    if why is not None:
        save(skip=why)
        return
    try:
        for step in (step for step in steps if step.get("mounted", True)):
            record = _step(disk, step)
            if record is not None:
                records.append(record)
                save()
    finally:  # lazily if a file there is still open: the disk goes when it is closed, at the latest on exit
        if subprocess.run(["umount", str(disk)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(disk)], capture_output=True)
    save(done=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
