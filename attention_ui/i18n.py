"""Interface text in English and Japanese.

Every string the interface shows comes from a catalog: `locales/<lang>/<namespace>.toml`, one
folder per language, one file per page or shared part. A key is the namespace plus the TOML
path, e.g. `luong.sizes.n` for `[sizes] n = "…"` in `luong.toml`. Templates use `{name}`
placeholders filled by `t(key, name=…)`.

The English text of engine errors and steps lives in `attention_core` (MESSAGES, STEP_TEXT), so
that the engine stays usable on its own; `locales/ja/engine.toml` translates them by code:
`engine.error.<code>`, `engine.step.<key>.title` / `.sentence`, `engine.value.<param>.<value>`
for the few parameters whose values are English words (e.g. `dim_word = "rows"`), and
`engine.entry.*` for the few words inside the engine's arithmetic texts (hover texts).
"""

from __future__ import annotations

import functools
import re
import string
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from attention_core import MESSAGES, NW_STEP_TEXT, STEP_TEXT, AttentionInputError, Step

from .text import escape_markdown

LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_STATE_KEY = "lang"
_LOCALES = Path(__file__).parent / "locales"
# Longer than any real language tag ("zh-Hant-TW", "ja-JP-u-ca-japanese"): not a language.
_MAX_TAG_LENGTH = 35


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """Every key of one language, flattened: {'luong.sizes.n': '…'}."""
    flat: dict[str, str] = {}
    for path in sorted((_LOCALES / lang).glob("*.toml")):
        with path.open("rb") as file:
            _flatten(tomllib.load(file), path.stem, flat)
    return flat


def _flatten(tree: dict[str, Any], prefix: str, out: dict[str, str]) -> None:
    for name, value in tree.items():
        key = f"{prefix}.{name}"
        if isinstance(value, dict):
            _flatten(value, key, out)
        else:
            out[key] = str(value)


def language_from_tag(tag: object) -> str | None:
    """The app language a tag asks for ('ja', 'JA', 'ja-JP', 'ja_JP' → 'ja'), or None."""
    if not isinstance(tag, str) or len(tag) > _MAX_TAG_LENGTH:
        return None
    base = tag.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def current_language() -> str:
    """The language chosen in this session (the sidebar switch), English until one is chosen."""
    lang = st.session_state.get(LANGUAGE_STATE_KEY, DEFAULT_LANGUAGE)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def t(key: str, lang: str | None = None, **params: Any) -> str:
    """The text for `key` in the current language, with `{placeholders}` filled in.

    A missing key shows the key itself (tests look for such keys on every page) rather than
    crashing a learner's page. Params are inserted as given: escape user text before passing it.
    """
    text = catalog(lang or current_language()).get(key)
    if text is None:
        return key
    return text.format(**params) if params else text


class _MarkdownSafeFormatter(string.Formatter):
    """str.format that escapes every inserted value for Markdown, after `!r` and format specs
    have been applied, so a cell the user typed (`**x**`, `<b>`, `$x$`) is shown, never
    rendered, and a repr is not escaped twice."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return escape_markdown(super().format_field(value, format_spec))


_SAFE = _MarkdownSafeFormatter()


def error_text(error: AttentionInputError, lang: str | None = None) -> str:
    """An engine error in the current language, ready for Markdown (st.error, st.markdown).

    English comes from the engine's MESSAGES, other languages from `engine.error.<code>`;
    parameter values that are English words are translated by `engine.value.<param>.<value>`.
    Every inserted value (the user's text included) is escaped.
    """
    lang = lang or current_language()
    texts = catalog(lang)
    template = texts.get(f"engine.error.{error.code}")
    if lang == DEFAULT_LANGUAGE or template is None:
        template = MESSAGES[error.code]
        params: Mapping[str, Any] = error.params
    else:
        params = _translated_params(error.params, texts)
    return _SAFE.format(template, **params)


def _translated_params(params: Mapping[str, Any], texts: Mapping[str, str]) -> dict[str, Any]:
    return {
        name: texts.get(f"engine.value.{name}.{value}", value) if isinstance(value, str) else value
        for name, value in params.items()
    }


def step_title(step: Step, lang: str | None = None) -> str:
    """The step's title ("Transpose the keys") in the current language."""
    return _step_text(step, "title", lang)


def step_sentence(step: Step, lang: str | None = None) -> str:
    """The step's one-sentence explanation, with its sizes filled in, in the current language."""
    return _step_text(step, "sentence", lang)


def _step_text(step: Step, part: str, lang: str | None) -> str:
    lang = lang or current_language()
    template = catalog(lang).get(f"engine.step.{step.key}.{part}")
    if lang == DEFAULT_LANGUAGE or template is None:
        return step.title if part == "title" else step.sentence
    return template.format(**step.params)


# The words in the engine's arithmetic (Step.entry, explain_similarity); the rest of those
# texts is numbers and symbols. Each match is replaced by its catalog template, filled with
# the match's named groups.
_ARITHMETIC_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\(kept\)"), "engine.entry.kept"),
    (re.compile(r"\(masked: weight 0\)"), "engine.entry.masked"),
    (re.compile(r"Σ(?P<name>\S+?) for (?P<query>\S+)"), "engine.entry.sum_for"),
    (
        re.compile(r"shared pairs \{(?P<pairs>.*)\}: (?P<shared>\d+) of (?P<total>\d+)"),
        "engine.entry.shared_pairs",
    ),
)
ARITHMETIC_KEYS = frozenset(key for _, key in _ARITHMETIC_WORDS)


def localize_arithmetic(text: str, lang: str | None = None) -> str:
    """An engine arithmetic text ("Σe for q₁ = 1 + 0.5 = 1.5") with its words in the current
    language ("q₁ の Σe = 1 + 0.5 = 1.5"); numbers and symbols are left as they are."""
    lang = lang or current_language()
    if lang == DEFAULT_LANGUAGE:
        return text
    texts = catalog(lang)
    for pattern, key in _ARITHMETIC_WORDS:
        template = texts.get(key)
        if template is not None:
            text = pattern.sub(lambda match, t=template: t.format(**match.groupdict()), text)
    return text


def engine_keys() -> set[str]:
    """The keys a non-English catalog must have to translate every engine error and step
    (the optional `engine.value.*` translations of English parameter values come on top)."""
    keys = {f"engine.error.{code}" for code in MESSAGES}
    for step_key in (*STEP_TEXT, *NW_STEP_TEXT):
        keys |= {f"engine.step.{step_key}.title", f"engine.step.{step_key}.sentence"}
    return keys
