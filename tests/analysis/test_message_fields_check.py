"""``i18n.renders`` tells from a message's fields whether it renders (the scan cache's check of finding
kinds, which no longer formats each message): it agrees with rendering on every message of the catalogue
with its fields given, one missing, and message references valid, to no message, or malformed."""

from __future__ import annotations

import string
from typing import Any

import pytest

from msmigrate.i18n import catalogue, renders, t


def _rendered(key: str, fields: dict[str, Any]) -> bool:
    try:
        for lang in ("en", "zh"):
            t(key, lang, **fields)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return False
    return True


def _names(key: str) -> dict[str, bool]:
    names: dict[str, bool] = {}
    for text in catalogue()[key]:
        for _, name, spec, _ in string.Formatter().parse(text):
            if name is not None:
                names[name] = names.get(name, False) or spec == "messages"
    return names


_GOOD_REF = [["analysis.api.consistent", [["torch_api", "a"], ["mindspore_api", "b"], ["version", "2.6"]]]]
_REF_VALUES: list[Any] = [
    _GOOD_REF, [], (("common.list_separator", ()),), [["no.such.message", []]],
    [["analysis.api.consistent", [["torch_api", "a"]]]], [["analysis.api.consistent", []]],
    "text", [["analysis.api.consistent"]], [[1, []]], [["analysis.api.consistent", [[1, 2]]]],
    [["analysis.api.consistent", ["ab"]]], {"ab": 1},
]


def _cases() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for key in sorted(catalogue()):
        names = _names(key)
        full = {name: (_GOOD_REF if refs else "v") for name, refs in names.items()}
        cases.append((key, {**full, "_": None}))
        for name in names:
            cases.append((key, {**{k: v for k, v in full.items() if k != name}, "_": None}))
        for name, refs in names.items():
            if refs:
                cases += [(key, {**full, name: value, "_": None}) for value in _REF_VALUES]
    return cases


def test_renders_agrees_with_rendering_on_every_message() -> None:
    told = 0
    for key, fields in _cases():
        verdict = renders(key, fields)
        if verdict is not None:
            assert verdict is _rendered(key, fields), (key, fields)
            told += 1
    assert told > 1000  # decided without rendering in most cases


@pytest.mark.parametrize(("key", "fields", "verdict"), [
    ("analysis.api.consistent", {"torch_api": "a", "mindspore_api": "b", "version": "2.6"}, True),
    ("analysis.api.consistent", {"torch_api": "a", "version": "2.6"}, False),
    ("analysis.api.consistent", {}, True),  # t() returns the text unformatted
    ("no.such.message", {"x": 1}, None),
    ("analysis.api.differences", {"torch_api": "a", "mindspore_api": "b", "details": [["no.such", []]]},
     None),
])
def test_renders_verdicts(key: str, fields: dict[str, Any], verdict: bool | None) -> None:
    assert renders(key, fields) is verdict
