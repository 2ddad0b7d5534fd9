"""A seat per student, not per tab: the browser keeps its seat (localStorage, shared by every
tab and reload of the app's origin) through a components-v2 piece that draws nothing.

Each run of a page in a class tells the piece this tab's class and seat. The piece's script
compares them with the seat the browser keeps: none, or one of another class, and it keeps this
tab's; one of the same class but another seat (a second tab that took a new seat before the
piece could answer), and it reports the kept one, which this tab then takes
(`follow.adopt_kept_seat`: checked against the store like an address, and the new seat is given
back). Out of a class it reports the kept seat, so the join box takes it for the same code.

The same piece keeps a teacher's key for their tab (sessionStorage: this tab only, gone when it
closes, so a shared computer does not hand the class to its next user): the key is never in the
address bar, and a reload of the teacher's tab resumes the class from what the piece reports
(`follow.adopt_kept_teacher`, checked like an address). A key that no longer holds (the class
ended) is dropped.
"""

from __future__ import annotations

import streamlit as st

KEY = "classroom.keeper"
_JS = """
function read(storage, name) {
  try {
    return JSON.parse(storage.getItem(name) || "null");
  } catch (error) {
    return null;
  }
}

function keepTeacher(data) {
  const name = "attention-explorer/class-teacher";
  let held = read(window.sessionStorage, name);
  if (!(held && typeof held.code === "string" && typeof held.key === "string")) held = null;
  const mine = data && data.teacher && typeof data.teacher.code === "string" ? data.teacher : null;
  if (mine && (!held || held.code !== mine.code || held.key !== mine.key)) {
    held = { code: mine.code, key: mine.key };
    window.sessionStorage.setItem(name, JSON.stringify(held));
  } else if (!mine && data && data.drop_teacher && held) {
    window.sessionStorage.removeItem(name);
    held = null;
  }
  return held;
}

export default function (component) {
  const { data, setStateValue } = component;
  const name = "attention-explorer/class-seat";
  let kept = read(window.localStorage, name);
  const valid = kept && typeof kept.code === "string" && typeof kept.seat === "string";
  const mine = data && data.mine && typeof data.mine.code === "string" ? data.mine : null;
  if (mine && (!valid || kept.code !== mine.code || mine.replace)) {
    window.localStorage.setItem(name, JSON.stringify({ code: mine.code, seat: mine.seat }));
    kept = { code: mine.code, seat: mine.seat };
  }
  const report = valid || mine ? { code: kept.code, seat: kept.seat } : null;
  const teacher = keepTeacher(data);
  // Only news: a report the server already holds would rerun the page for nothing, and a
  // rerun sent while the page's last run is still arriving carries the widgets' old values.
  const known = data ? data.known : null;
  if (JSON.stringify(report) !== JSON.stringify(known)) {
    setStateValue("kept", report);
  }
  const knownTeacher = data ? data.known_teacher : null;
  if (JSON.stringify(teacher) !== JSON.stringify(knownTeacher)) {
    setStateValue("teacher", teacher);
  }
}
"""
_piece = None


def _component():
    global _piece
    if _piece is None:
        _piece = st.components.v2.component("attention_seat_keeper", js=_JS)
    return _piece


def _reported(name: str, second: str) -> tuple[str, str] | None:
    state = st.session_state.get(KEY)
    kept = state.get(name) if isinstance(state, dict) else None
    if not isinstance(kept, dict):
        return None
    code, secret = kept.get("code"), kept.get(second)
    return (code, secret) if isinstance(code, str) and isinstance(secret, str) else None


def kept_seat() -> tuple[str, str] | None:
    """The class code and seat this browser keeps, as its piece last reported them (unchecked:
    the caller checks them against the store)."""
    return _reported("kept", "seat")


def kept_teacher() -> tuple[str, str] | None:
    """The class code and teacher key this tab keeps (unchecked, as `kept_seat`)."""
    return _reported("teacher", "key")


def keep(
    code: str | None,
    seat: str | None,
    replace: bool = False,
    teacher: tuple[str, str] | None = None,
    drop_teacher: bool = False,
) -> None:
    """Draw the piece (in the sidebar) with this tab's seat, or none out of a class. `replace`:
    the kept seat did not hold (an ended class, a seat purged): keep this one instead.
    `teacher`: this tab leads the class (code, key): keep the key; `drop_teacher`: the kept
    key no longer holds, or the class ended: forget it."""
    mine = {"code": code, "seat": seat, "replace": replace} if code and seat else None
    known, known_teacher = kept_seat(), kept_teacher()
    data = {
        "mine": mine,
        "known": {"code": known[0], "seat": known[1]} if known else None,
        "teacher": {"code": teacher[0], "key": teacher[1]} if teacher else None,
        "drop_teacher": drop_teacher,
        "known_teacher": (
            {"code": known_teacher[0], "key": known_teacher[1]} if known_teacher else None
        ),
    }
    with st.sidebar:
        _component()(
            data=data,
            key=KEY,
            default={"kept": None, "teacher": None},
            on_kept_change=lambda: None,
            on_teacher_change=lambda: None,
            height=0,
        )
