"""The classroom on screen: the sidebar's Class box (start, join, code, QR, counts, follow) and
the class question in place of a page's predict-then-reveal puzzle.

Students poll with `st.fragment(run_every=STUDENT_POLL_SECONDS)` (Streamlit's public route for
a server-side change to reach a session); a poll that finds nothing new draws nothing and sends
nothing but the fragment's end, so 30 idle followers cost little. The teacher's live counts
and question poll every POLL_SECONDS. Every text is a catalog entry; user text (a database
record's name) is shown through Streamlit's text widgets or escaped.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from urllib.parse import urlencode

import plotly.graph_objects as go
import segno
import streamlit as st

from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import plotly_text
from attention_ui.kit.folds import folded
from attention_ui.kit.teaching.predict import Puzzle, grade, winners_of
from attention_ui.kit.text.i18n import current_language, t
from attention_ui.kit.text.markdown import escape_markdown

from . import follow, keeper, store
from .follow import Member, PageAccess
from .rounds import NO_WINNER, Question, RoundTally, changed, tally

POLL_SECONDS = 2.0  # the teacher's live counts and class question
# A follower's poll. A teacher's change reaches a follower after the wait for its next poll
# (up to this long) and a whole run of its page, so this bounds the follow latency; an idle
# poll is a fragment's run that reads a class view shared by the process (kit/classroom/
# follow.VIEW_TTL), never the store, so a class of idle followers costs little of a core.
# tests/deploy/test_classroom_postgres.py measures the latency with a class on two processes.
STUDENT_POLL_SECONDS = 1.0
_SEEN = "classroom.seen"  # the question's place (number, round, revealed) this screen drew
_BOX = "classroom.box"  # the Class box while not in a class (open or not)
_JOIN_BOX = "classroom.join_code"
_DRAWN_FOLLOWING = "classroom.drawn_following"  # what the sidebar said of following
PRESENT = follow.PRESENT  # the teacher's present mode (a toggle)
# Present mode's sizes, for the back of a hall (static rules, no user text): the class code,
# the join address on one line clear of its copy button, and every chart's text.
_PRESENT_CSS = """
.st-key-classroom-join-panel h1 { font-size: 72px !important; letter-spacing: 0.12em; }
.st-key-classroom-join-panel [data-testid="stCode"] pre { padding-right: 3.5rem; }
.st-key-classroom-join-panel [data-testid="stCode"] code {
  font-size: 24px !important; white-space: pre !important; word-break: keep-all; }
.stPlotlyChart .main-svg text { font-size: 18px !important; }
"""
_present_style = []  # the components-v2 piece that carries them (made once)


# -- the sidebar -------------------------------------------------------------------------------


def sidebar(page: str, access: PageAccess, state_now: Callable[[], dict[str, str]]) -> None:
    """The Class box of every page; while the store cannot be reached, a notice in its place
    (the page itself goes on)."""
    failed_before = st.session_state.pop(follow.STORE_DOWN, False)
    slot = st.sidebar.empty()
    with slot.container():
        drawn = _class_box(page, access, state_now)
    if not drawn:
        _store_down(slot)
    elif failed_before:
        _store_down(st.sidebar)
    if follow.member() is not None and follow.restored_recently():
        st.sidebar.info(t("classroom.notice.restored"), icon=":material/restore:")
    _top_of_page(page)
    found = follow.member()
    student = found is not None and not found.teacher
    teacher, drop_teacher = follow.teacher_to_keep()
    keeper.keep(
        found.code if student else None,
        found.secret if student else None,
        replace=follow.kept_refused(),
        teacher=teacher,
        drop_teacher=drop_teacher,
    )


@follow.store_safe()
def _top_of_page(page: str) -> None:
    """Above the page's title: a student's notice of an open class question on this page (a
    link down to it), or the teacher's join panel in present mode."""
    found = follow.member()
    if found is None:
        return
    if found.teacher:
        if presenting():
            _join_panel(found.code)
        return
    view = follow.class_view(found.code)
    if view is not None and student_question_here(page, view) and not view.status.revealed:
        st.info(t("classroom.q.notice", round=view.status.round), icon=":material/campaign:")


@follow.store_safe(lambda: False)
def student_question_here(page: str, view=None) -> bool:
    """A student's class question about this page is open: the page hides its own puzzle's
    controls and anything that would give the answer."""
    found = follow.member()
    if found is None or found.teacher:
        return False
    view = view or follow.class_view(found.code)
    return view is not None and view.question is not None and view.question.on_page(page)


@follow.store_safe(lambda: False)
def student_question_open() -> bool:
    """This browser is a student's, and the class has a question open (not yet revealed)."""
    found = follow.member()
    if found is None or found.teacher:
        return False
    view = follow.class_view(found.code)
    return view is not None and view.question is not None and not view.status.revealed


def _present_css() -> None:
    """Present mode's stylesheet, through a components-v2 piece mounted in the page itself
    (not isolated, so its rules reach the page); it draws nothing."""
    if not _present_style:
        _present_style.append(
            st.components.v2.component(
                "attention_present_style",
                html="<span></span>",
                css=_PRESENT_CSS,
                isolate_styles=False,
            )
        )
    _present_style[0](key="classroom.present_style", height=0)


def _join_panel(code: str) -> None:
    _present_css()
    address = _join_address(code)
    with st.container(key="classroom-join-panel", border=True):
        words, picture = st.columns([2, 1], vertical_alignment="center")
        with words:
            st.caption(t("classroom.join_address"))
            st.markdown(f"# {code}")
        picture.image(qr_png(address), caption=t("classroom.qr_caption", code=code), width=220)
        st.code(address, language=None, wrap_lines=False)  # the whole width, one line


def _store_down(where=st) -> None:
    where.warning(t("classroom.notice.store_down"), icon=":material/cloud_off:")


@follow.store_safe(lambda: False)
def _class_box(page: str, access: PageAccess, state_now) -> bool:
    found = follow.member()
    view = follow.class_view(found.code) if found is not None else None
    if found is not None and view is None:  # ended or expired
        follow.leave()
        st.session_state[follow.NOTICE] = "ended"
        found = None
    notice = st.session_state.pop(follow.NOTICE, None)
    if found is None and not notice:
        # Folded on a page's first view: what it holds (start, code, join) is built only once
        # it is opened, as opening it reruns the page (issue 25: a first view builds only what
        # it shows). In a class, or with a notice, it opens by itself and is built as before.
        fold = folded(t("classroom.title"), key=_BOX, icon=":material/groups:")
        if not fold.open:
            return True
        box = fold.box
    else:
        box = st.expander(t("classroom.title"), icon=":material/groups:", expanded=True)
    with box:
        if notice in ("unknown", "limited", "ended", "busy", "full", "too_many_classes"):
            st.warning(
                t(
                    f"classroom.notice.{notice}",
                    minutes=int(store.FAILURE_WINDOW_SECONDS // 60),
                    seats=store.MAX_SEATS,
                    classes=store.MAX_CLASSES,
                )
            )
        if found is None:
            _start_or_join(page, access, state_now)
            return True
        status = view.status
        st.session_state[_SEEN] = (status.question_no, status.round, status.revealed)
        if found.teacher:
            _teacher_box(found)
        else:
            _student_box(found, access, page)
    return True


def _start_or_join(page: str, access: PageAccess, state_now) -> None:
    st.caption(t("classroom.start_help", hours=store.CLASS_HOURS))
    st.button(
        t("classroom.start"),
        key="classroom.start",
        icon=":material/co_present:",
        on_click=lambda: follow.start_class(page, state_now()),
    )
    st.text_input(t("classroom.code_label"), key=_JOIN_BOX, max_chars=12)
    st.button(
        t("classroom.join"),
        key="classroom.join",
        icon=":material/login:",
        on_click=lambda: follow.join(st.session_state.get(_JOIN_BOX), access, page),
    )


def _join_address(code: str, **extra: str) -> str:
    base = st.context.url or "/"
    # The class's language: a student's screen starts in it (the switch changes it).
    params = {follow.CLASS_PARAM: code, **extra, "lang": current_language()}
    return f"{base}?{urlencode(params)}"


def qr_png(text: str) -> bytes:
    """The QR code of `text` as a PNG image (drawn here: nothing fetched)."""
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="png", scale=5, border=2)
    return buffer.getvalue()


def _teacher_box(found: Member) -> None:
    st.toggle(t("classroom.present"), key=PRESENT, help=t("classroom.present_help"))
    st.markdown(t("classroom.code_is", code=found.code))
    address = _join_address(found.code)
    st.caption(t("classroom.join_address"))
    st.code(address, language=None, wrap_lines=True)
    st.image(qr_png(address), caption=t("classroom.qr_caption", code=found.code), width=180)
    _teacher_counts(found.code)
    st.caption(t("classroom.ask_hint"))
    with st.popover(t("classroom.teacher_address"), icon=":material/key:"):
        st.caption(t("classroom.teacher_address_help"))
        st.code(
            _join_address(found.code, **{follow.TEACHER_PARAM: found.secret}),
            language=None,
            wrap_lines=True,
        )
    st.caption(t("classroom.expires", hours=store.CLASS_HOURS))
    st.button(t("classroom.end"), key="classroom.end", on_click=follow.end_class)


@st.fragment(run_every=POLL_SECONDS)
def _teacher_counts(code: str) -> None:
    if not _draw_counts(code):
        _store_down()


@follow.store_safe(lambda: False)
def _draw_counts(code: str) -> bool:
    connected, following = store.presence(follow.engine(), code)
    st.markdown(
        _counted(
            "classroom.counts",
            "classroom.counts_one",
            connected,
            connected=connected,
            following=following,
        )
    )
    return True


def _student_box(found: Member, access: PageAccess, page: str) -> None:
    st.markdown(t("classroom.student_in", code=found.code))
    st.session_state[_DRAWN_FOLLOWING] = found.following
    if found.following:
        st.caption(t("classroom.following"))
    else:
        st.info(t("classroom.not_following"), icon=":material/info:")
        st.button(
            t("classroom.follow_again"),
            key="classroom.follow_again",
            type="primary",
            icon=":material/sync:",
            on_click=follow.follow_again,
            args=(access, page),
        )
    st.button(t("classroom.leave"), key="classroom.leave", on_click=follow.leave)
    _student_poll(access, page)


@st.fragment(run_every=STUDENT_POLL_SECONDS)
def _student_poll(access: PageAccess, page: str) -> None:
    """Every STUDENT_POLL_SECONDS: the student is here; a change of the teacher's page or state (for
    a follower), of the question, of following (an own edit, seen at a run's end) or of the
    class's language (for a student who did not pick one) reruns the page. It draws nothing
    (an idle poll sends no element) unless the store is down."""
    if not _poll(access, page):
        _store_down()


@follow.store_safe(lambda: False)
def _poll(access: PageAccess, page: str) -> bool:
    found = follow.member()
    view = follow.class_view(found.code) if found is not None else None
    if view is None:
        st.rerun(scope="app")
    follow.touch_seat()
    place = (view.status.question_no, view.status.round, view.status.revealed)
    if (
        follow.check_teacher_change(access, page)
        or place != st.session_state.get(_SEEN)
        or found.following != st.session_state.get(_DRAWN_FOLLOWING)
        or follow.class_language(view) not in (None, current_language())
    ):
        st.rerun(scope="app")
    return True


# -- the class question ------------------------------------------------------------------------


@follow.store_safe(lambda: False)
def question_here(page: str) -> bool:
    """A class question about one of this page's puzzles is open for this browser's class."""
    found = follow.member()
    view = follow.class_view(found.code) if found is not None else None
    return view is not None and view.question is not None and view.question.on_page(page)


def _paused_question() -> bool | None:
    """In a class whose store is down: the class question's place says so (the answers stay
    hidden; nothing was sent), rather than the page's own puzzle taking it."""
    if follow.member() is None:
        return None
    st.warning(t("classroom.q.paused"), icon=":material/cloud_off:")
    return False


@follow.store_safe(_paused_question)  # None: the page draws its own puzzle
def class_puzzle(asked: Puzzle) -> bool | None:
    """The class's version of the page's puzzle: None when there is none (the page draws its
    own, with an Ask button for a teacher); else True once the answers may be shown."""
    found = follow.member()
    view = follow.class_view(found.code) if found is not None else None
    if view is None:
        return None
    question = view.question if view.question and view.question.page == asked.page else None
    if found.teacher:
        if question is None or (view.status.revealed and question.puzzle != asked.puzzle_id):
            _ask_button(found, Question(asked.page, asked.puzzle_id, *_parts(asked)))
            return None
        if question.puzzle != asked.puzzle_id:
            st.warning(t("classroom.q.teacher_other_numbers"), icon=":material/sync_problem:")
        labels = _labeller(question, asked)
        _teacher_question(found.code, found.secret, _part_texts(question, asked.questions), labels)
        return view.status.revealed
    if question is None:
        return None
    return _student_question(found, view, asked)


@follow.store_safe()
def question_without_numbers(page: str) -> None:
    """The class question about the puzzle `page` where the page has no numbers for it now
    (the training page after a setting changed, until it is trained again): it keeps its place,
    drawn from the stored question alone, so the teacher can still count, reveal and close it
    (options named by place) and a student's notice still leads to it."""
    found = follow.member()
    view = follow.class_view(found.code) if found is not None else None
    if view is None or view.question is None or view.question.page != page:
        return
    no_numbers = Puzzle(page, "", (), (), str, (), None, horizontal=False)
    if not found.teacher:
        _student_question(found, view, no_numbers)  # "not the numbers asked about"
        return
    st.warning(t("classroom.q.teacher_other_numbers"), icon=":material/sync_problem:")
    labels = _labeller(view.question, no_numbers)
    _teacher_question(found.code, found.secret, _part_texts(view.question, ()), labels)


def _labeller(question: Question, asked: Puzzle) -> Callable[[int], str]:
    """Names for the stored question's options. The page's own names hold only for the numbers
    the question was asked about: once the teacher changed them (m = 3 asked, then m = 2; other
    records), a stored option may no longer exist, or name another key, so options are then
    named by their place ("option 3"); "no winner" keeps its name."""
    same = question.puzzle == asked.puzzle_id
    current = {int(o) for o in asked.options}

    def label(option: int) -> str:
        if option == NO_WINNER and NO_WINNER in current:
            return asked.option_label(option)
        if same and option in current:
            return asked.option_label(option)
        return t("classroom.q.option", number=option + 1)

    return label


def _part_texts(question: Question, questions: Sequence[str]) -> list[str]:
    """One text per stored part: the page's question where it still has one (fewer queries
    now: the rest by number)."""
    return [
        questions[part] if part < len(questions) else t("classroom.q.part", number=part + 1)
        for part in range(len(question.options))
    ]


def _parts(asked: Puzzle):
    """Each part's options and the engine's winners (predict.winners_of, ties included)."""
    choices = tuple(int(o) for o in asked.options)
    return (
        tuple(choices for _ in asked.per_query),
        tuple(tuple(w for w in winners_of(weights) if w in choices) for weights in asked.per_query),
    )


def _ask_button(found: Member, question: Question) -> None:
    @follow.store_safe()
    def ask() -> None:
        store.ask(follow.engine(), found.code, found.secret, question)
        follow.forget_view(found.code)

    # One Ask button per puzzle: "classroom.ask" for a page's first, "classroom.ask.compare" for
    # the training page's "train.compare".
    _, dot, puzzle = question.page.partition(".")
    st.button(
        t("classroom.q.ask"),
        key=f"classroom.ask.{puzzle}" if dot else "classroom.ask",
        type="primary",
        icon=":material/how_to_vote:",
        on_click=ask,
        help=t("classroom.q.ask_help"),
    )


def teacher_question(code: str, key: str, questions, option_label) -> None:
    """The teacher's live view of a class question asked from elsewhere (a lesson's step):
    counts per round, the round buttons, the right answer and both rounds after the reveal."""
    _teacher_question(code, key, questions, option_label)


@st.fragment(run_every=POLL_SECONDS)
def _teacher_question(code: str, key: str, questions, option_label) -> None:
    """The teacher's live view: answers so far per round (no right answer before the
    reveal), the round buttons, and after the reveal both rounds side by side."""
    if not _teacher_view(code, key, questions, option_label):
        _store_down()


@follow.store_safe(lambda: False)
def _teacher_view(code: str, key: str, questions, option_label) -> bool:
    view = follow.class_view(code)
    if view is None or view.question is None:
        st.rerun(scope="app")
    question, status = view.question, view.status
    votes = store.answers(follow.engine(), code, question, status.question_no)
    connected, _ = store.presence(follow.engine(), code)
    st.header(t("classroom.q.title", round=status.round))
    rounds = [1, 2] if status.round == 2 else [1]
    tallies = {r: tally(question, votes[r]) for r in rounds}
    st.markdown(
        _counted(
            "classroom.q.answered",
            "classroom.q.answered_one",
            connected,
            answered=tallies[status.round].answered,
            connected=connected,
        )
    )
    for part, text in enumerate(questions):
        _histogram(question, part, text, tallies, option_label, status.revealed)
    if status.revealed:
        _round_summary(tallies, votes, len(question.options))
    _teacher_buttons(code, key, status)
    return True


def _teacher_buttons(code: str, key: str, status: store.Status) -> None:
    def act(action) -> None:
        action(follow.engine(), code, key)
        follow.forget_view(code)
        st.rerun(scope="app")

    columns = st.columns(3)
    vote_again = not status.revealed and status.round == 1
    if vote_again and columns[0].button(
        t("classroom.q.vote_again"), key="classroom.vote_again", icon=":material/forum:"
    ):
        act(store.reopen)
    reveal = not status.revealed and columns[1].button(
        t("classroom.q.reveal"),
        key="classroom.reveal",
        type="primary",
        icon=":material/visibility:",
    )
    if reveal:
        act(store.reveal)
    if columns[2].button(t("classroom.q.close"), key="classroom.close", icon=":material/close:"):
        act(store.close_question)


def _histogram(question, part, text, tallies, option_label, revealed) -> None:
    labels = [option_label(o) for o in question.options[part]]
    st.markdown(text)
    show_chart(
        histogram_chart(
            labels,
            {
                t("classroom.q.round", round=r): [
                    tallies[r].counts[part][o] for o in question.options[part]
                ]
                for r in tallies
            },
            large=presenting(),
            axes=(t("classroom.q.answer_axis"), t("classroom.q.count_axis")),
        ),
        f"classroom.histogram.{part}",
    )
    counts = ", ".join(
        t(
            "classroom.q.count_of",
            answer=escape_markdown(label, 40),
            counts=" / ".join(str(tallies[r].counts[part][o]) for r in tallies),
        )
        for label, o in zip(labels, question.options[part], strict=True)
    )
    st.caption(counts)
    if revealed:
        best = [escape_markdown(option_label(w), 40) for w in question.winners[part]]
        if not best and NO_WINNER in question.options[part]:
            best = [escape_markdown(option_label(NO_WINNER), 40)]
        right = " / ".join(_percent(tallies[r].share(tallies[r].right[part])) for r in tallies)
        rounds = " / ".join(t("classroom.q.round", round=r) for r in tallies)  # only those held
        st.success(
            t(
                "classroom.q.right_answer",
                best=t("predict.and").join(best),
                rounds=rounds,
                right=right,
            )
        )


def histogram_chart(
    labels: Sequence[str], rounds: dict[str, list[int]], large: bool, axes: tuple[str, str]
) -> go.Figure:
    """Students per answer, a bar per round side by side, titled by `axes` (answers, count).
    The count axis has whole steps and reaches at least 1, so an empty round reads 0 and 1,
    not 0.000000; `large` (present mode): every text 18 px or more, for the back of a hall."""
    top = max([1, *(count for counts in rounds.values() for count in counts)])
    names = [plotly_text(label) for label in labels]  # a record's name is the student's text
    size = 20 if large else 12
    figure = go.Figure(
        [
            go.Bar(
                x=list(range(len(labels))),
                y=[int(count) for count in counts],
                customdata=names,
                name=name,
                hovertemplate="%{customdata}: %{y}<extra>" + plotly_text(name) + "</extra>",
            )
            for name, counts in rounds.items()
        ]
    )
    figure.update_layout(
        barmode="group",
        height=300 if large else 200,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        font={"size": size},
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
    )
    figure.update_xaxes(
        title_text=axes[0],
        tickvals=list(range(len(labels))),
        ticktext=names,
        tickangle=0,
    )
    figure.update_yaxes(
        title_text=axes[1],
        range=[0, top],
        tickformat="d",
        dtick=max(1, round(top / 5)),
    )
    return figure


def presenting() -> bool:
    """The teacher's present mode is on in this session."""
    return bool(st.session_state.get(PRESENT))


def _counted(many: str, one: str, number: int, **params) -> str:
    """The catalog's sentence for `number` things: its form for exactly one, or for many."""
    return t(one if number == 1 else many, **params)


def _percent(share: float) -> str:
    return t("classroom.q.percent", value=round(100 * share))


def _round_summary(tallies: dict[int, RoundTally], votes, parts: int) -> None:
    """Each round's share of students right on every part (every query of a page's question;
    a lesson's question has one part), and how many changed their answer."""
    whole = "round_result" if parts > 1 else "round_result_single"
    for r, found in tallies.items():
        st.markdown(
            _counted(
                f"classroom.q.{whole}",
                f"classroom.q.{whole}_one",
                found.answered,
                round=r,
                right=found.all_right,
                answered=found.answered,
                share=_percent(found.share(found.all_right)),
            )
        )
    if 2 in tallies:
        count = changed(votes[1], votes[2])
        st.markdown(_counted("classroom.q.changed", "classroom.q.changed_one", count, count=count))


def _student_question(found: Member, view: store.ClassView, asked: Puzzle) -> bool:
    """The student's answer form, their answer once sent, and after the reveal their verdict
    (the page's own feedback sentences) and the class's figures. True once revealed."""
    question, status = view.question, view.status
    st.header(t("classroom.q.title", round=status.round), anchor="class-question")
    if question.puzzle != asked.puzzle_id:
        st.warning(t("classroom.q.other_numbers"), icon=":material/sync_problem:")
        return False
    eng = follow.engine()
    ballots = {r: store.Ballot(question, status.question_no, r) for r in (1, 2)}
    mine = {r: store.my_answer(eng, found.code, found.secret, b) for r, b in ballots.items()}
    if status.revealed:
        last = mine[2] or mine[1]
        if last is None:
            st.info(t("classroom.q.no_answer"))
        else:
            per_query = asked.per_query
            for verdict, weights in zip(grade(list(last), per_query), per_query, strict=True):
                st.markdown(asked.describe(verdict, weights))
        votes = store.answers(eng, found.code, question, status.question_no)
        rounds = [1, 2] if status.round == 2 else [1]
        _round_summary({r: tally(question, votes[r]) for r in rounds}, votes, len(question.options))
        return True
    if mine[status.round] is not None:
        st.success(t("classroom.q.sent", round=status.round), icon=":material/how_to_vote:")
        st.info(t("classroom.q.hidden"), icon=":material/visibility_off:")
        return False
    if status.round == 2:
        st.caption(t("classroom.q.round_two"))
    choices = []
    for part, text in enumerate(asked.questions[: len(question.options)]):
        choices.append(
            st.radio(
                text,
                question.options[part],
                index=None,
                format_func=lambda option: escape_markdown(asked.option_label(option), 60),
                key=f"classroom.vote.{status.question_no}.{status.round}.{part}",
            )
        )
    if st.button(
        t("classroom.q.send"), key="classroom.send", type="primary", icon=":material/send:"
    ):
        answer = tuple(choices)
        if not question.accepts(answer):
            st.warning(t("classroom.q.choose_all"))
        else:
            _send(eng, found, ballots[status.round], answer)
    st.info(t("classroom.q.hidden"), icon=":material/visibility_off:")
    return False


def _send(eng, found: Member, ballot: store.Ballot, answer: tuple[int, ...]) -> None:
    """The vote, counted or said not to be: a store that cannot take it leaves the choices in
    place and the Send button to press again."""
    try:
        counted = store.vote(eng, found.code, found.secret, ballot, answer)
        follow.settle(eng)  # in the file that stays before the student is told
    except follow.STORE_ERRORS:
        st.session_state[follow.STORE_DOWN] = True
        st.error(t("classroom.q.not_sent"), icon=":material/cloud_off:")
        return
    if counted:
        st.rerun()
    st.warning(t("classroom.q.not_counted"))
