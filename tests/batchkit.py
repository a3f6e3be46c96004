"""Helpers for the batch tests: generated articles, CLI calls, store dumps."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from click.testing import CliRunner

from specextract.cli import cli

SENTENCES = (
    "NVIDIA A100 的单精度算力为 {fp32} TFLOPS，显存带宽为 {bw} TB/s，功耗 {tdp}W。",
    "The NVIDIA H100 delivers {fp64} TFLOPS of FP64 and has {mem}GB of HBM3 memory.",
    "輝達 V100 的記憶體頻寬為 {vbw} GB/s，單精度運算 {vfp32} TFLOPS。",
    "RTX 4090 的显存为 {gmem}GB，功耗 {gtdp}W。",
)
REFERENCE = """chip,variant,attribute,value,unit,condition,source,confidence
NVIDIA A100,80GB SXM4,fp32,{a100_fp32},TFLOPS,non-tensor,https://example.org/a100,high
NVIDIA A100,80GB SXM4,memory_bandwidth,2039,GB/s,,https://example.org/a100,high
NVIDIA H100,SXM5 80GB,fp64,34,TFLOPS,non-tensor,https://example.org/h100,high
"""


def article(i: int, paragraphs: int = 1) -> str:
    """A deterministic article; values vary with ``i`` so some claims are wrong."""
    out = [f"# 第 {i} 篇：加速卡规格\n"]
    for p in range(paragraphs):
        k = i + p
        values = dict(fp32=("19.5", "15", "21")[k % 3], bw=("2", "1.6", "3")[k % 3],
                      tdp=300 + 50 * (k % 3), fp64=("34", "60", "67")[k % 3],
                      mem=(80, 94, 96)[k % 3], vbw=(900, 1134 + p, 897)[k % 3],
                      vfp32=("15.7", "14", "16.4")[k % 3], gmem=(24, 24, 48)[k % 3],
                      gtdp=450 + p)
        out.extend(s.format(**values) for s in SENTENCES)
        out.append("")
    return "\n".join(out)


def make_corpus(folder: Path, n: int, paragraphs: int = 1) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"art_{i:03d}.txt").write_text(article(i, paragraphs), encoding="utf-8")
    return folder


def write_reference(path: Path, a100_fp32: str = "19.5") -> Path:
    path.write_text(REFERENCE.format(a100_fp32=a100_fp32), encoding="utf-8")
    return path


def run_cli(*args: str):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def dump_store(db: Path) -> tuple[list, list]:
    """Documents and claims of a store, run-specific columns (processed_at) left out."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(documents)")
                if r[1] != "processed_at"]
        docs = conn.execute(f"SELECT {', '.join(cols)} FROM documents ORDER BY path").fetchall()
        claims = conn.execute("SELECT * FROM claims ORDER BY path, seq").fetchall()
    finally:
        conn.close()
    return docs, claims


def store_count(db: Path, table: str = "documents") -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


def die_on_kill_me(task) -> dict:
    """A task for a worker process: one whose path names ``kill-me`` ends its process with
    SIGKILL, as the out-of-memory killer would; the others say where they ran."""
    import os
    import signal
    if "kill-me" in task.path:
        os.kill(os.getpid(), signal.SIGKILL)
    return {"path": task.path, "pid": os.getpid()}


def echo(task) -> dict:
    """A task for a worker process: its own copy back (as large as the task)."""
    return {"task": task}
