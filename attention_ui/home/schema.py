"""The home page's state in the shareable address: the live example's query."""

from __future__ import annotations

from attention_ui.home import state as home
from attention_ui.kit.share.schema import from_settings

SCHEMA = from_settings("home", home.SETTINGS)
