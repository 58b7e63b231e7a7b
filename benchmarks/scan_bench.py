"""Scan throughput on one set of files: raw ``ast.parse`` vs ``msmigrate scan`` (cold/warm, 1 or N jobs).

    python benchmarks/scan_bench.py examples/resnet_torch --replicate 40

``--replicate N`` copies DIR N times into a temporary folder so the figures are not dominated by noise.
The copies get an mtime a minute in the past (and the benchmark waits until their ctime is two seconds
old), like the files of a project that is scanned again: the scan trusts its manifest (size, mtime, ctime,
inode → content hash and result) only for files changed more than two seconds before the scan that
recorded them, and reads and hashes the others again.
One-time start-up (loading the mapping tables, importing the analyzer) happens before the clock starts;
pool start-up is part of the parallel figure. Every figure is the best of ``--repeat`` runs.

Prints lines/s for: ``ast.parse``; a cold scan with ``--jobs 1`` (empty cache); a cold scan with all
cores; a warm scan (every file a cache hit); and the ratios scan/ast.parse and warm/cold. Each row also
gives its CPU seconds (the scanning process and its pool workers): on a shared machine the CPU-time ratios
of the single-process runs hardly depend on the load, the wall-clock ones do.
"""

from __future__ import annotations

import argparse
import ast
import multiprocessing
import os
import resource
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from msmigrate.scan import ScanOptions, scan_paths
from msmigrate.scan.discovery import discover
from msmigrate.scan.options import default_jobs


def _cpu() -> float:
    """CPU seconds of this process and of its finished (waited-for) child processes."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _reap_children() -> None:
    """Wait until the pool's worker processes have exited, so their CPU time is counted."""
    deadline = time.monotonic() + 30
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.01)


def _best(repeat: int, run: Callable[[], object],
          before: Callable[[], object] | None = None) -> tuple[float, float]:
    """The best wall time and the best CPU time (this process and its workers) of ``repeat`` runs."""
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        if before is not None:
            before()
        _reap_children()
        cpu, start = _cpu(), time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
        _reap_children()
        best_cpu = min(best_cpu, _cpu() - cpu)
    return best, best_cpu


def _corpus(source: Path, copies: int, into: Path) -> Path:
    if copies <= 1:
        return source
    for i in range(copies):
        shutil.copytree(source, into / f"copy{i:03d}", ignore=shutil.ignore_patterns("__pycache__"))
    then = time.time() - 60
    for path in into.rglob("*"):
        if path.is_file():
            os.utime(path, (then, then))
    time.sleep(2.1)  # the ctime (set by utime, never settable) must be as old as that too
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--replicate", type=int, default=40, help="copies of DIR to scan (default 40)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="workers of the parallel run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best one counts")
    args = parser.parse_args(argv)
    if not args.dir.is_dir():
        parser.error(f"not a folder: {args.dir}")

    with tempfile.TemporaryDirectory(prefix="msmigrate-bench-") as tmp:
        tmp_path = Path(tmp)
        corpus = _corpus(args.dir.resolve(), args.replicate, tmp_path / "corpus")
        files = discover([corpus]).files
        sources = [f.path.read_bytes() for f in files]
        lines = sum(data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1) for data in sources)
        cache_dirs = iter(tmp_path / f"cache{i}" for i in range(1000))

        def parse_all() -> None:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SyntaxWarning)
                for data in sources:
                    try:
                        ast.parse(data)
                    except SyntaxError:
                        pass

        def scan(jobs: int, cache_dir: Path) -> None:
            scan_paths([corpus], ScanOptions(jobs=jobs, cache_dir=cache_dir))

        state: dict[str, Path] = {}

        def fresh_cache() -> None:
            state["cache"] = next(cache_dirs)

        # warm-up: import the analyzer and load the tables once, outside every measurement
        scan_paths([files[0].path], ScanOptions(jobs=1, use_cache=False))

        t_ast = _best(args.repeat, parse_all)
        t_cold1 = _best(args.repeat, lambda: scan(1, state["cache"]), fresh_cache)
        t_coldn = _best(args.repeat, lambda: scan(args.jobs, state["cache"]), fresh_cache)
        warm_cache = state["cache"]  # filled by the last cold run
        t_warm = _best(args.repeat, lambda: scan(1, warm_cache))

    rows = [
        ("ast.parse", t_ast),
        ("scan, cold, --jobs 1", t_cold1),
        (f"scan, cold, --jobs {args.jobs}", t_coldn),
        ("scan, warm (cache hits)", t_warm),
    ]
    print(f"corpus: {len(files)} files, {lines} lines ({args.dir} x {max(args.replicate, 1)}); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'run':<28}{'seconds':>10}{'lines/s':>14}{'CPU seconds':>14}")
    for name, (seconds, cpu) in rows:
        print(f"{name:<28}{seconds:>10.3f}{lines / seconds:>14,.0f}{cpu:>14.3f}")
    (wall_ast, cpu_ast), (wall_1, cpu_1), (wall_n, _), (wall_warm, cpu_warm) = (r[1] for r in rows)
    print(f"scan --jobs 1 / ast.parse rate:   {wall_ast / wall_1:.3f}x (CPU time: {cpu_ast / cpu_1:.3f}x)")
    print(f"scan --jobs {args.jobs} / ast.parse rate:   {wall_ast / wall_n:.3f}x")
    print(f"--jobs {args.jobs} speed-up over --jobs 1:  {wall_1 / wall_n:.2f}x")
    print(f"warm / cold (--jobs 1) time:      {wall_warm / wall_1:.1%} (CPU time: {cpu_warm / cpu_1:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
