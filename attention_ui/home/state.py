"""The start page's state: the live example's query, kept across pages and in the address."""

from __future__ import annotations

Q1, Q2 = "home.q1", "home.q2"
DEFAULTS = {Q1: 2.0, Q2: 0.5}
