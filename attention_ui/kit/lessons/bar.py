"""The lesson bar: on every page while a lesson is open, its title, "Step 3 of 8", the step's
prompt and question, Back, Next and Close. The frame calls `on_page_start` before the page is
drawn (the address's lesson, a step's state to set, the step's page to go to) and `bar` at the
top of the page.

A step's state is set like a followed teacher's (`restore`: the page's schema reads it as it
reads an address). Leaving it (editing a matrix) is allowed and said, with "Back to the step".
A step's choice question is answered before the page shows the result where the step's state
turns the page's predict-then-reveal switch on (kit/teaching/predict_view: `<page>.predict`):
checking the answer turns it off, and the feedback of the option chosen is shown.
Every text of a lesson is shown as text (`escape_markdown`), never as Markdown or HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import streamlit as st

from attention_ui.kit.lessons import in_class, place
from attention_ui.kit.lessons.builtin import IDS, builtin
from attention_ui.kit.lessons.format import LIMITS, LeftOut, Opened, Step, read_address_form
from attention_ui.kit.lessons.place import LESSON_PARAM, STEP_PARAM, Taking, taking
from attention_ui.kit.share.codec import PageSchema
from attention_ui.kit.text.i18n import current_language, t
from attention_ui.kit.text.markdown import escape_markdown

# One sentence about the last lesson opened (what it left out), kept on the page it is first
# said on (a page's first run is often followed at once by another) until a move
_NOTICE = "lessons.notice"
_OPENED = "lessons.opened"  # how many lessons this session opened: part of the answers' keys
_CHECKED = "lessons.checked"  # {step: the option checked} for the lesson being taken
MAX_LISTED = 6  # parts named in the left-out sentence; the rest are counted

Restore = Callable[[str, Mapping[str, str]], None]


# ---------------------------------------------------------------------------------------------
# Opening


def open_lesson(opened: Opened, source: str | None, step: int = 1) -> None:
    """Start taking `opened`'s lesson at `step` (its page is opened at the next run's top), or
    say why it could not open. What the reader left out is said in one sentence."""
    if opened.lesson is None:
        st.session_state[_NOTICE] = ("problem", opened.problem)
        return
    place.close()
    st.session_state[_OPENED] = st.session_state.get(_OPENED, 0) + 1
    st.session_state[_CHECKED] = {}
    found = Taking(opened.lesson, source, 1)
    place.go_to(found, step if 1 <= step <= found.count else 1)
    if opened.left_out:
        st.session_state[_NOTICE] = ("left_out", opened.left_out)
    elif not 1 <= step <= found.count:
        st.session_state[_NOTICE] = ("no_step", (step, found.count))
    else:
        st.session_state.pop(_NOTICE, None)


def open_builtin(lesson_id: str, schemas: Mapping[str, PageSchema], step: int = 1) -> None:
    opened = builtin(lesson_id, schemas)
    if opened is None:
        st.session_state[_NOTICE] = ("unknown_id", lesson_id)
    else:
        open_lesson(opened, lesson_id, step)


def _read_address(schemas: Mapping[str, PageSchema]) -> None:
    """When the address's lesson and step are not the ones last read or written (a shared link,
    a reload, the browser's Back), go there; an address without a lesson leaves it open."""
    lesson, step = st.query_params.get(LESSON_PARAM), st.query_params.get(STEP_PARAM)
    if lesson is None or st.session_state.get(place.SEEN) == (lesson, step):
        return
    st.session_state[place.SEEN] = (lesson, step)
    number = 0  # a step that is not a number is out of range
    if step is None or (step.isdigit() and len(step) < 6):
        number = int(step or 1)
    found = taking()
    if found is not None and found.source == lesson and 1 <= number <= found.count:
        if number != found.step:
            place.go_to(found, number)
        return
    if lesson.startswith("~"):
        open_lesson(read_address_form(lesson, schemas), lesson, number)
    else:
        open_builtin(lesson, schemas, number)


def on_page_start(page: str, restore: Restore, schemas: Mapping[str, PageSchema]) -> None:
    """At the top of a whole run, before the page's widgets: follow the address, then set the
    step's state on its page, or go to that page (the address keeps the lesson and the step)."""
    _read_address(schemas)
    found = taking()
    if found is None or not st.session_state.get(place.PENDING):
        return
    step = found.current
    if step.page != page:
        params = {"lang": current_language(), **place.lesson_params(found)}
        st.switch_page(f"pages/{step.page}.py", query_params=params)
    st.session_state.pop(place.PENDING, None)
    restore(page, step.params)
    st.session_state[place.FRESH] = True
    st.session_state.pop(place.BASELINE, None)
    st.session_state.pop(place.LEFT, None)


# ---------------------------------------------------------------------------------------------
# The bar


def bar(page: str) -> None:
    """The bar at the top of the page while a lesson is open; and, once, what the last lesson
    opened left out or why it did not open."""
    _notice(page)
    found = taking()
    if found is None:
        return
    step = found.current
    lang = current_language()
    with st.container(border=True, key="lessons.bar"):
        title = found.lesson.title.get(lang) if found.lesson.title else t("lessons.untitled")
        st.markdown(f"**{escape_markdown(title, LIMITS['title'])}**")
        st.caption(t("lessons.step_of", n=found.step, count=found.count))
        if step.page != page:
            st.info(t("lessons.elsewhere", page=t(f"{step.page}.menu")), icon=":material/map:")
            _back_to_step(found)
        else:
            if step.prompt is not None:
                st.markdown(escape_markdown(step.prompt.get(lang), LIMITS["prompt"]))
            if place.left_the_step():
                st.warning(t("lessons.left"), icon=":material/edit:")
                _back_to_step(found)
            _question(found, page, step, lang)
        _moves(found)
        in_class.summary(found)  # the class's teacher, on the last step


def _go(found: Taking, step: int) -> None:
    st.session_state.pop(_NOTICE, None)
    place.go_to(found, step)


def _close() -> None:
    st.session_state.pop(_NOTICE, None)
    place.close()


def _back_to_step(found: Taking) -> None:
    st.button(
        t("lessons.back_to_step"),
        key="lessons.back_to_step",
        on_click=_go,
        args=(found, found.step),
        icon=":material/undo:",
    )


def _moves(found: Taking) -> None:
    # One row that wraps, not columns: on a phone columns stack, three rows of buttons
    row = st.container(horizontal=True)
    row.button(
        t("lessons.back"),
        key="lessons.back",
        disabled=found.step <= 1,
        on_click=_go,
        args=(found, found.step - 1),
        icon=":material/arrow_back:",
        width="stretch",
    )
    row.button(
        t("lessons.next"),
        key="lessons.next",
        type="primary",
        disabled=found.step >= found.count,
        on_click=_go,
        args=(found, found.step + 1),
        icon=":material/arrow_forward:",
        width="stretch",
    )
    row.button(
        t("lessons.close"),
        key="lessons.close",
        on_click=_close,
        icon=":material/close:",
        width="stretch",
    )


def _predict_key(page: str) -> str:
    return f"{page}.predict"  # kit/teaching/predict_view.predict_switch's key


def _question(found: Taking, page: str, step: Step, lang: str) -> None:
    """The step's question: the page's own, or a choice checked here with its feedback."""
    question = step.question
    if question is None:
        return
    if question.kind == "page":
        st.info(t("lessons.page_question"), icon=":material/quiz:")
        return
    if in_class.question(found, step, lang):  # in a class: a class vote, no own check
        return
    answers = st.session_state.get(_CHECKED, {})
    key = f"lessons.answer.{st.session_state.get(_OPENED, 0)}.{found.step}"
    chosen = st.radio(
        escape_markdown(question.text.get(lang), LIMITS["question"]),
        range(len(question.options)),
        index=None,
        format_func=lambda i: escape_markdown(question.options[i].text.get(lang), 200),
        key=key,
    )
    checked = answers.get(found.step)
    if checked is None or checked != chosen:
        if _hides_result(page):
            st.caption(t("lessons.hidden"))
        st.button(
            t("lessons.check"),
            key="lessons.check",
            disabled=chosen is None,
            on_click=_check,
            args=(page, found.step, key),
            icon=":material/task_alt:",
        )
        return
    option = question.options[checked]
    feedback = escape_markdown(option.feedback.get(lang), LIMITS["feedback"])
    if option.right:
        st.success(f"{t('lessons.right')} {feedback}", icon=":material/check_circle:")
    else:
        st.error(f"{t('lessons.wrong')} {feedback}", icon=":material/cancel:")


def _hides_result(page: str) -> bool:
    """Whether the page's predict switch is on (the step's state hides its answers)."""
    return bool(st.session_state.get(_predict_key(page)))


def _check(page: str, step: int, key: str) -> None:
    """The answer is checked: its feedback shows, and the page shows its result (the step's
    state with the predict switch off is the step's state from now on)."""
    chosen = st.session_state.get(key)
    if not isinstance(chosen, int):
        return
    st.session_state.setdefault(_CHECKED, {})[step] = chosen
    if st.session_state.get(_predict_key(page)):
        st.session_state[_predict_key(page)] = False
        st.session_state[place.FRESH] = True


def offer(schemas: Mapping[str, PageSchema]) -> None:
    """The built-in lessons, one button each with its title and one line (home's first
    screen): a click opens the lesson at its first step, on that step's page."""
    st.header(t("lessons.offer.title"))  # under the page's title: headings in order
    st.caption(t("lessons.offer.intro"))
    for lesson_id in IDS:  # one row each: a title is never cut, in either language
        opened = builtin(lesson_id, schemas)
        title = opened.lesson.title.get(current_language())
        st.button(
            title,
            key=f"lessons.offer.{lesson_id}",
            on_click=open_builtin,
            args=(lesson_id, schemas),
            icon=":material/school:",
        )
        st.caption(t(f"lessons.offer.{lesson_id}", count=len(opened.lesson.steps)))


# ---------------------------------------------------------------------------------------------
# Sentences


def _notice(page: str) -> None:
    notice = st.session_state.get(_NOTICE)
    if notice is None:
        return
    kind, data, *where = notice
    if where and where[0] != page:  # said on the page the lesson opened on, until a move
        st.session_state.pop(_NOTICE, None)
        return
    st.session_state[_NOTICE] = (kind, data, page)
    if kind == "problem":
        st.warning(t(f"lessons.problem.{data}"), icon=":material/error:")
    elif kind == "unknown_id":
        st.warning(
            t("lessons.unknown_id", id=escape_markdown(data, 40), ids=", ".join(IDS)),
            icon=":material/error:",
        )
    elif kind == "no_step":
        st.warning(t("lessons.no_step", step=data[0], count=data[1]), icon=":material/error:")
    else:
        st.warning(left_out_sentence(data), icon=":material/error:")


def left_out_sentence(left_out: list[LeftOut]) -> str:
    """One sentence naming every part the reader left out (the first MAX_LISTED, then a
    count)."""
    parts = [_part(item) for item in left_out[:MAX_LISTED]]
    text = t("lessons.list_separator").join(parts)
    if len(left_out) > MAX_LISTED:
        text += t("lessons.and_more", count=len(left_out) - MAX_LISTED)
    return t("lessons.left_out", parts=text)


def _part(item: LeftOut) -> str:
    name = escape_markdown(item.name, 40)
    if item.step is None:
        return t(f"lessons.part.lesson_{item.part}", name=name)
    why = t(f"lessons.why.{item.why}", name=name)
    return t(f"lessons.part.{item.part}", step=item.step, name=name, why=why)
