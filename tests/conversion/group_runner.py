"""The process-group runner of the conversion suite: every rank of a group of processes on this machine
runs the same programs (``run_programs.py --rank``), started as a user's launcher starts them (torchrun's
environment for torch, msrun's scheduler and environment for MindSpore; loopback, free ports), with a
watch that stops a group whose ranks wait for a peer that failed."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from group_programs import WORLD

RUNNER = Path(__file__).resolve().parent / "run_programs.py"

STALL_S = 60  # a process group whose ranks all make no progress this long is stopped
GRACE_S = 5  # … or whose ranks are still in a program another rank finished this long ago (a peer left)
_SCHEDULER = "import mindspore; mindspore.set_device('CPU'); mindspore.communication.init()"


def _free_ports(count: int) -> list[int]:
    """``count`` different free loopback ports."""
    socks = [socket.socket() for _ in range(count)]
    try:
        for sock in socks:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in socks]
    finally:
        for sock in socks:
            sock.close()


def _rank_env(framework: str, rank: int, world: int, port: int) -> dict[str, str]:
    """What a launcher (torchrun, msrun) tells rank ``rank`` of a group on this machine."""
    env = dict(os.environ)
    if framework == "torch":
        env.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), LOCAL_RANK=str(rank),
                   WORLD_SIZE=str(world), GLOO_SOCKET_IFNAME="lo")
    else:
        env.update(MS_ROLE="MS_WORKER" if rank >= 0 else "MS_SCHED", MS_WORKER_NUM=str(world),
                   MS_SCHED_HOST="127.0.0.1", MS_SCHED_PORT=str(port), GLOG_v="3")
        if rank >= 0:
            env["MS_NODE_ID"] = str(rank)
    return env


def _log_entries(log: Path) -> list[dict[str, Any]]:
    """The complete lines of a runner's outcome log (one being written may end in half a line)."""
    text = log.read_text(encoding="utf-8") if log.exists() else ""
    return [json.loads(line) for line in text.split("\n")[:-1] if line]


def _left_behind(logs: list[Path]) -> bool:
    """Whether a rank is still in a program that another rank has finished."""
    finished: set[str] = set()
    current: list[str] = []
    for log in logs:
        started = None
        for entry in _log_entries(log):
            if entry.get("started"):
                started = entry["id"]
            else:
                finished.add(entry["id"])
                started = None
        if started is not None:
            current.append(started)
    return any(pid in finished for pid in current)


def run_group_programs(framework: str, programs: list[tuple[str, str]], work: Path,
                       world: int = WORLD) -> list[dict[str, dict[str, Any]]]:
    """Run ``(id, source)`` programs on every rank of a process group of ``world`` processes on this
    machine (loopback, free ports), each rank all programs in turn; one result dict per rank. A group
    that stops making progress (a rank waits for a peer that failed) is stopped after ``STALL_S``: the
    program it was in fails on the ranks that had not finished it, and a new group runs the rest."""
    results: list[dict[str, dict[str, Any]]] = [{} for _ in range(world)]
    pending = list(programs)
    launch = idle = 0
    while pending:
        root = work / f"launch{launch}"
        launch += 1
        outs = [root / f"rank{r}" for r in range(world)]
        for folder in (*outs, root / "sync"):
            folder.mkdir(parents=True, exist_ok=True)
        batch = root / "batch.json"
        batch.write_text(json.dumps([{"id": i, "source": s} for i, s in pending]), encoding="utf-8")
        # torch: a fresh rendezvous port per program (torchrun's per launch); MindSpore: the scheduler's
        port, *program_ports = _free_ports(1 + len(pending))
        procs = []
        if framework == "mindspore":  # msrun's scheduler process
            env = _rank_env(framework, -1, world, port)
            procs.append(subprocess.Popen([sys.executable, "-c", _SCHEDULER], stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, env=env))
        errs = [root / f"rank{r}.err" for r in range(world)]  # a file: MindSpore logs much to stderr
        ranks = []
        for r, out in enumerate(outs):
            command = [sys.executable, str(RUNNER), framework, str(batch), str(out), "--rank", str(r),
                       "--world", str(world), "--sync", str(root / "sync"),
                       "--ports", ",".join(map(str, program_ports))]
            with errs[r].open("w", encoding="utf-8") as err:
                ranks.append(subprocess.Popen(command, env=_rank_env(framework, r, world, port),
                                              stdout=subprocess.DEVNULL, stderr=err))
        logs = [out / "outcomes.jsonl" for out in outs]
        seen, last, waiting, stopped = -1, time.monotonic(), None, ""
        while any(proc.poll() is None for proc in ranks):
            size = sum(log.stat().st_size for log in logs if log.exists())
            if size != seen:
                seen, last = size, time.monotonic()
                waiting = last if _left_behind(logs) else None
            if time.monotonic() - last > STALL_S:
                stopped = f"no rank made progress for {STALL_S} s"
                break
            if waiting and time.monotonic() - waiting > GRACE_S:
                stopped = f"still waiting {GRACE_S} s after another rank had finished the program"
                break
            time.sleep(0.1)
        exits = [proc.poll() for proc in ranks]  # None: still running (stopped below)
        # the processes this launch started, by their own handle: all at once (a rank that saw its peer
        # go would report that instead of the wait it was stopped in)
        for proc in (*ranks, *procs):
            if proc.poll() is None:
                proc.kill()
        for proc in (*ranks, *procs):
            proc.wait()
        done: set[str] = set()
        progressed = False
        for rank, log in enumerate(logs):
            started = None
            for entry in _log_entries(log):
                if entry.get("started"):
                    started = entry["id"]
                    continue
                started, progressed = None, True
                entry["folder"] = str(outs[rank])
                results[rank][entry["id"]] = entry
            if started is not None:
                error = f"stopped: {stopped or 'the rank exited'}"
                if exits[rank] is not None:
                    error = f"crashed (exit {exits[rank]})"
                results[rank][started] = {"id": started, "ok": False, "error": error}
                done.add(started)
        finished = [i for i, _ in pending if all(i in per_rank for per_rank in results)]
        done.update(finished)
        idle = 0 if progressed else idle + 1
        if idle == 2:  # twice no rank finished a program: the group itself does not form, stop here
            for rank, err in enumerate(errs):
                tail = err.read_text(encoding="utf-8", errors="replace")[-300:]
                error = results[rank].get(pending[0][0], {}).get("error") or f"launch failed: {tail}"
                for i, _ in pending:
                    results[rank].setdefault(i, {"id": i, "ok": False, "error": error})
            break
        for rank in range(world):  # a program some ranks finished and others never started
            for i in done:
                results[rank].setdefault(i, {"id": i, "ok": False, "error": "not run: the group was stopped"})
        pending = [(i, s) for i, s in pending if i not in done]
    return results
