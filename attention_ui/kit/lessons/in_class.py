"""A lesson in class: the teacher takes a lesson, the students follow its steps, and a step's
choice question is a class vote with the classroom's rounds (vote, discuss, vote again, reveal).

- The lesson's place travels with the teacher's published page state (`published`: the
  address's `lesson` and `step`, named `class_lesson` and `class_step` there), so a follower
  takes the step as it takes any teacher's state (`restore_with_lesson` opens the lesson
  there); Next is the teacher's Next.
- A step's choice question is stored as a `rounds.Question` of the page `lesson` (one part:
  the options by place, the right ones its winners), so the store counts its votes as any
  class question's. Until the reveal, a student's screen holds no word of which option is
  right: the options and the student's own answer only; each option's feedback comes with the
  reveal. The lesson's own "Check" is not offered in a class.
- The teacher's session keeps which question number each step was asked as; the summary (per
  question and round: answers per option, share right) is read back from the store's votes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping

import streamlit as st

from attention_ui.kit.classroom import follow, panel, store
from attention_ui.kit.classroom.follow import Member
from attention_ui.kit.classroom.rounds import Question, question_from, tally
from attention_ui.kit.export.csv_writer import rows_csv
from attention_ui.kit.lessons import place
from attention_ui.kit.lessons.builtin import IDS, builtin
from attention_ui.kit.lessons.format import LIMITS, Step, read_address_form
from attention_ui.kit.lessons.place import LESSON_PARAM, STEP_PARAM, Taking, taking
from attention_ui.kit.share.codec import PageSchema
from attention_ui.kit.text.i18n import current_language, t
from attention_ui.kit.text.markdown import escape_markdown

PAGE = "lesson"  # the class question's page: no page of the app has this name
ASKED = "lessonclass.asked"  # teacher: {(source, step): (question number, question json)}
_UNHIDDEN = "lessonclass.unhidden"  # teacher: the question number whose reveal showed the page
_CHOSEN = "lessonclass.chosen"  # the Class box's lesson picker
# The lesson's place in the published state: names of their own, since a page's own state may
# have a `step` (the Luong page's step picker)
LESSON_STATE, STEP_STATE = "class_lesson", "class_step"


# ---------------------------------------------------------------------------------------------
# The lesson's place with the teacher's state


def published() -> dict[str, str]:
    """The lesson's place to publish with the page's state (empty: no lesson, or one too long
    for an address, whose place then stays with the teacher)."""
    found = taking()
    params = place.lesson_params(found) if found is not None else {}
    if not params:
        return {}
    return {LESSON_STATE: params[LESSON_PARAM], STEP_STATE: params[STEP_PARAM]}


def restore_with_lesson(
    restore: Callable[[str, Mapping[str, str]], None], schemas: Mapping[str, PageSchema]
) -> Callable[[str, Mapping[str, str]], None]:
    """The classroom's restore for a follower: the page's state, then the teacher's lesson at
    the teacher's step (or no lesson, when the teacher has none open)."""

    def restore_both(page: str, state: Mapping[str, str]) -> None:
        state = dict(state)
        lesson, step = state.pop(LESSON_STATE, None), state.pop(STEP_STATE, None)
        restore(page, state)
        _take(lesson, step, schemas)

    return restore_both


def _take(lesson: str | None, step: str | None, schemas: Mapping[str, PageSchema]) -> None:
    if lesson is None or step is None or not step.isdigit() or len(step) > 5:
        if taking() is not None:
            place.close()
        return
    opened = (
        read_address_form(lesson, schemas) if lesson.startswith("~") else builtin(lesson, schemas)
    )
    if opened is None or opened.lesson is None or not 1 <= int(step) <= len(opened.lesson.steps):
        return
    # The step's state is the one just restored: its baseline is taken at this run's end.
    st.session_state[place.TAKING] = Taking(opened.lesson, lesson, int(step))
    # The address says the new place at once: a rerun before this run's end (the class
    # question's view asks for one) must not read the old step there and go back to it.
    st.query_params[LESSON_PARAM], st.query_params[STEP_PARAM] = lesson, step
    st.session_state[place.SEEN] = (lesson, step)
    st.session_state.pop(place.PENDING, None)
    st.session_state[place.FRESH] = True
    st.session_state.pop(place.BASELINE, None)
    st.session_state.pop(place.LEFT, None)


# ---------------------------------------------------------------------------------------------
# The Class box's lesson picker (the teacher's)


@follow.store_safe()
def chooser(open_builtin: Callable[[str], None], schemas: Mapping[str, PageSchema]) -> None:
    """In the sidebar, for a class's teacher: a built-in lesson to take with the class (its
    titles read against the app's pages, as the lesson opened is)."""
    found = follow.member()
    if found is None or not found.teacher:
        return
    lang = current_language()
    with st.sidebar.expander(t("lessonclass.box"), icon=":material/school:"):
        st.caption(t("lessonclass.box_help"))
        chosen = st.selectbox(
            t("lessonclass.pick"),
            IDS,
            format_func=lambda i: _title(i, lang, schemas),
            key=_CHOSEN,
        )
        st.button(
            t("lessonclass.open"),
            key="lessonclass.open",
            on_click=open_builtin,
            args=(chosen,),
            icon=":material/play_lesson:",
        )


def _title(lesson_id: str, lang: str, schemas: Mapping[str, PageSchema]) -> str:
    opened = builtin(lesson_id, schemas)
    if opened is None or opened.lesson is None or opened.lesson.title is None:
        return lesson_id
    return opened.lesson.title.get(lang)


# ---------------------------------------------------------------------------------------------
# The step's question as a class vote


def puzzle_id(found: Taking) -> str:
    """The question's id: the lesson's address form and the step (12 hex digits)."""
    text = f"{found.source}|{found.step}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def class_question(found: Taking) -> Question:
    """The step's choice question as the classroom stores it: one part, the options by place,
    the right ones its winners."""
    options = found.current.question.options
    return Question(
        PAGE,
        puzzle_id(found),
        (tuple(range(len(options))),),
        (tuple(i for i, option in enumerate(options) if option.right),),
    )


def _in_class() -> bool:
    return follow.member() is not None


@follow.store_safe(_in_class)  # in a class whose store is down: no own check either
def question(found: Taking, step: Step, lang: str) -> bool:
    """In a class (with the lesson's place published), the step's choice question as a class
    vote; True when drawn here (the bar then draws no own check)."""
    member = follow.member()
    if member is None or found.source is None:
        return False
    view = follow.class_view(member.code)
    if view is None:
        return False
    asked = class_question(found)
    here = view.question is not None and view.question.page == PAGE
    here = here and view.question.puzzle == asked.puzzle
    st.markdown(f"**{escape_markdown(step.question.text.get(lang), LIMITS['question'])}**")
    if member.teacher:
        _teacher(member, found, view, asked if not here else view.question, here)
    else:
        _student(member, found, view, here, lang)
    return True


def _option_label(found: Taking, lang: str) -> Callable[[int], str]:
    options = found.current.question.options
    return lambda i: escape_markdown(options[i].text.get(lang), 200)


def _option_number(i: int) -> str:
    """An option as the class's chart and counts name it: its number in the teacher's list
    (a lesson's options are sentences, too long for a chart's axis on a phone)."""
    return t("lessonclass.option_n", n=i + 1)


def _teacher(member: Member, found: Taking, view, asked: Question, here: bool) -> None:
    lang = current_language()
    for i, option in enumerate(found.current.question.options):  # to read out to the class
        words = escape_markdown(option.text.get(lang), 200)
        st.markdown(t("lessonclass.option_line", n=i + 1, option=words))
    if not here:
        st.caption(t("lessonclass.ask_help"))
        st.button(
            t("lessonclass.ask"),
            key="lessonclass.ask",
            type="primary",
            icon=":material/how_to_vote:",
            on_click=_ask,
            args=(member, found, asked),
        )
        return
    labels = [t("lessonclass.answers")]
    panel.teacher_question(member.code, member.secret, labels, _option_number)
    if view.status.revealed:
        _unhide(found, view.status.question_no)
        for option in found.current.question.options:
            _feedback(option, lang, named=True)


@follow.store_safe()  # a callback: the sidebar says the store is down, the page goes on
def _ask(member: Member, found: Taking, asked: Question) -> None:
    eng = follow.engine()
    if not store.ask(eng, member.code, member.secret, asked):
        return
    status = store.status(eng, member.code)
    if status is not None:
        st.session_state.setdefault(ASKED, {})[(found.source, found.step)] = (
            status.question_no,
            asked.to_json(),
        )
    follow.forget_view(member.code)


def _unhide(found: Taking, number: int) -> None:
    """At the reveal, once: the page's predict switch off, so the page (and every follower)
    shows the result the question was about."""
    if st.session_state.get(_UNHIDDEN) == number:
        return
    st.session_state[_UNHIDDEN] = number
    key = f"{found.current.page}.predict"  # kit/teaching/predict_view.predict_switch's key
    if st.session_state.get(key):
        st.session_state[key] = False
        st.session_state[place.FRESH] = True  # still the step: its baseline is taken again


def _feedback(option, lang: str, named: bool) -> None:
    name = escape_markdown(option.text.get(lang), 200)
    said = escape_markdown(option.feedback.get(lang), LIMITS["feedback"])
    verdict = t("lessons.right") if option.right else t("lessons.wrong")
    text = f"{verdict} **{name}** — {said}" if named else f"{verdict} {said}"
    if option.right:
        st.success(text, icon=":material/check_circle:")
    else:
        st.error(text, icon=":material/cancel:")


def _student(member: Member, found: Taking, view, here: bool, lang: str) -> None:
    if not here:
        st.info(t("lessonclass.wait"), icon=":material/hourglass_top:")
        return
    question, status = view.question, view.status
    eng = follow.engine()
    ballots = {r: store.Ballot(question, status.question_no, r) for r in (1, 2)}
    mine = {r: store.my_answer(eng, member.code, member.secret, b) for r, b in ballots.items()}
    options = found.current.question.options
    if status.revealed:
        last = mine[2] or mine[1]
        if last is None:
            st.info(t("classroom.q.no_answer"))
        else:
            _feedback(options[last[0]], lang, named=True)
        for i, option in enumerate(options):  # a wrong (or no) answer: the right one too
            if option.right and (last is None or last[0] != i):
                _feedback(option, lang, named=True)
        votes = store.answers(eng, member.code, question, status.question_no)
        for r in (1, 2) if status.round == 2 else (1,):
            _round_line(r, tally(question, votes[r]))
        return
    st.caption(t("lessonclass.round", round=status.round))
    if mine[status.round] is not None:
        st.success(t("classroom.q.sent", round=status.round), icon=":material/how_to_vote:")
        st.info(t("classroom.q.hidden"), icon=":material/visibility_off:")
        return
    chosen = st.radio(
        t("lessonclass.your_answer"),
        question.options[0],
        index=None,
        format_func=_option_label(found, lang),
        key=f"lessonclass.vote.{status.question_no}.{status.round}",
    )
    if st.button(t("classroom.q.send"), key="lessonclass.send", type="primary"):
        if chosen is None:
            st.warning(t("classroom.q.choose_all"))
        elif store.vote(eng, member.code, member.secret, ballots[status.round], (chosen,)):
            follow.settle(eng)
            st.rerun()
        else:
            st.warning(t("classroom.q.not_counted"))
    st.info(t("classroom.q.hidden"), icon=":material/visibility_off:")


def _round_line(number: int, found) -> None:
    st.markdown(
        t(
            "lessonclass.round_right",
            round=number,
            right=found.all_right,
            answered=found.answered,
            share=round(100 * found.share(found.all_right)),
        )
    )


# ---------------------------------------------------------------------------------------------
# The summary


def summary_rows(found: Taking, lang: str) -> list[list[str]]:
    """One row per asked question, round and option: the step, the question, the round, the
    option, whether it is right, its answers, the round's answers and its share right (%)."""
    member = follow.member()
    rows = []
    for (source, number), (question_no, text) in sorted(st.session_state.get(ASKED, {}).items()):
        stored = question_from(text)
        if source != found.source or stored is None or not 1 <= number <= found.count:
            continue
        lesson_question = found.lesson.steps[number - 1].question
        votes = store.answers(follow.engine(), member.code, stored, question_no)
        for r in (1, 2):
            if not votes[r] and r == 2:
                continue
            counted = tally(stored, votes[r])
            share = round(100 * counted.share(counted.right[0]))
            for i, option in enumerate(lesson_question.options):
                rows.append(
                    [
                        str(number),
                        lesson_question.text.get(lang),
                        str(r),
                        option.text.get(lang),
                        t("lessonclass.yes") if option.right else t("lessonclass.no"),
                        str(counted.counts[0][i]),
                        str(counted.answered),
                        str(share),
                    ]
                )
    return rows


def _summary_lines(rows: list[list[str]]) -> None:
    """Per question asked, its text and each round's right share, read from the summary's
    rows (one per option: right ones counted): what a phone shows without scrolling."""
    rounds: dict[tuple[str, str], list[list[str]]] = {}
    for row in rows:
        rounds.setdefault((row[0], row[2]), []).append(row)
    said = set()
    for (step, number), options in rounds.items():
        if step not in said:
            said.add(step)
            question = escape_markdown(options[0][1], LIMITS["question"])
            st.markdown(t("lessonclass.summary_question", step=step, question=question))
        right = sum(int(o[5]) for o in options if o[4] == t("lessonclass.yes"))
        share = options[0][7]
        answered = options[0][6]
        st.markdown(
            t("lessonclass.round_right", round=number, right=right, answered=answered, share=share)
        )


def _header() -> list[str]:
    names = ("step", "question", "round", "option", "right", "answers", "answered", "share")
    return [t(f"lessonclass.column.{name}") for name in names]


@follow.store_safe()
def summary(found: Taking) -> None:
    """On the lesson's last step, for the class's teacher: every question asked, per round,
    answers per option and the share right, on screen and as a CSV file."""
    member = follow.member()
    if member is None or not member.teacher or found.step != found.count:
        return
    lang = current_language()
    rows = summary_rows(found, lang)
    st.markdown(f"**{t('lessonclass.summary')}**")
    if not rows:
        st.caption(t("lessonclass.summary_none"))
        return
    _summary_lines(rows)
    header = _header()
    shown = (0, 2, 4, 5, 3)  # step, round, right, answers, option (long: last, for a phone)
    st.dataframe(
        [{header[i]: row[i] for i in shown} for row in rows],
        hide_index=True,
        key="lessonclass.summary_table",
    )
    st.download_button(
        t("lessonclass.download"),
        rows_csv(header, rows),
        file_name="lesson-class-summary.csv",
        mime="text/csv",
        key="lessonclass.download",
        icon=":material/download:",
    )
