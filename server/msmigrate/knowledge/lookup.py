"""``lookup(name, kb)``: everything the knowledge base knows about one torch name.

Used by ``msmigrate lookup``, hover and the ``msmigrate.lookup`` LSP command. Every sentence is
generated here from the facts, in the user's language (see ``messages/kb.py``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Literal

from msmigrate.i18n import ref, t, t_list
from msmigrate.knowledge.base import VERSIONS, KnowledgeBase, get_knowledge_base
from msmigrate.knowledge.derived import DerivedMapping
from msmigrate.knowledge.device_targets import NO_EFFECT, device_failure, device_only
from msmigrate.knowledge.model import MappingCategory, MappingRow
from msmigrate.knowledge.param_facts import mindspore_value, same_default
from msmigrate.knowledge.resolution import resolve_name
from msmigrate.model.resolution import Replacement, Resolution

Status = Literal["mapped", "unsupported", "missing", "not_found"]

# category → note explaining it (categories whose facts speak for themselves have none)
_CATEGORY_NOTES: dict[MappingCategory, str] = {
    MappingCategory.CONSISTENT: "kb.note.consistent",
    MappingCategory.DIFF_PAGE: "kb.note.diff_page",
    MappingCategory.DATA_TYPES: "kb.note.data_types",
    MappingCategory.PARAM_COUNT_ORDER: "kb.note.param_count_order",
    MappingCategory.OTHER_DIFFERENCE: "kb.note.other_difference",
}


def _code(names: list[str] | tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names)


@dataclass(slots=True)
class LookupResult:
    """The answer for one name in one table version."""

    query: str
    torch_api: str | None
    status: Status
    mindspore_version: str
    row: MappingRow | None = None
    alternatives: tuple[MappingRow, ...] = ()
    suggestions: list[str] = field(default_factory=list)
    general_params: tuple[str, ...] = ()  # general difference params present in the torch signature
    other_versions: dict[str, str] = field(default_factory=dict)  # version → MindSpore API
    advice: Any = None  # knowledge.missing_advice.MissingAdvice of an unmapped API
    mindspore_counterparts: list[str] = field(default_factory=list)  # when the query is a MindSpore name
    derived: DerivedMapping | None = None  # the row is derived: not in this table (knowledge/derived.py)
    gone_target: str | None = None  # the table's target, which the installed MindSpore no longer has
    inventory_mindspore: str = "?"  # version of the MindSpore inventory, e.g. "2.10"
    withheld: tuple[str, ...] = ()  # derived candidates not offered: their numeric check failed
    # renames the installed MindSpore signature rejects: torch name → keep | use:<name> | drop
    # (knowledge/consistency.py rename_resolution)
    rejected_renames: dict[str, str] = field(default_factory=dict)
    device: str = "CPU"
    # what the quick-fix writes for the name on ``device`` (model/resolution.py): a call of it, or the
    # finding's own resolution when hover shows one; its ``replacement`` says which target it replaced
    resolution: Resolution | None = None
    no_kernel: str | None = None  # the target without a kernel on ``device`` when nothing replaces it
    # how the target fails on ``device`` (device_targets.NO_KERNEL or NO_EFFECT: it runs and changes nothing)
    device_failure: str | None = None
    # a verified composition the quick-fix writes for an unmapped API (knowledge/compositions/verified.py)
    composition: Any = None

    @property
    def found(self) -> bool:
        return self.status != "not_found"

    # --- facts --------------------------------------------------------------------------------
    @property
    def unsupported_params(self) -> list[str]:
        return list(self.row.torch_only_params) if self.row else []

    def urls(self, lang: str = "en") -> dict[str, str]:
        """All stored links plus ``mindspore`` / ``diff`` in ``lang``."""
        if not self.row:
            return {}
        urls = dict(self.row.urls)
        suffix = "zh" if lang == "zh" else "en"
        for key in ("mindspore", "diff"):
            chosen = urls.get(f"{key}_{suffix}") or urls.get(f"{key}_en")
            if chosen:
                urls[key] = chosen
        return urls

    def notes(self, lang: str = "en") -> list[str]:
        """Sentences generated from the facts, in ``lang``."""
        notes: list[str] = []
        if self.torch_api and self.query.strip() != self.torch_api:
            notes.append(t("kb.note.alias", lang, query=self.query.strip(), torch_api=self.torch_api))
        if self.status == "not_found":
            if self.mindspore_counterparts:
                names = ", ".join(self.mindspore_counterparts)
                notes.append(t("kb.note.mindspore_name", lang, name=self.query.strip(), names=names))
                return notes
            notes.append(t("kb.note.not_found", lang, name=self.query.strip()))
            if self.suggestions:
                notes.append(t("kb.note.suggestions", lang, names=", ".join(self.suggestions)))
            return notes
        if self.derived is not None:
            notes.append(t_list(self.derived.provenance(self.mindspore_version), lang))
        if self.gone_target and self.derived is None:
            notes.append(t("derived.gone_target", lang, version=self.mindspore_version, gone=self.gone_target,
                           mindspore=self.inventory_mindspore))
        elif self.status == "missing":
            notes.append(t("kb.note.missing", lang, torch_api=self.torch_api, version=self.mindspore_version))
            if self.withheld:
                notes.append(t("derived.withheld", lang, names=", ".join(self.withheld), device="CPU"))
            if self.composition is not None:
                notes.append(self.composition.note(lang))
            elif self.advice_markdown(lang) is None:
                notes.append(t("kb.note.missing_hint", lang))
        elif self.status == "unsupported":
            notes.append(
                t("kb.note.unsupported", lang, torch_api=self.torch_api, version=self.mindspore_version)
            )
        if self.other_versions:
            listed = ", ".join(f"{v}: {api}" for v, api in self.other_versions.items())
            notes.append(t("kb.note.other_versions", lang, versions=listed))
        row = self.row
        if row is None or self.status != "mapped":
            return notes
        if row.category in _CATEGORY_NOTES:
            notes.append(t(_CATEGORY_NOTES[row.category], lang))
        for torch_name, ms_name in row.param_renames.items():
            resolution = self.rejected_renames.get(torch_name)
            if resolution is None:
                notes.append(t("kb.note.rename", lang, torch_name=torch_name, mindspore_name=ms_name))
                continue
            kind, _, name = resolution.partition(":")
            notes.append(t(f"kb.note.rename_rejected_{kind}", lang, torch_name=torch_name,
                           mindspore_name=ms_name, name=name))
        if row.param_renames and row.param_renames_source == "derived":
            notes.append(t("kb.note.derived", lang))
        for torch_name, ms_name in row.input_renames.items():
            notes.append(t("kb.note.input_rename", lang, torch_name=torch_name, mindspore_name=ms_name))
        if row.torch_only_params:
            notes.append(t("kb.note.torch_only", lang, names=", ".join(row.torch_only_params)))
        if row.mindspore_only_params:
            notes.append(t("kb.note.mindspore_only", lang, names=", ".join(row.mindspore_only_params)))
        for diff in row.default_differences:
            same = _same_meaning(row, diff.param, diff.torch_default, diff.mindspore_default)
            if same is not None:
                notes.append(t("kb.note.default_same_meaning", lang, param=diff.param,
                               torch_default=diff.torch_default, mindspore_default=diff.mindspore_default))
            elif diff.torch_default is not None and diff.mindspore_default is not None:
                notes.append(
                    t(
                        "kb.note.default_values",
                        lang,
                        param=diff.param,
                        torch_default=diff.torch_default,
                        mindspore_default=diff.mindspore_default,
                    )
                )
            else:
                notes.append(t("kb.note.default_unknown", lang, param=diff.param))
        extra_general = [p for p in self.general_params if p not in row.torch_only_params]
        if extra_general:
            notes.append(t("kb.note.general_params", lang, names=", ".join(extra_general)))
        if self.alternatives:
            names = ", ".join(r.mindspore_api or "—" for r in self.alternatives)
            notes.append(t("kb.note.alternatives", lang, names=names))
        notes += self._device_notes(lang)
        return notes

    @property
    def target(self) -> str | None:
        """The MindSpore API the quick-fix writes (the resolution's target; the row's without one)."""
        if self.resolution is not None and self.resolution.target:
            return self.resolution.target
        return self.row.mindspore_api if self.row is not None else None

    @property
    def replacement(self) -> Replacement | None:
        return self.resolution.replacement if self.resolution is not None else None

    def _device_notes(self, lang: str) -> list[str]:
        """What the quick-fix writes on ``device`` when the target has no kernel there (or is used
        otherwise than the torch name), as the resolution says."""
        swap, target = self.replacement, self.target
        if swap is not None and swap.kind == "write_back":
            key = "kb.note.write_back_new_tensor" if swap.new_tensor else "kb.note.device_write_back"
            return [t(key, lang, replaced=swap.replaced, device=swap.device,
                      mindspore=self.inventory_mindspore, target=target)]
        if swap is not None and swap.kind in ("candidate", "other_table"):
            return [t(f"resolution.note.{swap.kind}", lang, replaced=swap.replaced, target=target,
                      torch_api=self.torch_api, table=swap.version)]
        if swap is not None and swap.reason:
            why = (ref(swap.reason, replaced=swap.replaced, device=swap.device, table=swap.version),)
            return [t("kb.note.device_target_reason", lang, why=why, device=swap.device,
                      target=target, replaced=swap.replaced)]
        if swap is not None:
            if swap.derived:
                source = t("kb.device_source.derived", lang, device=swap.device)
            elif swap.verified:
                source = t("kb.device_source.table", lang, table=swap.version, device=swap.device)
            else:
                source = t("kb.device_source.same_values", lang, table=swap.version)
            key = "kb.note.device_target_no_effect" if swap.failure == NO_EFFECT else "kb.note.device_target"
            return [t(key, lang, replaced=swap.replaced, device=swap.device,
                      mindspore=self.inventory_mindspore, target=target, source=source)]
        fact = device_only(self.no_kernel)
        other = get_knowledge_base(fact.version).row(self.torch_api) if fact is not None else None
        other_fact = device_only(other.mindspore_api) if other is not None else None
        if fact is not None and other is not None and other_fact is not None:  # a reviewed fact of both
            return [t("kb.note.no_kernel_device_only", lang, replaced=self.no_kernel, device=self.device,
                      mindspore=self.inventory_mindspore, devices=", ".join(sorted(fact.devices)),
                      other=other.mindspore_api, table=fact.version,
                      other_devices=", ".join(sorted(other_fact.devices)))]
        if self.no_kernel:
            key = "kb.note.no_effect" if self.device_failure == NO_EFFECT else "kb.note.no_kernel"
            return [t(key, lang, replaced=self.no_kernel, device=self.device,
                      mindspore=self.inventory_mindspore)]
        return []

    def advice_markdown(self, lang: str = "en") -> str | None:
        """The missing-API advice (another module's text), or None when absent or failing."""
        if self.advice is None:
            return None
        try:
            return str(self.advice.render_markdown(lang))
        except Exception:  # advice is a bonus: never let it break a lookup  # noqa: BLE001
            return None

    # --- renderings ---------------------------------------------------------------------------
    def to_json(self, lang: str = "en") -> dict[str, Any]:
        row = self.row
        return {
            "query": self.query,
            "status": self.status,
            "mindspore_version": self.mindspore_version,
            "torch_api": self.torch_api,
            "mindspore_api": row.mindspore_api if row else None,
            "category": row.category.value if row else None,
            "param_renames": dict(row.param_renames) if row else {},
            "param_renames_source": row.param_renames_source if row else None,
            "input_renames": dict(row.input_renames) if row else {},
            "unsupported_params": self.unsupported_params,
            "mindspore_only_params": list(row.mindspore_only_params) if row else [],
            "default_differences": [
                {"param": d.param, "torch_default": d.torch_default, "mindspore_default": d.mindspore_default}
                for d in (row.default_differences if row else ())
            ],
            "general_difference_params": list(self.general_params),
            "alternatives": [r.mindspore_api for r in self.alternatives],
            "other_versions": dict(self.other_versions),
            "notes": self.notes(lang),
            "urls": self.urls(lang),
            "suggestions": list(self.suggestions),
            "advice": self.advice_markdown(lang),
            "source": "derived" if self.derived else ("table" if self.status == "mapped" else None),
            "derived": self.derived.to_json() if self.derived is not None else None,
            "gone_target": self.gone_target,
            "device": self.device,
            # on ``device``: the MindSpore API the quick-fix writes when the target has no kernel there
            "device_target": ({"mindspore_api": self.target, "table": swap.version, "replaced": swap.replaced,
                               "derived": swap.derived, "verified": swap.verified}
                              if (swap := self.replacement) is not None and swap.kind == "device" else None),
            # an in-place API whose result the quick-fix computes with ``mindspore_api`` and writes back
            "write_back": ({"mindspore_api": self.target, "replaced": swap.replaced, "table": swap.version}
                           if swap is not None and swap.kind == "write_back" else None),
            # what the quick-fix writes for the name on ``device`` (model/resolution.py)
            "resolution": self.resolution.to_json() if self.resolution is not None else None,
            "safety": self.resolution.safety_text(lang) if self.resolution is not None else None,
            "no_kernel": self.no_kernel,
            "device_failure": self.device_failure,
            "composition": ({"helper": self.composition.composition.helper, "cases": self.composition.cases,
                             "device": self.composition.device} if self.composition is not None else None),
        }

    def _param_rows(self, lang: str) -> list[tuple[str, str, str]]:
        row = self.row
        if row is None:
            return []
        absent = t("kb.lookup.absent", lang)
        rows = []
        for a, b in row.param_renames.items():
            kind, _, name = self.rejected_renames.get(a, "").partition(":")
            if kind == "use":
                rows.append((a, name, t("kb.lookup.kind_rename", lang)))
            elif not kind:
                rows.append((a, b, t("kb.lookup.kind_rename", lang)))
        rows += [(a, b, t("kb.lookup.kind_input_rename", lang)) for a, b in row.input_renames.items()]
        rows += [(a, absent, t("kb.lookup.kind_torch_only", lang)) for a in row.torch_only_params]
        rows += [(absent, b, t("kb.lookup.kind_mindspore_only", lang)) for b in row.mindspore_only_params]
        for diff in row.default_differences:
            values = ""
            if diff.torch_default is not None and diff.mindspore_default is not None:
                values = f" ({diff.torch_default} → {diff.mindspore_default})"
            target = row.param_renames.get(diff.param, diff.param)
            same = _same_meaning(row, diff.param, diff.torch_default, diff.mindspore_default)
            kind = "kb.lookup.kind_default_same_meaning" if same else "kb.lookup.kind_default"
            rows.append((diff.param, target, t(kind, lang) + values))
        return rows

    def _title(self, lang: str) -> str:
        target = self.target or t("kb.lookup.absent", lang)
        return t(
            "kb.lookup.title",
            lang,
            torch_api=self.torch_api or self.query,
            mindspore_api=target,
            version=self.mindspore_version,
        )

    def render_text(self, lang: str = "en", width: int = 100) -> str:
        """Plain text for a terminal (a rich table of the parameter differences)."""
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        buffer = io.StringIO()
        console = Console(file=buffer, width=width, force_terminal=False, color_system=None, highlight=False)
        if self.status == "not_found":
            for note in self.notes(lang):
                console.print(note, markup=False)
            return buffer.getvalue()
        console.print(self._title(lang), markup=False)
        if self.row is not None:
            category = t(f"kb.category.{self.row.category.value}", lang)
            console.print(f"{t('kb.lookup.category', lang)}: {category}", markup=False)
        param_rows = self._param_rows(lang)
        if param_rows:
            table = Table(title=t("kb.lookup.params_title", lang), title_justify="left")
            for key in ("kb.lookup.col_pytorch", "kb.lookup.col_mindspore", "kb.lookup.col_kind"):
                table.add_column(t(key, lang))
            for cells in param_rows:
                table.add_row(*cells)
            console.print(table)
        notes = self.notes(lang)
        if notes:
            console.print(f"{t('kb.lookup.notes', lang)}:", markup=False)
            # a grid keeps the wrapped lines of a long note under its text, not under the bullet
            bullets = Table.grid(padding=(0, 1))
            bullets.add_column(no_wrap=True)
            bullets.add_column()
            for note in notes:
                bullets.add_row("  -", Text(note))
            console.print(bullets)
        advice = self.advice_markdown(lang)
        if advice:
            from rich.markdown import Markdown

            console.print(Markdown(advice, hyperlinks=False))
        links = self._links(lang)
        if links:
            console.print(f"{t('kb.lookup.links', lang)}:", markup=False)
            for label, url in links:
                console.print(f"  {label}: {url}", markup=False, soft_wrap=True)
        return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())

    def _links(self, lang: str) -> list[tuple[str, str]]:
        urls = self.urls(lang)
        pairs = [("torch", "kb.lookup.link_torch"), ("mindspore", "kb.lookup.link_mindspore")]
        pairs.append(("diff", "kb.lookup.link_diff"))
        return [(t(key, lang), urls[name]) for name, key in pairs if urls.get(name)]

    def render_markdown(self, lang: str = "en") -> str:
        """Markdown for hovers: title, category, parameter table, notes, links."""
        lines: list[str] = []
        if self.status == "not_found":
            return "\n\n".join(_escape(n) for n in self.notes(lang))
        lines.append(f"**{_escape(self._title(lang))}**")
        if self.row is not None:
            category = t(f"kb.category.{self.row.category.value}", lang)
            lines.append(f"{t('kb.lookup.category', lang)}: {category}")
        param_rows = self._param_rows(lang)
        if param_rows:
            keys = ("kb.lookup.col_pytorch", "kb.lookup.col_mindspore", "kb.lookup.col_kind")
            header = [t(k, lang) for k in keys]
            table = [f"| {' | '.join(header)} |", "|---|---|---|"]
            table += [f"| {' | '.join(_cell(c) for c in cells)} |" for cells in param_rows]
            lines.append("\n".join(table))
        notes = self.notes(lang)
        if notes:
            lines.append("\n".join(f"- {_escape(n)}" for n in notes))
        advice = self.advice_markdown(lang)
        if advice:
            lines.append(advice)
        links = self._links(lang)
        if links:
            lines.append(" · ".join(f"[{label}]({url})" for label, url in links))
        return "\n\n".join(lines)


def _escape(text: str) -> str:
    """Escape Markdown emphasis characters in generated text (names hold underscores)."""
    for ch in ("\\", "*", "_", "[", "]", "<", ">", "|"):
        text = text.replace(ch, "\\" + ch)
    return text


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _clean_query(name: str) -> str:
    text = name.strip().strip("`").strip()
    if text.endswith("()"):
        text = text[:-2]
    return "".join(text.split())


def lookup(name: str, kb: KnowledgeBase, *, other_versions: bool = True, device: str = "CPU",
           resolution: Resolution | None = None) -> LookupResult:
    """Find ``name`` (full name or alias such as ``nn.Linear``, ``F.relu``, ``Tensor.view``) in ``kb``; on
    ``device``, what the quick-fix writes for it (``knowledge/resolution.resolve_name``: a call of the name;
    ``resolution``: a finding's own, which hover passes), with the target it replaced."""
    query = name
    cleaned = _clean_query(name)
    torch_api = kb.canonical(cleaned) if cleaned else ""
    version = kb.version
    row = kb.row(torch_api) if torch_api else None
    if row is None and not (torch_api and kb.is_torch_api(torch_api)):
        if cleaned.startswith("mindspore."):
            # a MindSpore name: point back to the torch APIs the table maps to it
            torch_names = sorted({r.torch_api for r in kb.rows() if r.mindspore_api == cleaned})
            return LookupResult(
                query, None, "not_found", version, suggestions=torch_names, mindspore_counterparts=torch_names
            )
        suggestions = _suggestions(cleaned, kb) if cleaned else []
        return LookupResult(query, None, "not_found", version, suggestions=suggestions)
    alternatives = tuple(r for r in kb.rows() if r.torch_api == torch_api and r is not row)
    general = _general_params_in_signature(kb, torch_api)
    derived = kb.derived(torch_api)
    gone = kb.gone_target(torch_api)
    if derived is not None:
        row, alternatives = derived.row, ()
    elif gone:
        row = None
    if row is None:
        status: Status = "missing"
    elif row.mindspore_api is None:
        status = "unsupported"
    else:
        status = "mapped"
    entry = kb.derived_table.entry(torch_api)
    withheld = tuple(c.mindspore_api for c in entry.candidates if c.check == "fail") if entry else ()
    result = LookupResult(query, torch_api, status, version, row, alternatives, general_params=general,
                          derived=derived, gone_target=gone, withheld=withheld if derived is None else (),
                          inventory_mindspore=kb.derived_table.mindspore_version)
    if row is not None:
        from msmigrate.knowledge.consistency import rename_resolution

        for old in row.param_renames:
            rejected = rename_resolution(kb, row, old)
            if rejected is not None:
                result.rejected_renames[old] = rejected
    if status == "mapped":
        result.device = resolution.device if resolution is not None else device
        result.resolution = resolution or resolve_name(torch_api, kb, device)
        failed = device_failure(torch_api, version, result.device)
        if failed is not None:
            result.device_failure = failed[1]
            if result.replacement is None:
                result.no_kernel = failed[0] or None
    if status != "mapped" and resolution is not None and resolution.by_call and resolution.target:
        # a finding's own resolution that names a target for a name the table leaves unmapped (a method of
        # an object whose class the file maps: analysis/class_members.py)
        result.device, result.resolution = resolution.device, resolution
    elif status != "mapped":
        from msmigrate.knowledge.compositions.verified import composition_check

        check = composition_check(torch_api)
        result.composition = check if check is not None and check.passed else None
        # a verified composition is the answer (MSM202); the catalogue's advice would name another route
        result.advice = None if result.composition is not None else _missing_advice(torch_api, kb)
        if other_versions:
            result.other_versions = _other_versions(torch_api, version)
    return result


def _suggestions(cleaned: str, kb: KnowledgeBase, limit: int = 5) -> list[str]:
    """Public torch names ending in the query's last part (``DataLoader``, ``x.view``, ``MultiheadAttention``
    typed without their module), shortest first, then near names for a typo."""
    last = cleaned.rstrip(".").rpartition(".")[2]
    same_name = sorted(
        (name for name in {*kb.torch_inventory, *(r.torch_api for r in kb.rows())}
         if name.rpartition(".")[2] == last and not any(p.startswith("_") for p in name.split("."))),
        key=lambda name: (name.count("."), name),
    ) if last else []
    return list(dict.fromkeys([*same_name, *kb.suggest(cleaned.rstrip("."))]))[:limit]


def _general_params_in_signature(kb: KnowledgeBase, torch_api: str) -> tuple[str, ...]:
    names = {p.get("name") for sig in kb.torch_signatures(torch_api) for p in sig}
    return tuple(p for p in kb.general_difference_params if p in names)


def _other_versions(torch_api: str, current: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for version in VERSIONS:
        if version == current:
            continue
        try:
            row = get_knowledge_base(version).row(torch_api)
        except (OSError, ValueError):
            continue
        gone = get_knowledge_base(version).gone_target(torch_api)  # not in the installed MindSpore
        if row is not None and row.mindspore_api and row.mindspore_api != gone:
            found[version] = row.mindspore_api
    return found


def _missing_advice(torch_api: str, kb: KnowledgeBase) -> Any:
    from msmigrate.knowledge.missing_advice import advice_for

    try:
        return advice_for(torch_api, kb)
    except Exception:  # advice is a bonus: a failure there must not break lookup  # noqa: BLE001
        return None


def _same_meaning(row: MappingRow, param: str, torch_default: str | None,
                  mindspore_default: str | None) -> str | None:
    """The MindSpore value of a torch default that MindSpore means otherwise, when it is MindSpore's
    default (BatchNorm's momentum: torch 0.1 is MindSpore 0.9), else ``None``."""
    if not row.mindspore_api or torch_default is None or mindspore_default is None:
        return None
    target = row.param_renames.get(param, param)
    value = mindspore_value(row.mindspore_api, target, torch_default)
    if value is None or value == torch_default or not same_default(value, mindspore_default):
        return None
    return value
