"""Decide which Tensor-method calls on receivers of unknown type are reported as possible Tensor APIs.

A candidate (``obj.view(-1)`` with ``obj`` of unknown type) becomes a ``possible_tensor_api`` finding only
when the file imports torch, the method name is not a common method of Python builtins, numpy or pandas
(:data:`COMMON_NON_TENSOR_METHODS`), and the call's arguments fit one of the method's torch signatures.
jedi may settle the receiver's type within a per-file time budget: a ``torch.Tensor`` makes the finding
definite, any other inferred type drops it.
"""

from __future__ import annotations

import ast
import hashlib
import logging
import time
from collections import OrderedDict
from typing import Any

log = logging.getLogger(__name__)

# Method names shared with everyday non-tensor objects; on an unknown receiver they are not reported.
COMMON_NON_TENSOR_METHODS: frozenset[str] = frozenset(
    {
        # list / dict / set / str
        "append", "extend", "insert", "remove", "pop", "clear", "index", "count", "sort", "reverse", "copy",
        "keys", "values", "items", "get", "update", "setdefault", "popitem", "add", "discard", "union",
        "split", "rsplit", "join", "strip", "replace", "format", "lower", "upper", "startswith", "endswith",
        "find", "encode", "decode", "partition",
        # numpy ndarray / pandas
        "sum", "mean", "max", "min", "std", "var", "prod", "all", "any", "argmax", "argmin", "cumsum",
        "cumprod", "round", "clip", "abs", "dot", "nonzero", "reshape", "transpose", "flatten", "ravel",
        "squeeze", "repeat", "swapaxes", "diagonal", "trace", "conj", "item", "tolist", "argsort", "resize",
        "take", "put", "fill", "astype", "tobytes", "unique", "median", "mode", "rename", "where", "apply",
        "map", "diff", "sample", "quantile",
        # files, paths, loggers and other common objects
        "write", "read", "close", "flush", "open", "exists", "log", "info", "debug", "warning", "error",
        "set", "new",
    }
)

_JEDI_CACHE: OrderedDict[tuple[str, str], dict[tuple[int, int], str | None]] = OrderedDict()
_JEDI_CACHE_SIZE = 64


def excluded(name: str) -> bool:
    return name in COMMON_NON_TENSOR_METHODS or (name.startswith("__") and name.endswith("__"))


def arguments_fit(call: ast.Call, signatures: list[list[dict[str, Any]]]) -> bool:
    """Whether the call's positional count and keyword names fit at least one signature."""
    if not signatures:
        return True
    positional = 0
    for arg in call.args:
        if type(arg) is ast.Starred:
            return True  # cannot count
        positional += 1
    keywords = []
    for keyword in call.keywords:
        if keyword.arg is None:
            return True  # **kwargs: cannot tell
        keywords.append(keyword.arg)
    return any(_fits(positional, keywords, signature) for signature in signatures)


def _fits(positional: int, keywords: list[str], signature: list[dict[str, Any]]) -> bool:
    params = [p for p in signature if p.get("name") != "self"]
    var_positional = any(p["kind"] == "var_positional" for p in params)
    var_keyword = any(p["kind"] == "var_keyword" for p in params)
    positional_params = [p for p in params if p["kind"] in ("positional_only", "positional_or_keyword")]
    if positional > len(positional_params) and not var_positional:
        return False
    filled = {p["name"] for p in positional_params[:positional]}
    by_name = {p["name"]: p for p in params if p["kind"] in ("positional_or_keyword", "keyword_only")}
    for name in keywords:
        if name in filled:
            return False
        if name not in by_name and not var_keyword:
            return False
        filled.add(name)
    for p in params:
        if "default" not in p and p["kind"] in ("positional_only", "positional_or_keyword", "keyword_only"):
            if p["name"] not in filled:
                return False
    return True


class JediOracle:
    """Infers receiver types with jedi, within a time budget, cached per (path, content hash)."""

    def __init__(self, source: str, path: str, budget_s: float) -> None:
        self.source = source
        self.path = path
        self.deadline = time.perf_counter() + budget_s
        key = (path, hashlib.sha1(source.encode("utf-8", "surrogatepass")).hexdigest())
        cached = _JEDI_CACHE.get(key)
        if cached is None:
            cached = _JEDI_CACHE[key] = {}
            if len(_JEDI_CACHE) > _JEDI_CACHE_SIZE:
                _JEDI_CACHE.popitem(last=False)
        else:
            _JEDI_CACHE.move_to_end(key)
        self.cache = cached
        self._script = None

    def receiver_type(self, line: int, column: int) -> str | None:
        """Full name of the type jedi infers at ``line``/``column`` (0-based code points), ``""`` for
        "inferred, but nothing torch", or ``None`` when undecided (no answer or budget spent)."""
        key = (line, column)
        if key in self.cache:
            return self.cache[key]
        if time.perf_counter() >= self.deadline:
            return None
        try:
            import jedi

            if self._script is None:
                self._script = jedi.Script(self.source, path=self.path or None)
            names = self._script.infer(line, column)
        except Exception as exc:  # jedi failing on odd code must never break analysis
            log.debug("jedi failed at %s:%s:%s: %s", self.path, line, column, exc)
            names = []
        answer: str | None = None
        for name in names:
            full = name.full_name or ""
            if full in ("torch.Tensor", "torch._tensor.Tensor", "torch.nn.parameter.Parameter"):
                answer = "torch.Tensor"
                break
            if name.type in ("instance", "class", "module", "function", "statement") and full:
                answer = ""
        self.cache[key] = answer
        return answer
