"""The user documentation has no dead relative link, and the README stays short.

Every relative link (inline ``[text](target)``, images, reference definitions ``[id]: target``) of the
Markdown pages below must name a file or folder of the repository, and a ``#anchor`` into a Markdown page
must name one of its headings, spelled as GitHub spells heading anchors (lower case, punctuation left out,
spaces as hyphens, ``-1``, ``-2`` … for repeated headings). Links inside code blocks and code spans are
text, not links; ``http(s):``, ``mailto:`` and other schemes are not checked.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parents[2]

# the pages a user or contributor reads; new pages under docs/ are picked up by the glob
REQUIRED_PAGES = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "docs/README.md")
PAGE_GLOBS = (
    "docs/**/*.md", "client-vscode/README.md", "client-pycharm/**/README.md", "examples/**/README.md",
)
README_MAX_LINES = 200

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*(?:#+[ \t]*)?$")
_HTML_ANCHOR = re.compile(r"<a\s+(?:[^>]*\s)?(?:id|name)=\"([^\"]+)\"", re.IGNORECASE)
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def doc_pages(root: Path = REPO) -> list[Path]:
    """The Markdown pages whose links are checked (existing ones; required ones are tested apart)."""
    pages = {root / name for name in REQUIRED_PAGES if (root / name).is_file()}
    for pattern in PAGE_GLOBS:
        pages.update(p for p in root.glob(pattern) if p.is_file() and "node_modules" not in p.parts)
    return sorted(pages)


def _prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of the lines outside fenced code blocks."""
    lines: list[tuple[int, str]] = []
    fence: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = _FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)
            continue
        if fence is not None:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        lines.append((number, line))
    return lines


def heading_slug(heading: str) -> str:
    """GitHub's anchor of a heading written ``heading`` (the Markdown text after the ``#``s)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link counts by its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "")
    kept = (
        ch for ch in text.lower()
        if ch.isalnum() or ch in " -_" or unicodedata.category(ch).startswith("M")
    )
    return "".join(kept).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a page offers: its headings' slugs (repeats numbered) and HTML ``id``/``name``s."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in _prose_lines(text):
        found.update(_HTML_ANCHOR.findall(line))
        match = _HEADING.match(line)
        if not match:
            continue
        slug = heading_slug(match.group(2))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def links(text: str) -> list[tuple[int, str]]:
    """(line number, target) of every link of a page, code blocks and code spans left out."""
    found: list[tuple[int, str]] = []
    for number, line in _prose_lines(text):
        definition = _REFERENCE_DEF.match(line)
        if definition:
            found.append((number, definition.group(1)))
            continue
        prose = _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        found.extend((number, target) for target in _INLINE_LINK.findall(prose))
    return found


def dead_links(page: Path, root: Path = REPO) -> list[str]:
    """``page:line: target (why)`` for each relative link of ``page`` that leads nowhere."""
    text = page.read_text(encoding="utf-8")
    problems: list[str] = []
    label = page.relative_to(root).as_posix()
    for number, target in links(text):
        if not target or _SCHEME.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        path_part = unquote(path_part)
        if path_part.startswith("/"):
            resolved = (root / path_part.lstrip("/")).resolve()
        elif path_part:
            resolved = (page.parent / path_part).resolve()
        else:
            resolved = page.resolve()
        where = f"{label}:{number}: {target}"
        if not resolved.is_relative_to(root.resolve()):
            problems.append(f"{where} (outside the repository)")
            continue
        if not resolved.exists():
            problems.append(f"{where} (no such file)")
            continue
        if anchor and resolved.is_file() and resolved.suffix.lower() == ".md":
            if unquote(anchor) not in anchors(resolved.read_text(encoding="utf-8")):
                problems.append(f"{where} (no such heading)")
    return problems


# ---------------------------------------------------------------------------------------------- the docs


def test_the_required_pages_exist() -> None:
    missing = [name for name in REQUIRED_PAGES if not (REPO / name).is_file()]
    assert missing == []


def test_every_page_is_checked() -> None:
    names = {p.relative_to(REPO).as_posix() for p in doc_pages()}
    expected = {*REQUIRED_PAGES, "client-vscode/README.md", "client-pycharm/lsp4ij-template/README.md",
                "docs/ARCHITECTURE.md", "docs/SECURITY.md"}
    assert expected <= names


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_dead_relative_link(page: Path) -> None:
    assert dead_links(page) == []


def test_readme_is_short() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines (at most {README_MAX_LINES})"


def test_readme_shows_the_quick_start() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text


# ------------------------------------------------------------------------------------------ the checker


def test_slugs_follow_github() -> None:
    assert heading_slug("Quick start") == "quick-start"
    assert heading_slug("Fixing a whole project: `msmigrate fix`") == "fixing-a-whole-project-msmigrate-fix"
    assert heading_slug("Data files (`mapping_data/`, generated, never hand-edited)") == (
        "data-files-mapping_data-generated-never-hand-edited"
    )
    assert heading_slug("Does the fixed code run? The conversion suite") == (
        "does-the-fixed-code-run-the-conversion-suite"
    )
    assert heading_slug("Verified mappings (CPU, torch 2.13.0, MindSpore 2.10.0)") == (
        "verified-mappings-cpu-torch-2130-mindspore-2100"
    )
    assert heading_slug("中文说明") == "中文说明"
    assert heading_slug("See [the guide](docs/x.md) — **now**") == "see-the-guide--now"


def test_repeated_headings_are_numbered() -> None:
    text = "# Title\n\n## Setup\n\n## Setup\n\n```sh\n# not a heading\n```\n\n## Setup ##\n"
    assert anchors(text) == {"title", "setup", "setup-1", "setup-2"}


def test_links_in_code_are_not_links() -> None:
    text = (
        "See [a](a.md) and `[b](b.md)`.\n"
        "```md\n[c](c.md)\n```\n"
        "![img](pic.png) [d](d.md#part \"title\") [e](https://example.com/e.md)\n"
        "[ref]: ref.md\n"
        "[`code text`](f.md) [x [y]](g.md)\n"
    )
    assert links(text) == [
        (1, "a.md"), (5, "pic.png"), (5, "d.md#part"), (5, "https://example.com/e.md"), (6, "ref.md"),
        (7, "f.md"), (7, "g.md"),
    ]


def test_the_checker_finds_dead_links(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text("# Guide\n\n## Step one: `scan`\n", encoding="utf-8")
    (tmp_path / "tool.py").write_text("", encoding="utf-8")
    page = tmp_path / "README.md"
    page.write_text(
        "# Read me\n\n"
        "[ok](docs/guide.md) [ok anchor](docs/guide.md#step-one-scan) [own](#read-me) [dir](docs/)\n"
        "[file](tool.py#L3) [web](https://example.com/missing.md) [mail](mailto:a@b.c)\n"
        "[gone](docs/missing.md)\n"
        "[bad anchor](docs/guide.md#step-two)\n"
        "[bad own anchor](#nowhere)\n"
        "[outside](../elsewhere.md)\n"
        "`[in code](nothing.md)`\n",
        encoding="utf-8",
    )
    assert dead_links(page, tmp_path) == [
        "README.md:5: docs/missing.md (no such file)",
        "README.md:6: docs/guide.md#step-two (no such heading)",
        "README.md:7: #nowhere (no such heading)",
        "README.md:8: ../elsewhere.md (outside the repository)",
    ]
