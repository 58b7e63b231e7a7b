"""Run generated test programs in one framework and save each program's ``result`` (a subprocess).

Usage: ``python run_programs.py torch|mindspore PROGRAMS.json OUT_FOLDER``. Programs are the suite's own
generated sources (never user code). With ``mindspore``, ``torch`` cannot be imported (a meta-path
finder refuses it), so a converted program that still needs torch fails as it would for a user.
Each program's outcome is appended as one JSON line to ``OUT_FOLDER/outcomes.jsonl`` as soon as it
finishes (a crash of the interpreter loses only the program that crashed; the caller restarts after it),
and its result leaves go to ``OUT_FOLDER/<id>.npz``.

``... OUT_FOLDER --rank R --world N --sync FOLDER --ports P1,P2,...``: one rank of a process group (the
launcher, group_runner.run_group_programs, sets the framework's environment). The ranks start each program
together (a file barrier in the sync folder), so a rank that failed early cannot pair its next program's
collectives with another rank's current ones; torch's group of the previous program is destroyed first
and each program meets at a port of its own (MASTER_PORT).
"""

from __future__ import annotations

import importlib.abc
import json
import os
import signal
import sys
import time
import traceback
from pathlib import Path

TIMEOUT_S = 20
SYNC_TIMEOUT_S = 120


class _NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):  # noqa: ANN001
        if name == "torch" or name.startswith("torch."):
            raise ModuleNotFoundError(f"No module named {name!r} (torch is blocked for converted programs)")
        return None


def _leaves(value, fw: str) -> list:  # noqa: ANN001
    import numpy as np

    if isinstance(value, list | tuple):
        out = []
        for item in value:
            out.extend(_leaves(item, fw))
        return out
    if fw == "torch":
        import torch

        if isinstance(value, torch.Tensor):
            value = value.detach().cpu()
            if value.dtype == torch.bfloat16 or (value.is_floating_point() and value.element_size() == 1):
                value = value.float()  # NumPy has no bfloat16 / float8
            return [value.resolve_conj().resolve_neg().numpy()]
        if isinstance(value, torch.dtype):  # compared by name: "float32"
            return [np.asarray(str(value).removeprefix("torch."))]
    else:
        import mindspore

        if isinstance(value, mindspore.Tensor):
            if value.dtype == mindspore.bfloat16 or "float8" in str(value.dtype).lower():
                value = value.astype(mindspore.float32)  # NumPy has no bfloat16 / float8
            return [value.asnumpy()]
        if isinstance(value, mindspore.dtype.Type):  # compared by name: Float32 → "float32"
            return [np.asarray(str(value).lower())]
    if isinstance(value, bool | int | float | complex | str | np.generic | np.ndarray):
        return [np.asarray(value)]
    raise TypeError(f"result is a {type(value).__name__}")


def _timeout(_signum, _frame):  # noqa: ANN001
    raise TimeoutError(f"program ran longer than {TIMEOUT_S} s")


def _group_args(argv: list[str]) -> tuple[int, int, Path, list[str]] | None:
    """(rank, world size, sync folder, the torch rendezvous port of each program) of a process-group
    run, else ``None``."""
    if "--rank" not in argv:
        return None
    value = {argv[i]: argv[i + 1] for i in range(0, len(argv) - 1, 2)}
    return int(value["--rank"]), int(value["--world"]), Path(value["--sync"]), value["--ports"].split(",")


def _barrier(group: tuple[int, int, Path, list[str]], index: int) -> None:
    """Wait until every rank reaches program ``index`` (exits when one does not come)."""
    rank, world, sync, _ports = group
    (sync / f"{index}.{rank}").touch()
    deadline = time.monotonic() + SYNC_TIMEOUT_S
    while sum((sync / f"{index}.{r}").exists() for r in range(world)) < world:
        if time.monotonic() > deadline:
            sys.exit(3)
        time.sleep(0.02)


def main() -> int:
    fw, programs_path, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    group = _group_args(sys.argv[4:])
    if fw == "mindspore":
        sys.meta_path.insert(0, _NoTorch())
    import numpy as np

    if fw == "mindspore":
        import mindspore

        mindspore.set_context(mode=mindspore.PYNATIVE_MODE, device_target="CPU")
        # MindSpore 2.10 with NumPy 2 fails the first Tensor×Tensor of a process once: warm up first
        for _ in range(2):
            try:
                _ = mindspore.Tensor(np.ones(2, np.float32)) * mindspore.Tensor(np.ones(2, np.float32))
            except Exception:  # noqa: BLE001
                pass
    else:
        import torch

        torch.set_num_threads(1)
    signal.signal(signal.SIGALRM, _timeout)
    programs = json.loads(programs_path.read_text(encoding="utf-8"))
    with (out / "outcomes.jsonl").open("a", encoding="utf-8") as log:
        for index, program in enumerate(programs):
            if group is not None:
                _barrier(group, index)
                if fw == "torch":
                    if torch.distributed.is_initialized():
                        torch.distributed.destroy_process_group()
                    os.environ["MASTER_PORT"] = group[3][index]
            log.write(json.dumps({"id": program["id"], "started": True}) + "\n")
            log.flush()
            namespace: dict = {"__name__": "__converted__"}
            outcome: dict = {"id": program["id"]}
            signal.alarm(TIMEOUT_S)
            try:
                exec(compile(program["source"], f"<{program['id']}>", "exec"), namespace)  # noqa: S102
                leaves = _leaves(namespace["result"], fw)
                if fw == "mindspore":  # PyNative runs ops asynchronously: an op's error belongs to it
                    mindspore.runtime.synchronize()
                np.savez(out / f"{program['id']}.npz", *leaves)
                outcome["ok"] = True
                outcome["has_parameters"] = _has_parameters(namespace, fw)
            except BaseException as exc:  # noqa: BLE001 - every failure is an outcome
                outcome["ok"] = False
                outcome["error"] = f"{type(exc).__name__}: {exc}"[:600]
                outcome["where"] = traceback.format_exc(limit=-1)[-400:]
                outcome["line"] = _program_line(exc, f"<{program['id']}>")
            finally:
                signal.alarm(0)
                if fw == "mindspore":  # leave no queued error behind for the next program
                    try:
                        mindspore.runtime.synchronize()
                    except Exception:  # noqa: BLE001
                        pass
            log.write(json.dumps(outcome) + "\n")
            log.flush()
    return 0


def _program_line(exc: BaseException, filename: str) -> int | None:
    """The line of the program (compiled as ``filename``) the exception came through last."""
    line = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        if frame.f_code.co_filename == filename:
            line = lineno
    return line


def _has_parameters(namespace: dict, fw: str) -> bool:
    """Whether the program built a module with trainable parameters (their random initial values
    differ between frameworks, so only shapes and dtypes are comparable)."""
    for value in namespace.values():
        params = getattr(value, "parameters" if fw == "torch" else "get_parameters", None)
        if callable(params) and type(value).__module__.split(".")[0] in ("torch", "mindspore"):
            try:
                if any(True for _ in params()):
                    return True
            except Exception:  # noqa: BLE001
                continue
    return False


if __name__ == "__main__":
    sys.exit(main())
