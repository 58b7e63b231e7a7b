"""The answers for the torch APIs that real code reports "missing" most often and the main catalogue did
not answer: the ``recipe = true`` entries of ``knowledge/facts/missing_advice.toml`` (notes in
``messages/advice_frequent.py``). A finding of one of these APIs says the note itself
(``finding.MSM20x.recipe``): the note is the precise answer, checked against MindSpore 2.10
(``tests/rules/test_missing_advice_frequent.py``).
"""

from __future__ import annotations

from msmigrate.knowledge.advice_catalogue import catalogue

# the notes a finding says as its message (``finding.MSM20x.recipe``)
RECIPE_NOTES: frozenset[str] = catalogue().recipe_notes


def rows() -> list[tuple[int, str, tuple[str, ...], str]]:
    """``(policy, torch_api, replacements, note)`` of every recipe entry's API, in file order."""
    entries = catalogue().entries
    return [(int(entries[api].policy), api, entries[api].replacements, entries[api].note)
            for api in catalogue().recipe_apis]
