"""Every number box of the app: a value that is not a finite number never reaches the page,
and no message can break the page or the server.

Streamlit turns a box's value into a number when the session's widget states are read at the
start of a run, before any app code (`NumberInputSerde.deserialize` in
streamlit/elements/widgets/number_input.py, from `SessionState._widget_changed`). A box of
whole numbers converts with `int()`, which raises on the NaN or ±∞ a crafted message can
carry: the page breaks and the server logs the traceback, and nothing of the app can step in
first. A box of decimal numbers takes a non-finite value as its default instead. So every box
is drawn as a decimal box whose default is "no value" (None): a non-finite value, an emptied
box or (for a whole-number setting) a fraction comes to the box's callback as something this
module refuses; the box then keeps its last value and says so, once, beside it. A whole
number comes back from the browser as a float (600.0): it is kept as an int (600) before the
box is drawn and when the callback takes it, so the page reads what it always read.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import streamlit as st

from attention_ui.kit.text.i18n import t

_REFUSED = "number_box.refused"  # the key of the box whose value was refused (shown once)
_NUMBERS = ("min_value", "max_value", "step")


def finite_value(value: Any, whole: bool) -> int | float | None:
    """`value` as the page takes it: a finite number (an int for a whole-number box), or
    None when it is not one."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    if not math.isfinite(value):
        return None
    if not whole:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    return int(value) if float(value).is_integer() else None


def number_box(
    label: str,
    key: str,
    default: int | float,
    whole: bool,
    where: Any = st,
    **options: Any,
) -> int | float:
    """A number box kept in the session under `key` (persist_state="session"): its value,
    checked (`finite_value`). `options` go to st.number_input (bounds, step, format, help,
    on_change with its args and kwargs: called only for a value the box takes)."""
    on_change = options.pop("on_change", None)
    then = (
        on_change if callable(on_change) else None,
        tuple(options.pop("args", None) or ()),
        dict(options.pop("kwargs", None) or {}),
    )
    for name in _NUMBERS:
        if options.get(name) is not None:
            options[name] = float(options[name])
    if whole:
        options = {"step": 1.0, "format": "%.0f", **options}
    kept = _kept(st.session_state.get(key, default), default, whole, options)
    now = st.session_state.get(key)
    if type(now) is not type(kept) or now != kept:
        st.session_state[key] = kept  # before the box is drawn: 600.0 from the browser is 600
    refused = st.session_state.get(_REFUSED) == key
    if refused:
        del st.session_state[_REFUSED]
    value = where.number_input(
        label,
        value=None,
        key=key,
        on_change=_take,
        args=(key, whole, kept, then, (options.get("min_value"), options.get("max_value"))),
        persist_state="session",
        **options,
    )
    if refused:
        low, high = options.get("min_value"), options.get("max_value")
        said = "number_box.whole" if whole else "number_box.number"
        if low is not None and high is not None:
            said += "_between"
        where.warning(
            t(said, label=label, value=kept, low=_shown(low, whole), high=_shown(high, whole)),
            icon=":material/pin:",
        )
    taken = finite_value(value, whole)
    return kept if taken is None else taken


def _shown(bound: float | None, whole: bool) -> str:
    """A bound as the box shows it (600, not 600.0)."""
    if bound is None:
        return ""
    return str(int(bound)) if whole or float(bound).is_integer() else f"{bound:g}"


def _kept(value: Any, default: int | float, whole: bool, options: dict) -> int | float:
    """The value the box shows: the session's, or its default if it is none; below or above
    bounds that changed since (a mask no longer than m), the lowest, as Streamlit's own box."""
    kept = finite_value(value, whole)
    kept = default if kept is None else kept
    low, high = options.get("min_value"), options.get("max_value")
    if (low is not None and kept < low) or (high is not None and kept > high):
        lowest = finite_value(low, whole)
        kept = default if lowest is None else lowest
    return kept


def _take(
    key: str,
    whole: bool,
    kept: int | float,
    then: tuple[Callable | None, tuple, dict],
    bounds: tuple[float | None, float | None] = (None, None),
):
    """The box's callback (before the run): a value it takes is kept as the page reads it and
    the page's own callback runs; any other (not a finite number, a fraction in a box of whole
    numbers, or beyond the box's bounds, which only a crafted message can send) goes back to
    `kept`, and the box says so."""
    value = finite_value(st.session_state.get(key), whole)
    low, high = bounds
    if value is not None and (
        (low is not None and value < low) or (high is not None and value > high)
    ):
        value = None
    if value is None:
        st.session_state[key] = kept
        st.session_state[_REFUSED] = key
        return
    st.session_state[key] = value
    callback, args, kwargs = then
    if callback is not None:
        callback(*args, **kwargs)
