"""What the difference pages of some mapped pairs say, as facts a call can be checked against.

A row whose category states only parameter facts (names, number or order, ``inplace``, ``verbose``, parsed
defaults) is settled per call by the argument plan, which compares the installed signatures. A row with a
difference page is settled per call only where the page was read and its differences written here as
``torch API: {parameter: values for which the page's differences apply}`` (``{}``: none is left once the
plan has checked names and positions). Add an entry only after reading the page and running the pair on
MindSpore 2.10.
"""

from __future__ import annotations

import ast

PAGE_FACTS: dict[str, dict[str, tuple[str, ...]]] = {
    # the page: renames; MindSpore has no 'circular' mode; value=None means 0 (torch's default) in constant
    # mode. Run: ops.pad(x, (1, 1), mode='constant', value=0) pads as torch does.
    "torch.nn.functional.pad": {"mode": ("'circular'", '"circular"')},
    # the page: MindSpore's result dtype follows start; 2.10's ops.linspace(0, 1, 5) is float32 (run), as
    # torch's is
    "torch.linspace": {},
}


def page_settled(torch_api: str, arguments: dict[str, ast.expr]) -> bool:
    """Whether the difference page of ``torch_api``'s pair says nothing that applies to a call passing
    ``arguments`` (torch parameter → value)."""
    facts = PAGE_FACTS.get(torch_api)
    if facts is None:
        return False
    return not any(name in arguments and ast.unparse(arguments[name]) in values
                   for name, values in facts.items())
