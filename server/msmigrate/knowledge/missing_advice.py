"""What to do about a torch API that has no MindSpore mapping: the four policies, as data.

The seeds name four ways to handle a missing API, tried in order: (1) an equivalent replacement,
(2) a composition of existing APIs, (3) a custom operator, (4) asking the community. ``CATALOGUE``
(the data file ``knowledge/facts/missing_advice.toml``, read by ``advice_catalogue``) records, for the torch
APIs most often met in real code that have no row in the mapping table, which policy applies, the MindSpore
APIs to use, a note (``advice.note.<id>`` in ``messages/rules_advice.py``), a MindSpore snippet written for
this project and the quick-fix kind, if the rewrite can be exact.

Two facts are derived rather than listed: a ``torch.Tensor`` method whose function form
(``x.squeeze(1)`` → ``torch.squeeze(x, 1)``) is mapped, and an API that another bundled table version
maps. ``advice_for`` combines them; hover, ``lookup`` and the ``MSM2xx`` rules show its result.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from msmigrate.i18n import normalize_lang, t
from msmigrate.knowledge.advice_catalogue import CatalogueEntry, Policy, catalogue
from msmigrate.knowledge.model import MappingCategory
from msmigrate.knowledge.snippets import SNIPPETS

if TYPE_CHECKING:
    from msmigrate.knowledge.base import KnowledgeBase


RULE_FOR_POLICY: dict[Policy, str] = {
    Policy.EQUIVALENT: "MSM201",
    Policy.COMPOSE: "MSM202",
    Policy.CUSTOM_OPERATOR: "MSM203",
    Policy.COMMUNITY: "MSM204",
}

COMMUNITY_NEW_ISSUE = "https://gitee.com/mindspore/mindspore/issues/new"
POLICY_DOC = "https://www.mindspore.cn/docs/{lang}/r2.5.0/migration_guide/missing_api_processing_policy.html"
CUSTOM_OP_DOC = "https://www.mindspore.cn/docs/{lang}/r2.5.0/model_train/custom_program/op_custom.html"
THIRD_PARTY_OP_DOC = "https://www.mindspore.cn/docs/{lang}/r2.5.0/migration_guide/use_third_party_op.html"
CUSTOM_API_DOC = "https://www.mindspore.cn/docs/{lang}/r2.6.0/api_python/ops/mindspore.ops.Custom.html"

# Tensor methods whose function form takes its arguments differently (never rewritten mechanically).
_NOT_FUNCTION_FORM = frozenset({"where", "type", "to", "view", "size", "expand", "repeat", "new_empty"})
NAME_FIX = "mindspore_name"  # the reference itself is replaced by the MindSpore name (dtypes)
# ``x.detach()`` → ``mindspore.ops.stop_gradient(x)``: the receiver passed to the MindSpore function
# (fixes/receiver_function_fixes.py)
RECEIVER_FUNCTION = "receiver_function"

# Methods that accept their sizes as separate arguments (``x.permute(0, 2, 1)``) while the function
# takes one tuple (``torch.permute(x, (0, 2, 1))``).
VARARG_METHODS = frozenset({"permute", "flip", "reshape", "tile", "broadcast_to"})
CATALOGUE: dict[str, CatalogueEntry] = catalogue().entries  # knowledge/facts/missing_advice.toml


@dataclass(slots=True)
class MissingAdvice:
    """The advice for one unmapped torch API (see :func:`advice_for`)."""

    torch_api: str
    mindspore_version: str
    policy: Policy | None  # None: not catalogued, every policy is open
    replacements: tuple[str, ...] = ()
    note_key: str = "advice.note.uncatalogued"
    note_args: dict[str, Any] = field(default_factory=dict)
    snippet: str | None = None  # MindSpore code written by this project
    fix: str | None = None
    pattern_rule: str | None = None
    other_versions: dict[str, str] = field(default_factory=dict)  # table version → MindSpore API

    @property
    def rule(self) -> str:
        return RULE_FOR_POLICY[self.policy] if self.policy else "MSM200"

    def community_url(self) -> str:
        title = f"[Feature] Support an equivalent of {self.torch_api}"
        return f"{COMMUNITY_NEW_ISSUE}?title={quote(title, safe='')}"

    def links(self, lang: str = "en") -> list[tuple[str, str]]:
        """(label, url) pairs: the policy page, custom operators where relevant, the community."""
        site = "zh-CN" if normalize_lang(lang) == "zh" else "en"
        found = [(t("advice.link.policy", lang), POLICY_DOC.format(lang=site))]
        if self.policy in (None, Policy.CUSTOM_OPERATOR):
            found.append((t("advice.link.custom_op", lang), CUSTOM_OP_DOC.format(lang=site)))
            found.append((t("advice.link.custom_api", lang), CUSTOM_API_DOC.format(lang=site)))
            found.append((t("advice.link.third_party_op", lang), THIRD_PARTY_OP_DOC.format(lang=site)))
        found.append((t("advice.link.community", lang), self.community_url()))
        return found

    def headline(self, lang: str = "en") -> str:
        key = f"advice.policy.{int(self.policy)}" if self.policy else "advice.policy.none"
        return t(key, lang)

    def note(self, lang: str = "en") -> str:
        return t(self.note_key, lang, **self.note_args)

    def extra_lines(self, lang: str = "en") -> list[str]:
        """The custom-operator route and the pattern rule (other table versions are shown by lookup)."""
        lines = []
        if self.policy in (None, Policy.CUSTOM_OPERATOR):
            lines.append(t("advice.custom_op_route", lang))
        if self.pattern_rule:
            lines.append(t("advice.see_rule", lang, rule=self.pattern_rule))
        return lines

    def render_text(self, lang: str = "en") -> str:
        parts = [
            f"{self.headline(lang)} ({self.rule})",
            t("advice.unmapped", lang, torch_api=self.torch_api, version=self.mindspore_version),
            self.note(lang),
        ]
        if self.replacements:
            parts.append(t("advice.replacements", lang, apis=", ".join(self.replacements)))
        parts.extend(self.extra_lines(lang))
        if self.snippet:
            parts.append(t("advice.snippet", lang))
            parts.append(_indent(SNIPPETS[self.snippet]))
        parts.extend(f"{label}: {url}" for label, url in self.links(lang))
        return "\n".join(parts)

    def render_markdown(self, lang: str = "en") -> str:
        parts = [
            f"**{_md_escape(self.headline(lang))}** ({self.rule})",
            "",
            _md_escape(t("advice.unmapped", lang, torch_api=self.torch_api, version=self.mindspore_version)),
            "",
            _md_escape(self.note(lang)),
        ]
        if self.replacements:
            apis = ", ".join(f"`{api}`" for api in self.replacements)
            parts += ["", t("advice.replacements", lang, apis=apis)]
        for line in self.extra_lines(lang):
            parts += ["", _md_escape(line)]
        if self.snippet:
            parts += ["", t("advice.snippet", lang), "", "```python", SNIPPETS[self.snippet].rstrip(), "```"]
        parts += ["", " · ".join(f"[{_md_escape(label)}]({url})" for label, url in self.links(lang))]
        return "\n".join(parts)

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return {
            "torch_api": self.torch_api,
            "policy": int(self.policy) if self.policy else None,
            "rule": self.rule,
            "title": self.headline(lang),
            "note": self.note(lang),
            "mindspore_apis": list(self.replacements),
            "other_versions": dict(self.other_versions),
            "snippet": SNIPPETS[self.snippet] if self.snippet else None,
            "links": [{"label": label, "url": url} for label, url in self.links(lang)],
        }


def _indent(code: str) -> str:
    return "\n".join("    " + line if line else line for line in code.rstrip().splitlines())


def _md_escape(text: str) -> str:
    """Escape the characters that would start Markdown markup in plain text (backticks stay: code)."""
    return "".join("\\" + ch if ch in "*_[]<>#|" else ch for ch in text)


def same_name_method(torch_api: str, kb: KnowledgeBase) -> str | None:
    """``mindspore.Tensor.X`` for an unmapped tensor method ``torch.Tensor.X`` that MindSpore has as a
    tensor method of the same name (preferred to a function form whose differences only a difference
    page tells, ``torch.flatten`` → ``ops.flatten``)."""
    prefix = "torch.Tensor."
    if not torch_api.startswith(prefix) or kb.torch_kind(torch_api) != "tensor_method":
        return None
    name = "mindspore.Tensor." + torch_api[len(prefix):]
    entry = kb.mindspore_inventory.get(name)
    return name if entry is not None and entry.get("kind") == "tensor_method" else None


def function_form(torch_api: str, kb: KnowledgeBase) -> str | None:
    """``torch.X`` when ``torch.Tensor.X`` is unmapped, ``torch.X`` is mapped (by the table or a derived
    mapping: ``x.relu()`` → ``torch.relu(x)`` → ``ops.relu(x)``) and takes the tensor first."""
    prefix = "torch.Tensor."
    if not torch_api.startswith(prefix):
        return None
    method = torch_api[len(prefix) :]
    if method in _NOT_FUNCTION_FORM or method.endswith("_") or method.startswith("_"):
        return None
    function = f"torch.{method}"
    if (
        kb.row(torch_api) is None
        and (kb.row(function) is not None or kb.derived(function) is not None)
        and kb.torch_kind(torch_api) == "tensor_method"
    ):
        return function
    return None


@cache
def _other_versions(torch_api: str, version: str) -> dict[str, str]:
    from msmigrate.knowledge.base import VERSIONS, get_knowledge_base

    found: dict[str, str] = {}
    for other in VERSIONS:
        if other == version:
            continue
        kb = get_knowledge_base(other)
        row = kb.row(torch_api)
        if row is not None and row.mindspore_api and row.mindspore_api != kb.gone_target(torch_api):
            found[other] = row.mindspore_api
    return found


def _catalogue_by_canonical(kb: KnowledgeBase) -> dict[str, CatalogueEntry]:
    """The catalogue under the canonical names of its entries (``torch.nn.functional.pixel_unshuffle``
    is the same function as ``torch.pixel_unshuffle``)."""
    found = _BY_CANONICAL.get(kb)
    if found is None:
        found = _BY_CANONICAL[kb] = {}
        for name, entry in CATALOGUE.items():
            found.setdefault(kb.canonical(name), entry)
    return found


_BY_CANONICAL: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def advice_for(torch_api: str, kb: KnowledgeBase) -> MissingAdvice | None:
    """Advice for a real torch API without a row in ``kb``'s table; ``None`` when it is mapped or unknown."""
    written = kb.expand(torch_api)
    torch_api = kb.canonical(torch_api)
    if kb.row(torch_api) is not None or not kb.is_torch_api(torch_api) or kb.is_data_processing(torch_api):
        return None
    if kb.derived(torch_api) is not None:
        return None  # a derived mapping answers it (never "no mapping; equivalent replacement …")
    others = _other_versions(torch_api, kb.version)
    entry = CATALOGUE.get(written) or _catalogue_by_canonical(kb).get(torch_api)
    owner = torch_api.rpartition(".")[0]
    if entry is None and kb.torch_kind(torch_api) == "attribute" and kb.torch_kind(owner) == "class":
        entry = _catalogue_by_canonical(kb).get(owner)  # ``ReduceOp.SUM``: the advice for ``ReduceOp``
    if entry is not None:
        return MissingAdvice(
            torch_api=torch_api,
            mindspore_version=kb.version,
            policy=entry.policy,
            replacements=entry.replacements,
            note_key=f"advice.note.{entry.note}",
            note_args=_note_args(torch_api, entry.replacements),
            snippet=entry.snippet,
            fix=entry.fix,
            pattern_rule=entry.pattern_rule,
            other_versions=others,
        )
    function = function_form(torch_api, kb)
    same = same_name_method(torch_api, kb)
    function_row = kb.row(function) if function is not None else None
    if same is not None and (function_row is None or function_row.category is MappingCategory.DIFF_PAGE):
        # ``x.flatten(1)``: mindspore.Tensor.flatten, not ops.flatten (whose parameters differ)
        return MissingAdvice(
            torch_api=torch_api,
            mindspore_version=kb.version,
            policy=Policy.EQUIVALENT,
            replacements=(same,),
            note_key="advice.note.same_name_method",
            note_args=_note_args(torch_api, (same,)),
            other_versions=others,
        )
    if function is not None:
        row = function_row
        replacement = row.mindspore_api if row and row.mindspore_api else function
        return MissingAdvice(
            torch_api=torch_api,
            mindspore_version=kb.version,
            policy=Policy.EQUIVALENT,
            replacements=(replacement,),
            note_key="advice.note.function_form",
            note_args={
                "function": function,
                "method": torch_api.rsplit(".", 1)[1],
                "mindspore_api": replacement,
            },
            fix="function_form",
            other_versions=others,
        )
    if others:
        newest = max(others, key=lambda v: tuple(int(p) for p in v.split(".")))
        return MissingAdvice(
            torch_api=torch_api,
            mindspore_version=kb.version,
            policy=Policy.EQUIVALENT,
            replacements=(others[newest],),
            note_key="advice.note.other_version",
            note_args={"version": newest, "mindspore_api": others[newest]},
            other_versions=others,
        )
    return MissingAdvice(torch_api=torch_api, mindspore_version=kb.version, policy=None)


def _note_args(torch_api: str, replacements: tuple[str, ...]) -> dict[str, Any]:
    first = replacements[0] if replacements else ""
    return {
        "torch_api": torch_api,
        "name": torch_api.rsplit(".", 1)[1],
        "replacement": first,
        "short": first.rsplit(".", 1)[1] if first else "",
    }
