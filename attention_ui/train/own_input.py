"""Your own input through the trained model: a row of the task's tokens the learner types,
the model's answer, the task's answer by its own rule (attention_core/task_rule.py: any row
the rule can answer gets a verdict, a row it cannot is named in one sentence), and the last
layer's head step by step, oriented as the snapshot heatmap: outputs on rows, input positions
on columns, each labelled with its token."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_core import ToyTask, TrainingRun
from attention_ui.kit.teaching.steps_view import show_steps, step_figure
from attention_ui.kit.text.i18n import t
from attention_ui.kit.text.markdown import escape_markdown
from attention_ui.train import compute, state
from attention_ui.train.state import Settings


def input_labels(task: ToyTask, row: np.ndarray) -> list[str]:
    """'1 · C→5': each input position and its token."""
    return [f"{i + 1} · {task.tokens[int(token)]}" for i, token in enumerate(row)]


def query_labels(task: ToyTask, row: np.ndarray) -> list[str]:
    """'5 · C?': each output's query, the position it is read at and the token there."""
    return [f"{i + 1} · {task.tokens[int(row[i])]}" for i in task.read_at]


def _tokens_text(task: ToyTask, ids) -> str:
    return escape_markdown(" ".join(task.tokens[int(i)] for i in ids), 80)


def _key_letter(label: str) -> str:
    """The key of a pair 'C→5' or a query 'C?'."""
    return label.split("→")[0].rstrip("?")


def problem_sentence(task: ToyTask, code: str, numbers: dict) -> str:
    """Why the task's rule has no answer for this row, in one sentence (task_rule's codes)."""
    label = task.tokens[int(numbers["token"])]
    words = {"token": escape_markdown(label, 20), "letter": escape_markdown(_key_letter(label), 20)}
    if "positions" in numbers:
        first, second = numbers["positions"][:2]
        words |= {"first": first + 1, "second": second + 1}
    if "position" in numbers:
        words["position"] = numbers["position"] + 1
    kind = f"{code}_{numbers['place']}" if code == "misplaced" else code
    return t(f"learned.input.{task.name}.{kind}", **words)


def verdict(task: ToyTask, answer: compute.Answer) -> None:
    """The task's answer by its rule and whether the model gives it, or why there is none."""
    if answer.problem is not None:
        code, numbers = answer.problem
        st.warning(problem_sentence(task, code, numbers), icon=":material/help:")
        return
    expected = _tokens_text(task, answer.expected)
    right = int((answer.expected == answer.predictions).sum())
    total = len(answer.expected)
    if right == total:
        st.success(t("learned.input.right", expected=expected), icon=":material/check:")
    else:
        st.error(
            t("learned.input.wrong", expected=expected, right=right, total=total),
            icon=":material/close:",
        )


def _head(run: TrainingRun) -> int:
    """The head shown step by step (1-based): a number box when there are several."""
    if run.heads == 1:
        return 1
    if not 1 <= st.session_state.get(state.HEAD, 1) <= run.heads:
        st.session_state[state.HEAD] = 1  # a run with fewer heads
    return int(
        st.number_input(
            t("train.input.head"),
            min_value=1,
            max_value=run.heads,
            step=1,
            key=state.HEAD,
            persist_state="session",
        )
    )


def section(run: TrainingRun, settings: Settings) -> np.ndarray:
    """A row of tokens the learner types goes through the trained model (final parameters):
    its answer, the task's verdict, and the last layer's head step by step (the engine's own
    steps). Returns the tokens (the first example's while the box holds something unreadable)."""
    task = compute.task_of(settings.task, settings.seed)
    st.header(t("train.input.title"))
    key = f"{state.PROBE}.{settings.task}"
    st.session_state.setdefault(key, " ".join(task.tokens[int(i)] for i in task.inputs[0]))
    text = st.text_input(
        t("train.input.label", length=task.length),
        key=key,
        max_chars=200,
        help=t("train.input.help", examples=" ".join(task.tokens[: min(len(task.tokens), 12)])),
        persist_state="session",
    )
    parsed = compute.parse_tokens(text, task)
    if parsed.problem is not None:
        code, params = parsed.problem
        if "token" in params:
            params = {**params, "token": escape_markdown(str(params["token"]), 20)}
        st.error(t(f"train.input.{code}", **params), icon=":material/error:")
        return task.inputs[0]
    answer = compute.answer(run, task, parsed.tokens)
    st.markdown(t("train.input.answer", answer=_tokens_text(task, answer.predictions)))
    verdict(task, answer)
    head = _head(run)
    result = answer.heads[head - 1]
    layer = t("learned.input.layer_two") if run.layers == 2 else ""
    st.caption(
        t(
            "learned.input.steps_intro",
            head=head,
            layer=layer,
            score=t(f"engine.value.score.{run.score}"),
        )
    )
    titles = {
        kind: t(f"learned.input.axis.{kind}") for kind in ("query", "key", "dim", "sum", "hidden")
    }
    labels = {"query": query_labels(task, parsed.tokens), "key": input_labels(task, parsed.tokens)}
    figures = {step.key: step_figure(step, "row", titles, labels=labels) for step in result.steps}
    show_steps(result, titles, namespace="train", key_prefix="train.chart.step", figures=figures)
    return parsed.tokens
