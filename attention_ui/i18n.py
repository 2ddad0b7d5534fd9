"""Interface text in English and Japanese.

Every string the interface shows comes from a catalog: `locales/<lang>/<namespace>.toml`, one
folder per language, one file per page or shared part. A key is the namespace plus the TOML
path, e.g. `luong.sizes.n` for `[sizes] n = "…"` in `luong.toml`. Templates use `{name}`
placeholders filled by `t(key, name=…)`.

The English text of engine errors and steps lives in `attention_core` (MESSAGES, STEP_TEXT), so
that the engine stays usable on its own; `locales/ja/engine.toml` translates them by code.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path
from typing import Any

import streamlit as st

from attention_core import MESSAGES, STEP_TEXT, AttentionInputError, Step

from .text import escape_markdown

LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_STATE_KEY = "lang"
_LOCALES = Path(__file__).parent / "locales"


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


def current_language() -> str:
    """The language chosen in this session (the sidebar switch), English until one is chosen."""
    lang = st.session_state.get(LANGUAGE_STATE_KEY, DEFAULT_LANGUAGE)
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def t(key: str, lang: str | None = None, **params: Any) -> str:
    """The text for `key` in the current language, with `{placeholders}` filled in.

    A missing key shows the key itself (tests look for such keys on every page) rather than
    crashing a learner's page.
    """
    text = catalog(lang or current_language()).get(key)
    if text is None:
        return key
    return text.format(**params) if params else text


def error_text(error: AttentionInputError, lang: str | None = None) -> str:
    """An engine error in the current language, ready for Markdown: English from the engine,
    others by code; text the user typed (a cell, a name) is escaped, never rendered."""
    lang = lang or current_language()
    template = catalog(lang).get(f"engine.error.{error.code}")
    if lang == DEFAULT_LANGUAGE or template is None:
        template = MESSAGES[error.code]
    params = {name: escape_markdown(value) if isinstance(value, str) else value
              for name, value in error.params.items()}
    return template.format(**params)


def step_title(step: Step, lang: str | None = None) -> str:
    return _step_text(step, "title", lang)


def step_sentence(step: Step, lang: str | None = None) -> str:
    return _step_text(step, "sentence", lang)


def _step_text(step: Step, part: str, lang: str | None) -> str:
    lang = lang or current_language()
    template = catalog(lang).get(f"engine.step.{step.key}.{part}")
    if lang == DEFAULT_LANGUAGE or template is None:
        return step.title if part == "title" else step.sentence
    return template.format(**step.params)


def engine_keys() -> set[str]:
    """The keys a non-English catalog must have to translate every engine error and step."""
    keys = {f"engine.error.{code}" for code in MESSAGES}
    for step_key in STEP_TEXT:
        keys |= {f"engine.step.{step_key}.title", f"engine.step.{step_key}.sentence"}
    return keys
