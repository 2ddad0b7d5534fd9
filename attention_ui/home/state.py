"""The start page's state: the live example's query, kept across pages and in the address;
each setting declared once (kit/state/settings.py)."""

from __future__ import annotations

from attention_ui.kit.state import settings

Q1 = settings.number("home.q1", "q1", 2.0, -3.0, 3.0, label="home.example.q1")
Q2 = settings.number("home.q2", "q2", 0.5, -3.0, 3.0, label="home.example.q2")
SETTINGS = (Q1, Q2)
