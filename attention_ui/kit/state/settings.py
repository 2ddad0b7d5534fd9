"""Each setting of a page declared once, in its page's `state.py`: its session key, its default,
the values it takes (its address field: a choice's options, a number's range, the parameter
name) and its label's catalog key. Everything else comes from that declaration: the widget
(drawn with persist_state="session", so Streamlit keeps its value, with the field's options or
bounds), the first value (`start`), the address field (`kit.share.schema.from_settings`) and
the check of a crafted value (`Setting.accepts`, the field's own check).

A setting the page checks itself (`checked_by_page`: the page names what is wrong, as the
regression page does for σ) is drawn without bounds, so that the value typed reaches that
check, and the frame does not put it back to its default.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attention_ui.kit.share.codec import (
    MAX_INT,
    Choice,
    Field,
    Flag,
    Integer,
    Number,
    NumberSet,
    Text,
)
from attention_ui.kit.state.number_box import number_box
from attention_ui.kit.state.page_state import option_labels, start_values
from attention_ui.kit.text.i18n import t


@dataclass(frozen=True, eq=False)  # a declaration: one of its kind (a list default is fine)
class Setting:
    field: Field  # the address field: parameter name, session key, valid values
    default: Any
    label: str = ""  # catalog key of the widget's label (none given: the key itself)
    help: str = ""  # catalog key of the widget's help (parameters: give `help=` when drawing)
    options_label: str = ""  # catalog prefix of a choice's option labels (`<prefix><option>`)
    checked_by_page: bool = False  # the page says what is wrong with a value it cannot use

    @property
    def key(self) -> str:
        return self.field.key

    def accepts(self, value: Any) -> bool:
        """Whether `value` is one the setting takes (the address's check of it)."""
        return self.field.accepts(value)

    def value(self) -> Any:
        """The session's value (the default before the page first gave it one)."""
        return _whole(self, st.session_state.get(self.key, self.default))

    def current(self) -> Any:
        """The session's value if the setting takes it, else its default."""
        value = _whole(self, st.session_state.get(self.key))
        return value if self.accepts(value) else self.default


def _whole(s: Setting, value: Any) -> Any:
    """A whole-number setting's value as the page reads it: its number box (a decimal box,
    kit.state.number_box) hands back 600.0 for 600 until it is drawn again."""
    if isinstance(s.field, Integer) and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def choice(key: str, param: str, default: Any, options: Iterable, **words: Any) -> Setting:
    return Setting(Choice(param, key, options=tuple(options)), default, **words)


def integer(key: str, param: str, default: int, low: int = 0, high: int = MAX_INT, **words):
    return Setting(Integer(param, key, low, high), default, **words)


def number(key: str, param: str, default: float, low: float, high: float, **words) -> Setting:
    return Setting(Number(param, key, low, high), default, **words)


def flag(key: str, param: str, default: bool = False, **words: Any) -> Setting:
    return Setting(Flag(param, key), default, **words)


def text(key: str, param: str, default: str, max_length: int, **words: Any) -> Setting:
    return Setting(Text(param, key, max_length=max_length), default, **words)


def number_set(key: str, param: str, default: list, options: Iterable, **words: Any) -> Setting:
    """Several of a fixed list of numbers (a multiselect)."""
    return Setting(NumberSet(param, key, options=tuple(options)), default, **words)


def defaults(settings: Iterable[Setting]) -> dict[str, Any]:
    return {s.key: s.default for s in settings}


def start(settings: Iterable[Setting], first: Mapping[str, Any] | None = None) -> None:
    """Before a page's widgets are drawn: each setting the session has never held gets its
    default (or its value in `first`, by key)."""
    start_values({**defaults(settings), **(first or {})})


# The widgets. `where` is `st` or a column; keyword arguments go to Streamlit and replace
# what the declaration gives (a slider whose top is another setting's value, say).


def _words(s: Setting, kwargs: dict[str, Any]) -> dict[str, Any]:
    if s.help and "help" not in kwargs:
        kwargs["help"] = t(s.help)
    return kwargs


def _bounds(s: Setting) -> dict[str, Any]:
    f = s.field
    if s.checked_by_page or not isinstance(f, Integer | Number):
        return {}
    return {"min_value": f.low, "max_value": f.high}


def number_input(s: Setting, where: Any = st, **kwargs: Any) -> Any:
    """The setting's number box (kit.state.number_box: never a non-finite value)."""
    whole = isinstance(s.field, Integer)
    options = {**_bounds(s), **_words(s, kwargs)}
    return number_box(t(s.label or s.key), s.key, s.default, whole, where, **options)


def slider(s: Setting, where: Any = st, **kwargs: Any) -> Any:
    return where.slider(
        t(s.label or s.key),
        **{**_bounds(s), **_words(s, kwargs)},
        key=s.key,
        persist_state="session",
    )


def _choices(s: Setting, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """A choice's options (the field's, unless given) and their labels (the catalog's)."""
    kwargs = _words(s, kwargs)
    options = kwargs.pop("options", getattr(s.field, "options", ()))
    if s.options_label:
        kwargs.setdefault("format_func", option_labels(s.options_label))
    return options, kwargs


def radio(s: Setting, where: Any = st, **kwargs: Any) -> Any:
    options, kwargs = _choices(s, kwargs)
    return where.radio(t(s.label or s.key), options, **kwargs, key=s.key, persist_state="session")


def selectbox(s: Setting, where: Any = st, **kwargs: Any) -> Any:
    options, kwargs = _choices(s, kwargs)
    label = t(s.label or s.key)
    return where.selectbox(label, options, **kwargs, key=s.key, persist_state="session")


def select_slider(s: Setting, where: Any = st, **kwargs: Any) -> Any:
    options, kwargs = _choices(s, kwargs)
    label = t(s.label or s.key)
    return where.select_slider(label, options, **kwargs, key=s.key, persist_state="session")


def multiselect(s: Setting, where: Any = st, **kwargs: Any) -> list:
    options, kwargs = _choices(s, kwargs)
    label = t(s.label or s.key)
    return where.multiselect(label, options, **kwargs, key=s.key, persist_state="session")


def toggle(s: Setting, where: Any = st, **kwargs: Any) -> bool:
    return where.toggle(
        t(s.label or s.key), **_words(s, kwargs), key=s.key, persist_state="session"
    )


def checkbox(s: Setting, where: Any = st, **kwargs: Any) -> bool:
    return where.checkbox(
        t(s.label or s.key), **_words(s, kwargs), key=s.key, persist_state="session"
    )


def text_input(s: Setting, where: Any = st, **kwargs: Any) -> str:
    kwargs = {"max_chars": s.field.max_length, **_words(s, kwargs)}
    return where.text_input(t(s.label or s.key), **kwargs, key=s.key, persist_state="session")
