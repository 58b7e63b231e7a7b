"""Rules for torch API references, one per finding category of the mapping analysis.

The analysis itself reports them (``analysis/categorize.py``), so they live here; the rule registry
(``rules/loader.py``) lists them with the rule modules' rules."""

from msmigrate.model.finding import FindingCategory as C
from msmigrate.model.finding import Severity as S
from msmigrate.model.rule import Rule

MAPPING_DOC = "https://www.mindspore.cn/docs/en/r2.6.0/note/api_mapping/pytorch_api_mapping.html"
MISSING_DOC = "https://www.mindspore.cn/docs/en/r2.6.0/migration_guide/analysis_and_preparation.html"

# The rule id for each API-usage category (the analyzer picks the rule from the category).
RULE_FOR_CATEGORY: dict[C, str] = {
    C.CONSISTENT: "MSM100",
    C.DIFFERENCES: "MSM101",
    C.POSSIBLE_TENSOR_API: "MSM102",
    C.UNKNOWN_TORCH_NAME: "MSM103",
    C.MISSING: "MSM200",
    C.DATA_PROCESSING: "MSM600",
}

RULES: list[Rule] = [
    Rule("MSM100", C.CONSISTENT, S.HINT, MAPPING_DOC, fixable=True),
    Rule("MSM101", C.DIFFERENCES, S.INFORMATION, MAPPING_DOC, fixable=True),
    Rule("MSM102", C.POSSIBLE_TENSOR_API, S.HINT, MAPPING_DOC),
    Rule("MSM103", C.UNKNOWN_TORCH_NAME, S.WARNING, MAPPING_DOC),
    # torch left in a form no other rule speaks for (analysis/leftovers.py): the file still needs torch
    Rule("MSM104", C.UNKNOWN_TORCH_NAME, S.WARNING, MISSING_DOC, fixable=True),  # string annotations
    Rule("MSM200", C.MISSING, S.WARNING, MISSING_DOC),
    Rule("MSM600", C.DATA_PROCESSING, S.INFORMATION, MISSING_DOC),
]

API_RULES_BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}
