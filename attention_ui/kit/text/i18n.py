"""Interface text in English and Japanese.

Every string the interface shows comes from a catalog: `locales/<lang>/<namespace>.toml`, one
folder per language, one file per page or shared part. A key is the namespace plus the TOML
path, e.g. `luong.sizes.n` for `[sizes] n = "…"` in `luong.toml`. Templates use `{name}`
placeholders filled by `t(key, name=…)`.

The engine speaks in codes and numbers; `locales/<lang>/engine.toml` words them in each
language: `engine.error.<code>`, `engine.step.<key>.title` / `.sentence`,
`engine.value.<param>.<value>` for parameters that are codes (e.g. `score = "scaled_dot"`) and
`engine.reason.<code>` for why a parameter needs its shape. The engine's arithmetic texts
(hover texts) are symbols and numbers only, the same in every language.
"""

from __future__ import annotations

import functools
import string
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, Step
from attention_core.formatting import fmt
from attention_ui.kit.text.markdown import escape_markdown

LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_STATE_KEY = "lang"
_LOCALES = Path(__file__).resolve().parents[2] / "locales"  # attention_ui/locales
# Longer than any real language tag ("zh-Hant-TW", "ja-JP-u-ca-japanese"): not a language.
_MAX_TAG_LENGTH = 35
Words = TypeVar("Words")


# A functools cache, not Streamlit's: t() reads the catalog for every word a run shows (about
# 140 times per Luong run), and st.cache_data hashes the argument and unpickles a copy of the
# whole catalog on each call, st.cache_resource still hashes and looks up per call; both cost
# far more per run than the words themselves (figures in the commit that wrote this). The
# catalogs are files of the repository, read once per process and never written.
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


def worded(kind: type[Words], namespace: str, **given: str) -> Words:
    """A figure's words (a captions dataclass such as PlaneCaptions) in this run's language:
    each field the catalog's `<namespace>.<field>` unless `given` (symbols such as α, words of
    another namespace). A field with neither shows its key, which the page tests catch, never
    the dataclass's English default."""
    words = {f.name: given.get(f.name, t(f"{namespace}.{f.name}")) for f in fields(kind)}
    return kind(**words)


class _MarkdownSafeFormatter(string.Formatter):
    """str.format that escapes every inserted value for Markdown, after `!r` and format specs
    have been applied, so a cell the user typed (`**x**`, `<b>`, `$x$`) is shown, never
    rendered, and a repr is not escaped twice."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return escape_markdown(super().format_field(value, format_spec))


_SAFE = _MarkdownSafeFormatter()


def error_text(error: AttentionInputError, lang: str | None = None) -> str:
    """An engine error in the current language, ready for Markdown (st.error, st.markdown).

    The template is `engine.error.<code>`; parameters that are codes (a score name, what a
    matrix must be) are worded by `engine.value.<param>.<value>`, numbers are written as the
    rest of the app writes them (attention_core.fmt), and a `reason` code becomes `{why}`,
    worded by `engine.reason.<reason>`. Every inserted value (the user's text included) is
    escaped.
    """
    lang = lang or current_language()
    texts = catalog(lang)
    template = texts.get(f"engine.error.{error.code}") or catalog(DEFAULT_LANGUAGE).get(
        f"engine.error.{error.code}", error.code
    )
    params = _worded_params(error.params, texts)
    reason = error.params.get("reason")
    if reason is not None:
        params["why"] = texts.get(f"engine.reason.{reason}", str(reason)).format(**params)
    return _SAFE.format(template, **params)


def _worded_params(params: Mapping[str, Any], texts: Mapping[str, str]) -> dict[str, Any]:
    return {name: _worded(name, value, texts) for name, value in params.items()}


def _worded(name: str, value: Any, texts: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return texts.get(f"engine.value.{name}.{value}", value)
    if isinstance(value, float | np.floating):
        return fmt(value)
    return value


def step_title(step: Step, lang: str | None = None) -> str:
    """The step's title ("Transpose the keys") in the current language."""
    return _step_text(step, "title", lang)


def step_sentence(
    step: Step, lang: str | None = None, *, run_steps: Sequence[Step] | None = None
) -> str:
    """The step's one-sentence explanation, with its numbers filled in, in the current
    language.

    `run_steps` are all the steps of the step's run: with them, a step whose sentence says
    "every entry is positive" (exp() of a score) is worded as what holds when some unmasked
    entries came out as exactly 0 (see `underflowed`). Without them, zeros are taken to be
    masked ones.
    """
    count = underflowed(step, run_steps) if run_steps is not None else 0
    if count:
        return _step_text(step, "sentence_underflow", lang, count=count)
    # A step that depends on its kernel (Nadaraya–Watson's κ) has one sentence per kernel.
    variant = f"sentence_{step.params.get('kernel')}"
    if f"engine.step.{step.key}.{variant}" in catalog(lang or current_language()):
        return _step_text(step, variant, lang)
    return _step_text(step, "sentence", lang)


# Steps whose sentence says every (unmasked) entry is positive. exp(x) is positive in exact
# arithmetic, but a float holds nothing below about 5e-324: exp(x) for x < −745 is stored as
# exactly 0, which a small τ, a narrow σ or far-apart scores easily reach.
UNDERFLOW_STEPS = ("exponentials", "weights_softmax", "nw_exponentials")


def underflowed(step: Step, run_steps: Sequence[Step]) -> int:
    """How many entries of `step` are exactly 0 where no mask put them (0 for other steps)."""
    if step.key not in UNDERFLOW_STEPS:
        return 0
    zero = np.asarray(step.value) == 0
    for other in run_steps:
        if other.key == "masked" and other.value.shape == zero.shape:
            zero &= np.isfinite(other.value)  # a masked entry is −∞ there
    return int(zero.sum())


def _step_text(step: Step, part: str, lang: str | None, **extra: Any) -> str:
    texts = catalog(lang or current_language())
    template = texts.get(f"engine.step.{step.key}.{part}", f"engine.step.{step.key}.{part}")
    return template.format(**_worded_params(step.params, texts), **extra)


def show_error(error: AttentionInputError) -> None:
    """An engine error as a message in the learner's language (never a traceback)."""
    st.error(error_text(error), icon=":material/error:")


def draw_notes(notes: Iterable[tuple[str, str]]) -> None:
    """Sentences as (how they are drawn, text), the form the pure `*_notes` functions return."""
    draw = {
        "markdown": st.markdown,
        "info": st.info,
        "warning": st.warning,
        "success": st.success,
        "caption": st.caption,
    }
    for kind, text in notes:
        draw[kind](text)
