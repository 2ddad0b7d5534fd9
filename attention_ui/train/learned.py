"""What the trained model learned, drawn in the task's own tokens and positions
(attention_core/learned.py computes every table), and induction's two heads forming over
training.

- `learned_section`: per head of the first layer (the one that reads E[tokens] + P), its score
  split the way the model computes it: a token × token table and a position × position table
  (their sum with the two cross tables is the score, exactly), location's token × key position
  and position × key position tables (it reads no key), or concat's exact token × token score
  at two positions (it is not a sum of parts); the cross tables and the d × d matrices in a fold.
- `induction_section`: each first-layer head's previous-token score and each last-layer head's
  prefix-matching score at every snapshot, on one chart, and the first layer's attention.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from attention_core import ToyTask, TrainingRun
from attention_core.formatting import fmt
from attention_core.learned import (
    BILINEAR,
    ScoreParts,
    concat_table,
    induction_curves,
    read_positions,
    score_parts,
    token_rows,
)
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import SIGNED, WEIGHTS, Titles, heatmap
from attention_ui.kit.folds import fold
from attention_ui.kit.text.i18n import t
from attention_ui.train import compute
from attention_ui.train.figures import curves
from attention_ui.train.own_input import input_labels
from attention_ui.train.state import Settings

FORMED = 0.5  # a head "does" its job once its score is above this (the target)
MASKED = replace(SIGNED, missing="")  # a causal mask's cells: never scored, drawn empty
FOLD = "train.learned.fold"  # the cross parts and the d × d matrices, built only while open


def _details(run: TrainingRun) -> tuple:
    """The settings that name a chart's PNG (never user text)."""
    return (run.task, run.score, f"h{run.heads}", f"d{run.d_model}", f"seed{run.seed}")


def _head_columns(heads: int) -> list:
    """A column for each head, two heads to a row."""
    columns = st.columns(min(heads, 2))
    return [columns[head % len(columns)] for head in range(heads)]


# ---------------------------------------------------------------------------------------------
# Which rows and columns of the tables the task uses


def query_positions(task: ToyTask) -> np.ndarray:
    """The positions whose queries the first layer asks: the answering ones for one layer,
    every position for the first of two."""
    return np.arange(task.length) if task.layers == 2 else task.read_at


def used_rows(task: ToyTask, positions: np.ndarray) -> np.ndarray:
    """The rows of E (tokens, or features) that occur at these positions in the task."""
    return np.flatnonzero(token_rows(task, task.inputs[:, positions]).sum(axis=(0, 1)))


def key_rows(task: ToyTask) -> np.ndarray:
    """The rows of E the keys hold: at the positions no query is asked from (key lookup's
    pairs), or at every position when every one asks."""
    others = np.setdiff1d(np.arange(task.length), query_positions(task))
    return used_rows(task, others if others.size else np.arange(task.length))


def row_names(task: ToyTask) -> tuple[str, ...]:
    return task.feature_names if task.features is not None else task.tokens


def masked(task: ToyTask, table: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """A position × position table with the cells a causal mask never scores set to NaN."""
    if not task.causal:
        return table
    return np.where(np.arange(task.length)[None, :] <= rows[:, None], table, np.nan)


def spread(table: np.ndarray) -> float:
    """How much a part moves the score between the keys of one query: the mean, over its
    rows, of each row's largest less its smallest entry (only differences within a row
    change a softmax)."""
    return float(np.nanmean(np.nanmax(table, axis=1) - np.nanmin(table, axis=1)))


# ---------------------------------------------------------------------------------------------
# What a table's numbers show, when they show it


def expected_key(task: ToyTask, position: int) -> int | None:
    """The key position the task needs from a query at `position`, where positions alone
    decide it: reversal's mirror, the previous position (previous token, induction's first
    layer); None where the tokens decide (key lookup)."""
    if task.name == "reverse":
        return task.length - 1 - position
    if task.name == "previous" and position >= 1:
        return position - 1
    if task.name == "induction" and position in read_positions(task):
        return position - 1  # where the answers stand, which layer 2 reads (as the curves)
    return None


def position_claim(task: ToyTask, table: np.ndarray, rows: np.ndarray) -> tuple[int, int] | None:
    """(rows whose largest entry is the needed key position, rows that need one)."""
    pairs = [(r, expected_key(task, int(p))) for r, p in enumerate(rows)]
    pairs = [(r, k) for r, k in pairs if k is not None]
    if not pairs:
        return None
    hits = sum(int(np.nanargmax(table[r]) == k) for r, k in pairs)
    return hits, len(pairs)


def letter_claim(task: ToyTask, table: np.ndarray, rows: np.ndarray, cols: np.ndarray):
    """Key lookup: (query rows A? … whose largest entry among the key letters is their own
    letter, query rows); None for other tasks."""
    if task.name != "lookup":
        return None
    names = row_names(task)
    letters = [c for c in cols if not names[c].isdigit()]
    hits = 0
    for r, row in enumerate(rows):
        best = letters[int(np.argmax(table[r, [list(cols).index(c) for c in letters]]))]
        hits += int(names[best] == names[row].rstrip("?"))
    return hits, len(rows)


# ---------------------------------------------------------------------------------------------
# Drawing


def _table(table, x_labels, y_labels, titles: Titles, key: str, run, looks=SIGNED) -> None:
    hover = [
        [_hover(x, y, v) for x, v in zip(x_labels, row, strict=True)]
        for y, row in zip(y_labels, table, strict=True)
    ]
    figure = heatmap(table, x_labels, y_labels, titles, hover=hover, looks=looks)
    show_chart(figure, key, details=_details(run))


def _hover(x: str, y: str, value: float) -> str:
    return f"{y} · {x}: {fmt(value)}" if np.isfinite(value) else t("learned.masked")


def _positions(values) -> list[str]:
    return [str(int(p) + 1) for p in values]


def learned_section(run: TrainingRun, settings: Settings, step: int) -> None:
    """Each head's learned score at the slider's step, in the task's tokens and positions."""
    task = compute.task_of(settings.task, settings.seed)
    snapshot = run.snapshot_at(step)
    st.header(t("learned.title", step=fmt(snapshot.step)))
    if run.layers == 2:
        st.caption(t("learned.first_layer"))
    if run.score == "concat":
        _concat(run, task, snapshot.params)
    else:
        st.markdown(t(f"learned.{'location' if run.score == 'location' else 'bilinear'}"))
        for head, column in enumerate(_head_columns(run.heads)):
            parts = score_parts(snapshot.params, run.score, run.heads, head)
            with column:
                _head_tables(run, task, parts, head)
    label = t("learned.fold" if run.score in BILINEAR else "learned.fold_parameters")
    with fold(label, key=FOLD, icon=":material/grid_on:") as open_:
        if open_ and run.score != "concat":
            for head, column in enumerate(_head_columns(run.heads)):
                parts = score_parts(snapshot.params, run.score, run.heads, head)
                with column:
                    _cross_tables(run, task, parts, head)
        if open_:
            score_matrices(run, snapshot)


def _head_tables(run: TrainingRun, task: ToyTask, parts: ScoreParts, head: int) -> None:
    """One head's token table (token × token, or token × key position for location) and its
    position × position table, and what their numbers show."""
    q_pos, names = query_positions(task), row_names(task)
    q_rows = used_rows(task, q_pos)
    position_table = masked(task, parts.position_position[q_pos], q_pos)
    letters = None
    if parts.kind == "bilinear":
        k_rows = key_rows(task)
        token_table = parts.token_token[np.ix_(q_rows, k_rows)]
        x_labels, x_title = [names[r] for r in k_rows], t("learned.axis.key_token")
        letters = letter_claim(task, token_table, q_rows, k_rows)
    else:  # location: the query's token against each key position (no key token)
        token_table = parts.token_position[q_rows]
        x_labels, x_title = _positions(range(task.length)), t("learned.axis.key_position")
    number = head + 1
    _table(
        token_table,
        x_labels,
        [names[r] for r in q_rows],
        Titles(
            t(f"learned.tokens_title.{parts.kind}", number=number),
            x_title,
            t("learned.axis.query_token"),
        ),
        f"train.chart.tokens.{head}",
        run,
    )
    _table(
        position_table,
        _positions(range(task.length)),
        _positions(q_pos),
        Titles(
            t("learned.positions_title", number=number),
            t("learned.axis.key_position"),
            t("learned.axis.query_position"),
        ),
        f"train.chart.positions.{head}",
        run,
        MASKED,
    )
    said = []
    if letters is not None:
        said.append(t("learned.claim.letters", hits=letters[0], rows=letters[1]))
    where = position_claim(task, position_table, q_pos)
    if where is not None:
        said.append(t(f"learned.claim.positions.{task.name}", hits=where[0], rows=where[1]))
    said.append(
        t(
            f"learned.claim.spread.{parts.kind}",
            tokens=fmt(spread(token_table)),
            positions=fmt(spread(position_table)),
        )
    )
    st.caption("  \n".join(said))


def _cross_tables(run: TrainingRun, task: ToyTask, parts: ScoreParts, head: int) -> None:
    """The two cross parts of a bilinear score: query token × key position and query position
    × key token (location: none; its token table is already token × key position)."""
    if parts.kind != "bilinear":
        return
    q_pos, names = query_positions(task), row_names(task)
    q_rows, k_rows = used_rows(task, q_pos), key_rows(task)
    number = head + 1
    _table(
        parts.token_position[q_rows],
        _positions(range(task.length)),
        [names[r] for r in q_rows],
        Titles(
            t("learned.cross.token_position", number=number),
            t("learned.axis.key_position"),
            t("learned.axis.query_token"),
        ),
        f"train.chart.token_position.{head}",
        run,
    )
    _table(
        parts.position_token[np.ix_(q_pos, k_rows)],
        [names[r] for r in k_rows],
        _positions(q_pos),
        Titles(
            t("learned.cross.position_token", number=number),
            t("learned.axis.key_token"),
            t("learned.axis.query_position"),
        ),
        f"train.chart.position_token.{head}",
        run,
    )


def _concat(run: TrainingRun, task: ToyTask, params) -> None:
    """concat is not a sum of token and position parts: its exact score over query tokens ×
    key tokens, with the query and the key at positions the learner picks."""
    st.markdown(t("learned.concat"))
    q_pos = query_positions(task)
    left, right = st.columns(2)
    query = left.selectbox(
        t("learned.concat_query"),
        [int(p) for p in q_pos],
        index=len(q_pos) - 1,
        format_func=lambda p: str(p + 1),
        key=f"train.learned.query.{task.name}",
    )
    key = right.selectbox(
        t("learned.concat_key"),
        list(range(task.length)),
        index=int(task.attend[0, -1]),
        format_func=lambda p: str(p + 1),
        key=f"train.learned.key.{task.name}",
    )
    q_rows = np.unique(task.inputs[:, query])
    k_rows = np.unique(task.inputs[:, key])
    for head, column in enumerate(_head_columns(run.heads)):
        table = concat_table(params, run.heads, head, (query, key), task.features)
        with column:
            _table(
                table[np.ix_(q_rows, k_rows)],
                [task.tokens[r] for r in k_rows],
                [task.tokens[r] for r in q_rows],
                Titles(
                    t("learned.concat_title", number=head + 1, query=query + 1, at_key=key + 1),
                    t("learned.axis.key_token"),
                    t("learned.axis.query_token"),
                ),
                f"train.chart.tokens.{head}",
                run,
            )


def score_matrices(run: TrainingRun, snapshot) -> None:
    """Each head's learned score matrix at this step over embedding entries
    (compute.score_matrix): d × d for the bilinear scores, W_a for concat and location."""
    st.markdown(t(f"train.learned.{compute.score_matrix_kind(run.score)}"))
    for head, column in enumerate(_head_columns(run.heads)):
        matrix, rows, cols = compute.score_matrix(snapshot.params, run.score, run.heads, head)
        figure = heatmap(
            matrix,
            [str(j + 1) for j in range(matrix.shape[1])],
            [str(i + 1) for i in range(matrix.shape[0])],
            Titles(
                t("train.learned.head", number=head + 1),
                t(f"train.learned.axis.{cols}"),
                t(f"train.learned.axis.{rows}"),
            ),
            looks=SIGNED,
        )
        with column:
            show_chart(figure, f"train.chart.learned.{head}", details=_details(run))


# ---------------------------------------------------------------------------------------------
# Induction: both layers


def _both_above(curves_, threshold: float) -> np.ndarray:
    """At each snapshot: are the best previous-token head and the best prefix-matching head
    both above `threshold`?"""
    return (curves_.previous_token.max(axis=1) > threshold) & (
        curves_.prefix_matching.max(axis=1) > threshold
    )


def formed_at(curves_, threshold: float = FORMED) -> int | None:
    """The first snapshot step at which the best previous-token head and the best
    prefix-matching head are both above `threshold`, or None."""
    hits = np.flatnonzero(_both_above(curves_, threshold))
    return int(curves_.steps[hits[0]]) if hits.size else None


def fell_at(curves_, threshold: float = FORMED) -> int | None:
    """The first snapshot step after `formed_at` at which the two are no longer both above
    `threshold` (a run that collapses), or None when they stay above to the end."""
    both = _both_above(curves_, threshold)
    hits = np.flatnonzero(both)
    if not hits.size:
        return None
    after = np.flatnonzero(~both[hits[0] :])
    return int(curves_.steps[hits[0] + after[0]]) if after.size else None


def formed_sentence(curves_, threshold: float = FORMED) -> str:
    """When both scores passed `threshold`, and whether they stayed there: "from step S on"
    only when every later snapshot holds them above it."""
    formed = formed_at(curves_, threshold)
    if formed is None:
        return t("learned.induction.not_formed", threshold=fmt(threshold))
    fell = fell_at(curves_, threshold)
    if fell is None:
        return t("learned.induction.formed", threshold=fmt(threshold), step=fmt(formed))
    return t(
        "learned.induction_fell.formed",
        threshold=fmt(threshold),
        step=fmt(formed),
        fell=fmt(fell),
        last=fmt(int(curves_.steps[-1])),
        previous=fmt(float(curves_.previous_token[-1].max())),
        prefix=fmt(float(curves_.prefix_matching[-1].max())),
    )


def induction_section(run: TrainingRun, step: int) -> None:
    """Two-layer runs: each first-layer head's previous-token score and each last-layer
    head's prefix-matching score over training, on one chart with the slider's step marked;
    when both first pass FORMED; and the first layer's attention at the slider's step."""
    if run.layers != 2:
        return
    found = induction_curves(run)
    snapshot = run.snapshot_at(step)
    st.header(t("learned.induction.title"))
    st.markdown(t("learned.induction.intro"))
    series = {}
    for head in range(run.heads):
        name = t("learned.induction.previous", head=head + 1)
        series[name] = (found.steps, found.previous_token[:, head])
    for head in range(run.heads):
        name = t("learned.induction.prefix", head=head + 1)
        series[name] = (found.steps, found.prefix_matching[:, head])
    figure = curves(
        series,
        (t("learned.induction.chart"), t("train.curves.step"), t("learned.induction.score")),
        y_range=(0.0, 1.02),
        x_max=run.steps,
        marker_step=snapshot.step,
    )
    show_chart(figure, "train.chart.induction", details=_details(run))
    st.caption(formed_sentence(found))
    _first_layer(run, snapshot)


def _first_layer(run: TrainingRun, snapshot) -> None:
    """The first layer's attention on the first example at this snapshot, one chart per head,
    titled with the head's previous-token score."""
    task = compute.task_of(run.task, run.seed)
    labels = input_labels(task, task.inputs[0])
    weights = snapshot.layer_weights[0][0]  # heads × L × L (query rows)
    for head, column in enumerate(_head_columns(run.heads)):
        score = fmt(float(snapshot.previous_token[head]))
        figure = heatmap(
            weights[head],
            labels,
            labels,
            Titles(
                t("learned.induction.layer_one", head=head + 1, score=score),
                t("train.axis.input"),
                t("learned.axis.query_position"),
            ),
            looks=WEIGHTS,
        )
        with column:
            show_chart(figure, f"train.chart.layer1.{head}", details=_details(run))
    st.caption(t("learned.induction.layer_one_caption"))
