"""Parameter facts of one mapping row, from a difference page, the description, or two signatures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from msmigrate.datagen.importer.align import align, ranked_pairs
from msmigrate.datagen.importer.classify import Classification
from msmigrate.datagen.importer.diff_page import DiffPage, FactTable
from msmigrate.datagen.importer.signatures import SigParam

SELF_NAMES = frozenset({"input", "self"})


@dataclass(slots=True)
class RowFacts:
    param_renames: dict[str, str] = field(default_factory=dict)
    param_renames_source: str | None = None
    input_renames: dict[str, str] = field(default_factory=dict)
    torch_only: list[str] = field(default_factory=list)
    mindspore_only: list[str] = field(default_factory=list)
    defaults: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)

    def add_torch_only(self, names: Iterable[str]) -> None:
        self.torch_only.extend(n for n in names if n not in self.torch_only)

    def add_mindspore_only(self, names: Iterable[str]) -> None:
        self.mindspore_only.extend(n for n in names if n not in self.mindspore_only)

    def to_json(self) -> dict[str, object]:
        return {
            "param_renames": dict(self.param_renames),
            "param_renames_source": self.param_renames_source if self.param_renames else None,
            "input_renames": dict(self.input_renames),
            "torch_only_params": list(self.torch_only),
            "mindspore_only_params": list(self.mindspore_only),
            "default_differences": [
                {"param": name, "torch_default": t, "mindspore_default": m}
                for name, (t, m) in self.defaults.items()
            ],
        }


def _is_tensor_method(torch_api: str) -> bool:
    return torch_api.startswith("torch.Tensor.")


def _default_of(signature: list[SigParam] | None, name: str | None) -> str | None:
    if not signature or not name:
        return None
    return next((p.default for p in signature if p.name == name), None)


def _fix_misplaced(
    torch_name: str | None,
    ms_name: str | None,
    torch_sig: list[SigParam] | None,
    ms_sig: list[SigParam] | None,
) -> tuple[str | None, str | None]:
    """Move a name written in the wrong column back to its side.

    A few pages list a PyTorch-only parameter in the MindSpore column (``| | verbose | ...``); the
    page's own signatures tell which side really has it.
    """
    t_names = {p.name for p in torch_sig or ()}
    m_names = {p.name for p in ms_sig or ()}
    if ms_name and not torch_name and ms_sig is not None and ms_name in t_names and ms_name not in m_names:
        return ms_name, None
    if torch_name and not ms_name and torch_sig is not None and torch_name in m_names - t_names:
        return None, torch_name
    return torch_name, ms_name


def page_signatures(page: DiffPage, torch_api: str, ms_api: str | None) -> tuple[list[SigParam] | None, ...]:
    """The page's signature for each side (falling back to the API the page is titled after)."""
    torch_sig = page.signature(torch_api)
    if torch_sig is None and page.title_api:
        torch_sig = page.signature(page.title_api)
    if torch_sig is None:
        torch_sig = next((o[0] for api, o in page.signatures.items() if api.startswith("torch")), None)
    ms_sig = page.signature(ms_api) if ms_api else None
    return torch_sig, ms_sig


def facts_from_table(
    table: FactTable,
    torch_api: str,
    torch_sig: list[SigParam] | None,
    ms_sig: list[SigParam] | None,
    own_torch_sig: list[SigParam] | None = None,
) -> RowFacts:
    """Renames, one-sided parameters and default differences stated by a comparison table.

    ``own_torch_sig`` is the page's signature of exactly ``torch_api`` (None when the page shows only
    the function of a Tensor method).
    """
    facts = RowFacts()
    torch_sig_names = {p.name for p in own_torch_sig or ()}
    torch_params = {p.name for p in torch_sig or () if p.kind != "call_input"}
    ms_params = {p.name for p in ms_sig or () if p.kind != "call_input"}
    for fact in table.facts:
        if fact.kind not in ("param", "input"):
            continue
        kind = fact.kind
        # some pages file a function's arguments under "Input"; the signature shows they are parameters
        ms_side_param = not fact.torch and fact.mindspore in ms_params
        if kind == "input" and (fact.torch in torch_params or ms_side_param):
            kind = "param"
        # a Tensor method row sharing a function's page: the function's ``input`` is the tensor itself
        if _is_tensor_method(torch_api) and fact.torch in SELF_NAMES and fact.torch not in torch_sig_names:
            continue
        torch_name, ms_name = _fix_misplaced(fact.torch, fact.mindspore, torch_sig, ms_sig)
        if kind == "param":
            if torch_name and ms_name and torch_name != ms_name:
                facts.param_renames.setdefault(torch_name, ms_name)
            elif torch_name and not ms_name and (fact.mindspore_absent or fact.mindspore):
                facts.add_torch_only([torch_name])
            elif ms_name and not torch_name and (fact.torch_absent or fact.torch):
                facts.add_mindspore_only([ms_name])
        elif torch_name and ms_name and torch_name != ms_name:
            facts.input_renames.setdefault(torch_name, ms_name)
        if fact.states_default and torch_name and ms_name:
            t_default = _default_of(torch_sig, torch_name)
            m_default = _default_of(ms_sig, ms_name)
            if t_default is None or m_default is None or t_default == m_default:
                t_default = m_default = None
            facts.defaults.setdefault(torch_name, (t_default, m_default))
    facts.param_renames = _without_reorders(facts.param_renames)
    if facts.param_renames:
        facts.param_renames_source = "diff_page"
    return facts


def _without_reorders(renames: dict[str, str]) -> dict[str, str]:
    """Drop the pairs of a table that states a change of parameter order row by row
    (``keepdim | dtype``, ``dtype | keepdims``): a torch parameter "renamed" to another torch parameter
    of the same table, or one that another is "renamed" to, is a position, not a name."""
    targets = set(renames.values())
    return {a: b for a, b in renames.items() if b not in renames and a not in targets}


def facts_from_signatures(
    torch_overloads: list[list[SigParam]],
    ms_overloads: list[list[SigParam]],
    known_pairs: Mapping[str, Iterable[str]],
    general_params: Iterable[str],
    torch_api: str,
    only_general_torch_only: bool,
    mindspore_api: str | None = None,
) -> RowFacts:
    """Facts derived by aligning two signatures (marked ``derived``).

    ``only_general_torch_only`` is set for rows the table calls "parameter names differ": their
    parameters correspond one to one, so positions are trusted and only general difference parameters
    (``out`` …) can be missing on the MindSpore side.
    """
    facts = RowFacts()
    pairs = ranked_pairs(torch_overloads, ms_overloads)
    if not pairs:
        return facts
    general = set(general_params)
    is_method = _is_tensor_method(torch_api) or (mindspore_api or "").startswith("mindspore.Tensor.")
    result = None
    # the table says the names differ: an overload pair with identical names (a later MindSpore release
    # that adopted the torch names) says less than one that shows the renames
    for index, (torch_sig, ms_sig) in enumerate(pairs if only_general_torch_only else pairs[:1]):
        if is_method:
            torch_sig = [p for p in torch_sig if p.name not in SELF_NAMES]  # the tensor itself
        candidate = align(
            torch_sig, ms_sig, known_pairs, skip=general, trust_positions=only_general_torch_only
        )
        if index == 0:
            result = candidate
        required_left = [p for p in ms_sig if p.required and p.name in candidate.mindspore_only]
        if candidate.renames and not required_left:
            result = candidate
            break
    assert result is not None
    facts.param_renames = result.renames
    facts.param_renames_source = "derived" if result.renames else None
    torch_only = (
        [n for n in result.torch_only if n in general] if only_general_torch_only else result.torch_only
    )
    facts.add_torch_only(torch_only)
    if not only_general_torch_only:
        facts.add_mindspore_only(result.mindspore_only)
    return facts


def apply_classification(
    facts: RowFacts, classification: Classification, torch_params: Iterable[str]
) -> None:
    """Add what the table's description states (``No verbose``, ``default value of dim`` …)."""
    params = list(torch_params)
    facts.add_torch_only(classification.torch_only)
    for hint in classification.torch_only_hints:
        facts.add_torch_only(p for p in params if hint in p and p not in facts.param_renames)
    facts.add_mindspore_only(classification.mindspore_only)
    for name in classification.default_params:
        facts.defaults.setdefault(name, (None, None))
    if classification.renames and not facts.param_renames:
        facts.param_renames = dict(classification.renames)
        facts.param_renames_source = "table"


def known_rename_pairs(tables: Iterable[FactTable]) -> dict[str, list[str]]:
    """torch name → MindSpore names seen as renames in comparison tables, most frequent first."""
    counts: Counter[tuple[str, str]] = Counter()
    for table in tables:
        for fact in table.facts:
            if (
                fact.kind in ("param", "input")
                and fact.torch
                and fact.mindspore
                and fact.torch != fact.mindspore
            ):
                counts[(fact.torch, fact.mindspore)] += 1
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    pairs: dict[str, list[str]] = {}
    for (torch_name, ms_name), _count in ordered:
        pairs.setdefault(torch_name, []).append(ms_name)
    return pairs
