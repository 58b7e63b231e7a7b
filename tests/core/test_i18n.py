"""Every user-visible message exists in English and Chinese."""

import re
import string

import pytest

from msmigrate.i18n import catalogue, normalize_lang, t

CJK = re.compile(r"[\u4e00-\u9fff]")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_catalogue_is_not_empty():
    assert len(catalogue()) >= 10


@pytest.mark.parametrize("key", sorted(catalogue()))
def test_message_has_both_languages_with_same_fields(key):
    en, zh = catalogue()[key]
    assert en.strip() and zh.strip(), key
    assert _fields(en) == _fields(zh), key
    assert not CJK.search(en), f"{key}: English text contains Chinese characters"


def test_no_message_is_a_placeholder():
    """``msmigrate dev new-rule`` writes its texts as TODO placeholders: none ships (``dev.`` messages
    name the marker)."""
    assert [key for key, texts in catalogue().items()
            if not key.startswith("dev.") and any("TODO" in text for text in texts)] == []


def test_most_chinese_messages_contain_chinese():
    texts = [zh for _en, zh in catalogue().values()]
    with_cjk = sum(1 for z in texts if CJK.search(z))
    # A few messages may be pure names/numbers; nearly all must really be translated.
    assert with_cjk / len(texts) > 0.9


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("zh", "zh"), ("zh-cn", "zh"), ("zh_CN", "zh"), ("en", "en"), (None, "en"), ("fr", "en")],
)
def test_normalize_lang(raw, expected):
    assert normalize_lang(raw) == expected


def test_t_formats_fields():
    assert t("common.error", "en", detail="boom") == "Error: boom"
    assert t("common.error", "zh-CN", detail="boom") == "错误：boom"
