"""A seat per student, not per tab: the browser keeps its seat (localStorage, shared by every
tab and reload of the app's origin) through a components-v2 piece that draws nothing.

Each run of a page in a class tells the piece this tab's class and seat. The piece's script
compares them with the seat the browser keeps: none, or one of another class, and it keeps this
tab's; one of the same class but another seat (a second tab that took a new seat before the
piece could answer), and it reports the kept one, which this tab then takes
(`follow.adopt_kept_seat`: checked against the store like an address, and the new seat is given
back). Out of a class it reports the kept seat, so the join box takes it for the same code.
"""

from __future__ import annotations

import streamlit as st

KEY = "classroom.keeper"
_JS = """
export default function (component) {
  const { data, setStateValue } = component;
  const name = "attention-explorer/class-seat";
  let kept = null;
  try {
    kept = JSON.parse(window.localStorage.getItem(name) || "null");
  } catch (error) {
    kept = null;
  }
  const valid = kept && typeof kept.code === "string" && typeof kept.seat === "string";
  const mine = data && data.mine && typeof data.mine.code === "string" ? data.mine : null;
  if (mine && (!valid || kept.code !== mine.code || mine.replace)) {
    window.localStorage.setItem(name, JSON.stringify({ code: mine.code, seat: mine.seat }));
    kept = { code: mine.code, seat: mine.seat };
  }
  const report = valid || mine ? { code: kept.code, seat: kept.seat } : null;
  // Only news: a report the server already holds would rerun the page for nothing, and a
  // rerun sent while the page's last run is still arriving carries the widgets' old values.
  const known = data ? data.known : null;
  if (JSON.stringify(report) !== JSON.stringify(known)) {
    setStateValue("kept", report);
  }
}
"""
_piece = None


def _component():
    global _piece
    if _piece is None:
        _piece = st.components.v2.component("attention_seat_keeper", js=_JS)
    return _piece


def kept_seat() -> tuple[str, str] | None:
    """The class code and seat this browser keeps, as its piece last reported them (unchecked:
    the caller checks them against the store)."""
    state = st.session_state.get(KEY)
    kept = state.get("kept") if isinstance(state, dict) else None
    if not isinstance(kept, dict):
        return None
    code, seat = kept.get("code"), kept.get("seat")
    return (code, seat) if isinstance(code, str) and isinstance(seat, str) else None


def keep(code: str | None, seat: str | None, replace: bool = False) -> None:
    """Draw the piece (in the sidebar) with this tab's seat, or none out of a class. `replace`:
    the kept seat did not hold (an ended class, a seat purged): keep this one instead."""
    mine = {"code": code, "seat": seat, "replace": replace} if code and seat else None
    known = kept_seat()
    data = {"mine": mine, "known": {"code": known[0], "seat": known[1]} if known else None}
    with st.sidebar:
        _component()(
            data=data, key=KEY, default={"kept": None}, on_kept_change=lambda: None, height=0
        )
