"""Text edits in the same coordinates as :class:`msmigrate.model.finding.Finding`.

``line`` is 1-based; ``column`` is 1-based in Unicode code points; ``end_column`` is exclusive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from msmigrate.i18n import t
from msmigrate.model.resolution import Safety


@dataclass(frozen=True, slots=True)
class TextEdit:
    line: int
    column: int
    end_line: int
    end_column: int
    new_text: str


@dataclass(slots=True)
class Fix:
    """One quick-fix: a titled list of non-overlapping edits to one file."""

    rule: str
    title_key: str
    edits: list[TextEdit]
    title_args: dict[str, Any] = field(default_factory=dict)
    # the title names a value the fix could not adapt (labels at an instance's call not seen): the code
    # needs that step by hand, so ``msmigrate fix`` applies it only with ``--unsafe-fixes``
    by_hand: bool = False
    # compositions the edited code calls (``knowledge/compositions``): the project's helper module must define
    # them (``fixes/compositions.py`` writes it; the editor adds its creation to the workspace edit)
    helpers: tuple[str, ...] = ()
    # the fix's own safety, where its rule decides it per fix (its title then says why an unsafe one is);
    # None: the safety its rule declares (``fixes/safety.py``)
    safety: Safety | None = None

    def __post_init__(self) -> None:
        # an edit given twice (one import needed by two parts of the rewrite) is made once: an editor applies
        # every edit of a code action, so a repeated insertion would be written twice
        self.edits = list(dict.fromkeys(self.edits))

    def title(self, lang: str = "en") -> str:
        return t(self.title_key, lang, **self.title_args)
