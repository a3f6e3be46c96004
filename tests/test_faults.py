"""Faults around a run: a damaged store, a full disk, symlinks, deleted inputs, lock
paths. Real SQLite files, real processes; the full disk is a small tmpfs where this
machine allows mounting one (skipped where it does not)."""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from batchkit import make_corpus, run_cli


def run_subprocess(*args, timeout: float = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "specextract", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- a damaged store -----------------------------------------------------------------------
def claims_leaf_page(db: Path) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT pageno FROM dbstat WHERE name = 'claims' AND "
                            "pagetype = 'leaf' ORDER BY pageno LIMIT 1 OFFSET 3").fetchone()[0]
    finally:
        conn.close()


def scramble_page(db: Path, page: int) -> None:
    data = bytearray(db.read_bytes())
    start = (page - 1) * 4096
    data[start + 8:start + 4000] = random.Random(page).randbytes(3992)
    db.write_bytes(bytes(data))


@pytest.fixture()
def killed_store(tmp_path):
    """A store after a run, then a writer killed with its WAL not merged, then random
    bytes in one claims page of the main file."""
    corpus = make_corpus(tmp_path / "in", 12, paragraphs=4)
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out, "--no-progress").exit_code == 0
    db = out / "specextract.db"
    page = claims_leaf_page(db)
    code = ("import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
            "c.execute('PRAGMA wal_autocheckpoint = 0'); "
            "c.execute(\"INSERT INTO runs (started_at, status) VALUES ('x', 'running')\"); "
            "c.commit(); os._exit(9)")
    subprocess.run([sys.executable, "-c", code, db], check=False)
    assert (out / "specextract.db-wal").stat().st_size > 0
    scramble_page(db, page)
    return corpus, out, db


def test_a_damaged_store_is_refused_byte_identical(killed_store):
    corpus, out, db = killed_store
    wal = db.with_name(db.name + "-wal")
    before = (sha(db), sha(wal))
    for args in (("run", corpus, "--out", out, "--no-progress"), ("export", "--db", db)):
        result = run_subprocess(*args)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert "damaged specextract store" in result.stderr
        assert "specextract store recover" in result.stderr
        assert (sha(db), sha(wal)) == before


def test_store_recover_salvages_a_damaged_store(killed_store, tmp_path):
    corpus, out, db = killed_store
    before = sha(db)
    new = tmp_path / "recovered.db"
    result = run_subprocess("store", "recover", db, new)
    assert result.returncode == 0, result.stderr
    assert "will be extracted again" in result.stdout
    assert sha(db) == before
    rerun = run_subprocess("run", corpus, "--out", tmp_path / "out2", "--db", new,
                           "--no-progress")
    assert rerun.returncode == 0, rerun.stderr
    clean = run_subprocess("run", corpus, "--out", tmp_path / "clean", "--no-progress")
    assert clean.returncode == 0
    rows = lambda p: sorted((p / "claims.csv").read_text(encoding="utf-8").splitlines())
    assert rows(tmp_path / "out2") == rows(tmp_path / "clean")


# --- a full disk ---------------------------------------------------------------------------
@pytest.fixture()
def small_disk(tmp_path):
    """A 1 MiB tmpfs (skip where mounting is not allowed)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", f"tmpfs-{uuid.uuid4().hex[:8]}",
                           str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace')}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def run_status(db: Path) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT status FROM runs ORDER BY run_id")]
    finally:
        conn.close()


def test_a_full_disk_stops_the_run_and_records_it_failed(small_disk, tmp_path):
    corpus = make_corpus(tmp_path / "in", 60, paragraphs=4)
    out = small_disk / "out"
    result = run_subprocess("run", corpus, "--out", out, "--no-progress")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "no space left on the device" in result.stderr
    assert "internal-error" not in result.stdout + result.stderr
    assert not (out / "report" / ".staging").exists()
    assert run_status(out / "specextract.db")[-1] == "failed"


def test_a_full_disk_for_claims_csv_records_the_run_failed(small_disk, tmp_path):
    corpus = make_corpus(tmp_path / "in", 60, paragraphs=4)
    out, db = small_disk / "out", tmp_path / "store.db"
    result = run_subprocess("run", corpus, "--out", out, "--db", db, "--no-progress")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "no space left on the device" in result.stderr
    assert run_status(db) == ["failed"]
    assert not (out / "report" / ".staging").exists()
    assert not list(out.rglob("*.tmp"))
    shutil.rmtree(out)    # space again: the next run resumes and finishes
    again = run_subprocess("run", corpus, "--out", tmp_path / "out2", "--db", db, "--no-progress")
    assert again.returncode == 0, again.stderr
    assert run_status(db) == ["failed", "finished"]


def test_disk_full_in_the_store_is_fatal_not_per_document(tmp_path, monkeypatch):
    """SQLITE_FULL at the write point (where no small disk can be mounted, this is the
    same path): one clear error, not internal-error per document."""
    from specextract.errors import DiskFullError
    from specextract.batch.executors import LocalExecutor
    from specextract.batch.job import run_job
    from specextract.store.db import Store

    def full(self, doc, rows):
        raise sqlite3.OperationalError("database or disk is full")
    monkeypatch.setattr(Store, "put_document", full)
    corpus = make_corpus(tmp_path / "in", 3)
    with pytest.raises(DiskFullError, match="no space left"):
        run_job([str(corpus)], tmp_path / "out", executor=LocalExecutor(), progress=False,
                echo=lambda line: None)
    assert run_status(tmp_path / "out" / "specextract.db") == ["failed"]
    assert not (tmp_path / "out" / "report" / ".staging").exists()


# --- Dask over TCP: workers killed ---------------------------------------------------------
def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "distributed.cli." + args[0], *args[1:]],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_for_workers(address: str, n: int) -> None:
    from distributed import Client
    with Client(address, timeout="20s") as client:
        client.wait_for_workers(n, timeout=60)


def test_dask_workers_killed_fails_the_rest_as_no_workers(tmp_path):
    """A scheduler on 127.0.0.1 and one worker (no nanny to restart it); the worker is
    killed mid-run: the run ends with exit 1 and every document left fails as no-workers."""
    import time
    pytest.importorskip("distributed")
    from batchkit import store_count
    corpus = make_corpus(tmp_path / "in", 160, paragraphs=30)
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = _dask("dask_scheduler", "--host", "127.0.0.1", "--port", str(port),
                      "--no-dashboard")
    worker = None
    try:
        worker = _dask("dask_worker", address, "--no-nanny", "--nthreads", "1",
                       "--host", "127.0.0.1", "--no-dashboard")
        _wait_for_workers(address, 1)
        out = tmp_path / "out"
        run = subprocess.Popen([sys.executable, "-m", "specextract", "run", corpus, "--out", out,
                                "--dask", address, "--dask-timeout", "3", "--no-progress"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        db = out / "specextract.db"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and run.poll() is None:
            if db.exists() and store_count(db) > 0:
                break
            time.sleep(0.2)
        worker.kill()
        stdout, stderr = run.communicate(timeout=120)   # a hang fails here
        assert run.returncode == 1, stderr
        assert "Traceback" not in stderr
        assert "no-workers (no Dask worker for 3 s" in stdout
        rows = sqlite3.connect(f"file:{db}?mode=ro", uri=True).execute(
            "SELECT reason, count(*) FROM documents GROUP BY reason").fetchall()
        reasons = dict(rows)
        assert sum(reasons.values()) == 160
        assert reasons.get("no-workers", 0) > 0
    finally:
        for proc in (worker, scheduler):
            if proc is not None:
                proc.kill()
                proc.wait()


# --- symbolic links leaving the inputs -----------------------------------------------------
def test_a_symlink_out_of_the_input_folder_is_not_read(tmp_path):
    corpus = make_corpus(tmp_path / "in", 2)
    secret = tmp_path / "secret.txt"
    secret.write_text("NVIDIA A100 的单精度算力为 19.5 TFLOPS。SECRET-TOKEN\n", encoding="utf-8")
    (corpus / "passwd.txt").symlink_to(secret)
    other = make_corpus(tmp_path / "other", 1)
    (corpus / "inside.txt").symlink_to(other / "art_000.txt")   # into another input: read
    out = tmp_path / "out"
    result = run_cli("run", corpus, other, "--out", out, "--no-progress")
    assert result.exit_code == 0, result.output
    assert "skipped 1 symbolic links that point outside the inputs" in result.output
    assert "passwd.txt" in result.output and "--follow-symlinks" in result.output
    conn = sqlite3.connect(f"file:{out / 'specextract.db'}?mode=ro", uri=True)
    paths = [r[0] for r in conn.execute("SELECT path FROM documents")]
    texts = "".join(r[0] or "" for r in conn.execute("SELECT text FROM documents"))
    conn.close()
    assert not any(p.endswith("passwd.txt") for p in paths)
    assert any(p.endswith("inside.txt") for p in paths)
    assert "SECRET-TOKEN" not in texts
    report = "".join(p.read_text(encoding="utf-8") for p in (out / "report").rglob("*.html"))
    assert "SECRET-TOKEN" not in report
    followed = run_cli("run", corpus, "--out", tmp_path / "out2", "--no-progress",
                       "--follow-symlinks")
    assert followed.exit_code == 0 and "skipped" not in followed.output
    conn = sqlite3.connect(f"file:{tmp_path / 'out2' / 'specextract.db'}?mode=ro", uri=True)
    assert conn.execute("SELECT count(*) FROM documents WHERE path LIKE '%passwd.txt'"
                        ).fetchone()[0] == 1
    conn.close()


# --- deleted inputs ------------------------------------------------------------------------
def csv_rows(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines()) - 1


def test_deleted_inputs_are_warned_about_and_pruned(tmp_path):
    corpus = make_corpus(tmp_path / "in", 3)
    out = tmp_path / "out"
    assert run_cli("run", corpus, "--out", out, "--no-progress").exit_code == 0
    full = csv_rows(out / "claims.csv")
    (corpus / "art_001.txt").unlink()
    again = run_cli("run", corpus, "--out", out, "--no-progress")
    assert again.exit_code == 0
    assert "warning: the store holds 1 documents that this run's inputs do not name" in again.output
    assert "art_001.txt" in again.output and "--prune" in again.output
    assert "(the whole store)" in again.output
    assert csv_rows(out / "claims.csv") == full
    pruned = run_cli("run", corpus, "--out", out, "--no-progress", "--prune")
    assert pruned.exit_code == 0
    assert "pruned: 1 stored documents" in pruned.output
    assert "warning" not in pruned.output
    n = csv_rows(out / "claims.csv")
    assert 0 < n < full
    summary = pruned.output.splitlines()[0]
    assert summary.endswith(f"; {n} claims")
    conn = sqlite3.connect(f"file:{out / 'specextract.db'}?mode=ro", uri=True)
    assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 2
    assert conn.execute("SELECT count(*) FROM claims WHERE path LIKE '%art_001.txt'"
                        ).fetchone()[0] == 0
    conn.close()


# --- lock paths, file names, export temporaries --------------------------------------------
@pytest.mark.parametrize("kind", ["folder", "dangling-symlink", "symlink"])
def test_a_lock_path_that_is_not_a_file_is_refused(tmp_path, kind):
    corpus = make_corpus(tmp_path / "in", 1)
    out = tmp_path / "out"
    out.mkdir()
    lock = out / "specextract.db.lock"
    target = tmp_path / "elsewhere" / "lock"
    if kind == "folder":
        lock.mkdir()
    elif kind == "dangling-symlink":
        lock.symlink_to(target)
    else:
        target.parent.mkdir()
        lock.symlink_to(target)
    result = run_subprocess("run", corpus, "--out", out, "--no-progress")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "cannot be the store's lock file" in result.stderr
    assert not target.exists()     # no file made through the link
    assert not (out / "specextract.db").exists()


def test_control_and_bidi_characters_in_file_names_are_spelled_out(tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    name = "evil\u202etxt.exe\x1b[31m\u2066.txt"
    (folder / name).write_text("The NVIDIA A100 delivers 19.5 TFLOPS of FP32.\n",
                               encoding="utf-8")
    out = tmp_path / "out"
    result = run_cli("run", folder, "--out", out, "--no-progress")
    assert result.exit_code == 0
    csv_text = (out / "claims.csv").read_text(encoding="utf-8")
    assert "evil\\u202etxt.exe\\x1b[31m\\u2066," in csv_text
    for text in [csv_text] + [p.read_text(encoding="utf-8")
                              for p in (out / "report").rglob("*.html")]:
        assert not any(c in text for c in "\u202e\x1b\u2066")
    export = run_cli("export", "--db", out / "specextract.db", "--format", "jsonl")
    assert "\u202e" not in export.output


def test_exports_use_their_own_temporary_files_and_remove_them(tmp_path, monkeypatch):
    from specextract.output import export
    rows = [{"doc_id": "a", "value": "1"}]
    target = tmp_path / "claims.csv"
    seen = []
    real = export.write_csv_to

    def spy(rows_, fh, cols=None):
        seen.append(Path(fh.name).name)
        return real(rows_, fh, cols)
    monkeypatch.setattr(export, "write_csv_to", spy)
    export.write_csv(rows, target)
    export.write_csv(rows, target)
    assert len(set(seen)) == 2 and all(n.startswith(".claims.csv.") for n in seen)

    def broken(rows_, fh, cols=None):
        raise OSError("disk went away")
    monkeypatch.setattr(export, "write_csv_to", broken)
    with pytest.raises(OSError):
        export.write_csv(rows, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["claims.csv"]
    mask = os.umask(0o022)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
