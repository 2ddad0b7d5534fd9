"""Where the learner is in a lesson: the lesson being taken, its step, and whether the page
still shows the step's state. Kept in the session; the address holds the lesson and the step
(`?lesson=<id or ~packed>&step=<n>`), written by kit/share/address.update_address through
`lesson_address`. Imports no other part of the share kit (the address module imports this).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

import streamlit as st

from attention_ui.kit.lessons.format import Lesson, Step

LESSON_PARAM = "lesson"
STEP_PARAM = "step"
TAKING = "lessons.taking"  # the Taking below, while a lesson is open
PENDING = "lessons.pending"  # the step's state is still to be set, on its page
FRESH = "lessons.fresh"  # the step's state was just set: the run's end takes its baseline
BASELINE = "lessons.baseline"  # the page's address parameters once the step was set
LEFT = "lessons.left"  # the page's state is no longer the step's (the learner edited it)
SEEN = "lessons.seen"  # the (lesson, step) of the address last read or written


@dataclass(frozen=True)
class Taking:
    """A lesson being taken: `source` is its address form (a built-in id or `~packed`; None
    when it is too long for an address), `step` counts from 1."""

    lesson: Lesson
    source: str | None
    step: int

    @property
    def current(self) -> Step:
        return self.lesson.steps[self.step - 1]

    @property
    def count(self) -> int:
        return len(self.lesson.steps)


def taking() -> Taking | None:
    found = st.session_state.get(TAKING)
    return found if isinstance(found, Taking) else None


def go_to(found: Taking, step: int) -> None:
    """Move to `step` (1 … count): its state is set on its page at the next run's top."""
    st.session_state[TAKING] = Taking(found.lesson, found.source, max(1, min(step, found.count)))
    st.session_state[PENDING] = True


def close() -> None:
    for key in (TAKING, PENDING, FRESH, BASELINE, LEFT):
        st.session_state.pop(key, None)


def left_the_step() -> bool:
    return bool(st.session_state.get(LEFT))


def lesson_params(found: Taking) -> dict[str, str]:
    return {LESSON_PARAM: found.source, STEP_PARAM: str(found.step)} if found.source else {}


def lesson_address(
    page: str, page_params: Mapping[str, str], whole_run: bool, late: Collection[str] = ()
) -> dict | None:
    """At the end of a run (whole or fragment), with the page's own address parameters: the
    lesson's parameters for the address (None: no lesson, or one too long for an address,
    whose page keeps its own). On the step's page, the first whole run after the step was set
    takes the baseline; a later difference is the learner leaving the step (kept in LEFT).
    A parameter of `late` (a widget's) that first appears after the baseline is a widget drawn
    later (a result's step picker shown once the answers are): it joins the baseline."""
    found = taking()
    if found is None:
        st.session_state[SEEN] = (None, None)
        return None
    if found.current.page == page and not st.session_state.get(PENDING):
        if whole_run and st.session_state.pop(FRESH, False):
            st.session_state[BASELINE] = dict(page_params)
        baseline = st.session_state.get(BASELINE)
        if baseline is not None:
            for name in set(page_params) - set(baseline):
                if name in late:
                    baseline[name] = page_params[name]
        st.session_state[LEFT] = baseline is not None and dict(page_params) != baseline
    params = lesson_params(found)
    st.session_state[SEEN] = (params.get(LESSON_PARAM), params.get(STEP_PARAM))
    return params or None
