"""The home page's state in the shareable address: the live example's query."""

from __future__ import annotations

from attention_ui.home import state as home
from attention_ui.kit.share.codec import Number
from attention_ui.kit.share.schema import from_defaults

SCHEMA = from_defaults(
    "home",
    home.DEFAULTS,
    fields=(Number("q1", home.Q1, -3.0, 3.0), Number("q2", home.Q2, -3.0, 3.0)),
)
