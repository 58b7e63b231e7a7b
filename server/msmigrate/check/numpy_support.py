"""Whether the worker's NumPy is one MindSpore can use.

MindSpore 2.10 carries a NumPy bridge built for NumPy 1.x; under NumPy 2 it logs "Numpy init failed" at
import, and the first Tensor operations of a process fail (``Tensor * Tensor``, ``Tensor.view(tuple)``
raise ``SystemError``). A check in such an interpreter may record such a false failure, and so may the
user's migrated program. The ``check`` extra pins ``numpy<2``; the worker reports its NumPy version
(``CheckResult.numpy_version``) and the callers warn with :func:`numpy_warning`.
"""

from __future__ import annotations

from collections.abc import Iterable

from msmigrate.i18n import t
from msmigrate.knowledge.check_result import CheckResult

FIRST_UNUSABLE_MAJOR = 2


def numpy_unusable(version: str | None) -> bool:
    """NumPy ``version`` is one MindSpore's bridge cannot use (2.0 and later)."""
    major = (version or "").split(".", 1)[0]
    return major.isdigit() and int(major) >= FIRST_UNUSABLE_MAJOR


def numpy_warning(results: Iterable[CheckResult], lang: str | None, python: str) -> str | None:
    """The warning for the first result whose worker ran an unusable NumPy, or ``None``."""
    for result in results:
        if numpy_unusable(result.numpy_version):
            return t("check.numpy_unusable", lang, numpy=result.numpy_version,
                     mindspore=result.mindspore_version or "?", python=python)
    return None
