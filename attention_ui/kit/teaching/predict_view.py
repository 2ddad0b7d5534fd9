"""Predict, then reveal, on screen: the switch, one question per query, the reveal and the
feedback. Pages call `predict_switch` and then their own puzzle (Luong: `key_puzzle`,
database: `record_puzzle`); while it returns False the page hides its answers.

The guesses' widget keys carry the puzzle's id (kit.teaching.predict.puzzle_id), so any change
of the numbers is a new puzzle: fresh questions, answers hidden again.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import streamlit as st

from attention_core.formatting import fmt
from attention_ui.kit.classroom.panel import class_puzzle, question_here
from attention_ui.kit.teaching.predict import NO_WINNER, Puzzle, Verdict, grade
from attention_ui.kit.text.i18n import t

# Marks drawn with Streamlit's Material icons (emoji fonts are missing on some screens).
RIGHT, WRONG = ":green[:material/check_circle:]", ":red[:material/cancel:]"
NO_GUESS = ":gray[:material/remove_circle_outline:]"


def predict_switch(page: str) -> bool:
    """The 'Predict, then reveal' switch (kept while the learner visits other pages)."""
    if question_here(page):  # the class question takes the puzzle's place
        return True
    return st.toggle(
        t("predict.switch"),
        key=f"{page}.predict",
        help=t("predict.switch_help"),
        persist_state="session",
    )


def _revealed_key(page: str) -> str:
    return f"{page}.predict.revealed"


def _reveal(page: str, puzzle: str) -> None:
    st.session_state[_revealed_key(page)] = puzzle


def _hide(page: str) -> None:
    st.session_state.pop(_revealed_key(page), None)


def puzzle(asked: Puzzle) -> bool:
    """One question per query, then a reveal button; after the reveal, a verdict per query and
    the score. Returns True once revealed (the page then shows its answers). In a class,
    the class question takes its place (attention_ui.kit.classroom.panel)."""
    in_class = class_puzzle(asked)
    if in_class is not None:
        return in_class
    page, puzzle_id, options = asked.page, asked.puzzle_id, asked.options
    revealed = st.session_state.get(_revealed_key(page)) == puzzle_id
    guesses = []
    for number, question in enumerate(asked.questions):
        widget = st.radio if asked.horizontal else st.selectbox
        extra = {"horizontal": True} if asked.horizontal else {"placeholder": t("predict.choose")}
        guesses.append(
            widget(
                question,
                options,
                index=None,
                format_func=asked.option_label,
                # Not disabled after the reveal: that would make it another widget, which
                # forgets the guess. A guess changed after the reveal is graded anew.
                key=f"{page}.predict.guess.{number}.{puzzle_id}",
                **extra,
            )
        )
    # Whatever arrives as widget state is input: a guess that is not an option is no guess.
    guesses = [guess if guess in options else None for guess in guesses]
    if not revealed:
        missing = sum(guess is None for guess in guesses)
        st.button(
            t("predict.reveal"),
            key=f"{page}.predict.reveal",
            type="primary",
            on_click=_reveal,
            args=(page, puzzle_id),
            icon=":material/visibility:",
        )
        if missing:
            st.caption(
                t("predict.missing_one" if missing == 1 else "predict.missing", count=missing)
            )
        st.info(t("predict.hidden"), icon=":material/visibility_off:")
        return False
    _feedback(asked, guesses)
    return True


def _feedback(asked: Puzzle, guesses: Sequence[int | None]) -> None:
    """After the reveal: the score, a verdict per query and the button to guess again."""
    verdicts = grade(guesses, asked.per_query)
    right = sum(v.right for v in verdicts)
    (st.success if right == len(verdicts) else st.info)(
        t("predict.score", right=right, total=len(verdicts)), icon=":material/school:"
    )
    for verdict, weights in zip(verdicts, asked.per_query, strict=True):
        mark = RIGHT if verdict.right else (NO_GUESS if verdict.guess is None else WRONG)
        st.markdown(f"{mark} {asked.describe(verdict, weights)}")
    st.button(
        t("predict.again"),
        key=f"{asked.page}.predict.again",
        on_click=_hide,
        args=(asked.page,),
        icon=":material/replay:",
    )


def winners_text(names: Sequence[str], weights: np.ndarray, winners: Sequence[int]) -> str:
    """'k2 (0.73)' or, for a tie, 'k1 and k2 (0.45 each)', in the current language."""
    if len(winners) == 1:
        return t("predict.one_winner", name=names[winners[0]], weight=fmt(weights[winners[0]]))
    return t(
        "predict.tie",
        names=t("predict.and").join(names[i] for i in winners),
        weight=fmt(weights[winners[0]]),
    )


def verdict_text(
    verdict: Verdict,
    question: str,
    names: Sequence[str],
    weights: np.ndarray,
    *,
    none_name: str = "",
) -> str:
    """The feedback sentence for one query (names are already safe for Markdown)."""
    best = winners_text(names, weights, verdict.winners) if verdict.winners else none_name
    tie = len(verdict.winners) > 1
    if verdict.guess is None:
        return t("predict.no_guess", question=question, best=best)
    chosen = none_name if verdict.guess == NO_WINNER else names[verdict.guess]
    if verdict.right:
        return t(
            "predict.right_tie" if tie else "predict.right",
            question=question,
            chosen=chosen,
            best=best,
        )
    chosen_weight = (
        ""
        if verdict.guess == NO_WINNER
        else t("predict.chosen_weight", weight=fmt(weights[verdict.guess]))
    )
    return t(
        "predict.wrong", question=question, chosen=chosen, chosen_weight=chosen_weight, best=best
    )
