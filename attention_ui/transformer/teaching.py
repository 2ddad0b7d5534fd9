"""The transformer page's export panel: the multi-head run as a NumPy script, every
matrix (X, P, the W's, each head's weights, Y) as CSV, every step in LaTeX.
pages/transformer.py calls `export(...)`; tests call `transformer_script`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from attention_core import MultiHeadResult
from attention_core.multi_head import positional_encoding
from attention_ui.kit.export.latex_writer import derivation_latex
from attention_ui.kit.export.panel import Export, Table, export_panel
from attention_ui.kit.export.scripts import numpy_script
from attention_ui.kit.text.i18n import step_sentence, step_title, t
from attention_ui.transformer.model import PROJECTIONS, token_labels

PAGE = "transformer"

_POSITIONS_CODE = """\
# Sinusoidal positional encodings, added to X (positions counted from 0)
position = np.arange(n, dtype=float)[:, None]  # n × 1
pair = np.arange(d_model) // 2  # the c of columns 2c and 2c+1
angles = position / 10000.0 ** (2 * pair / d_model)  # n × d_model
P = np.where(np.arange(d_model) % 2 == 0, np.sin(angles), np.cos(angles))
H = X + P  # n × d_model
"""

_HEADS_CODE = """\
# Each head: its own d_h columns of W_Q, W_K, W_V, scaled dot attention, its output O_i
weights = np.zeros((heads, n, n))  # A_1 … A_h
outputs = []
for i in range(heads):
    columns = slice(i * d_h, (i + 1) * d_h)
    Q_i = H @ W_Q[:, columns]  # n × d_h
    K_i = H @ W_K[:, columns]  # n × d_h
    V_i = H @ W_V[:, columns]  # n × d_h
    S = Q_i @ K_i.T / np.sqrt(d_h)  # n × n: one query (token) per row
{mask_line}\
    E = np.exp(S - S.max(axis=1, keepdims=True))  # minus each row's max: no overflow
    weights[i] = E / E.sum(axis=1, keepdims=True)  # softmax along each row
    outputs.append(weights[i] @ V_i)  # O_i: n × d_h

# Concatenate the heads and mix them with W_O
C = np.concatenate(outputs, axis=1)  # n × d_model
Y = C @ W_O  # n × d_model
"""


def transformer_script(
    mh: MultiHeadResult,
    X: np.ndarray,
    projections: Mapping[str, np.ndarray],
    *,
    positions: bool,
    causal: bool,
    title: str = "Attention Explorer: multi-head self-attention",
) -> str:
    """A script that recomputes `multi_head(X, W_Q, W_K, W_V, W_O, heads, causal=…,
    positions=…)` with NumPy alone, head by head, and asserts its P, mask, per-head weights
    and output Y are the app's."""
    X = np.asarray(X, dtype=float)
    n, d_model = X.shape
    code = [
        "n, d_model = X.shape",
        "d_h = d_model // heads  # each head's share of the columns",
        "",
    ]
    code.append(_POSITIONS_CODE if positions else "H = X  # no positional encodings\n")
    if causal:
        code.append("mask = np.tril(np.ones((n, n), dtype=bool))  # token i attends to 1 … i\n")
    mask_line = (
        "    S = np.where(mask, S, -np.inf)  # masked: exp(-inf) = weight 0\n" if causal else ""
    )
    code.append(_HEADS_CODE.format(mask_line=mask_line))
    expected: dict[str, object] = {}
    if positions:
        expected["P"] = positional_encoding(n, d_model)
    if causal:
        expected["mask"] = np.asarray(mh.mask, dtype=bool)
    expected |= {
        "weights": np.asarray(mh.weights, dtype=float),
        "C": np.asarray(mh.concatenated, dtype=float),
        "Y": np.asarray(mh.output, dtype=float),
    }
    inputs = {
        "X": X,
        **{name: np.asarray(projections[name], dtype=float) for name in PROJECTIONS},
        "heads": mh.head_count,
    }
    comments = {
        "X": "n × d_model: one token per row",
        **{name: "d_model × d_model" for name in PROJECTIONS},
        "heads": "h: each head gets d_h = d_model / h columns",
    }
    return numpy_script(
        title=title,
        inputs=inputs,
        computation="\n".join(code),
        expected=expected,
        comments=comments,
        about=[
            f"tokens: {n}, d_model: {d_model}, heads: {mh.head_count}, "
            f"positional encodings: {'on' if positions else 'off'}, "
            f"causal mask: {'on' if causal else 'off'}."
        ],
    )


def export(
    mh: MultiHeadResult,
    tokens: Sequence[str],
    X: np.ndarray,
    projections: Mapping[str, np.ndarray],
    *,
    positions: bool,
    causal: bool,
) -> None:
    """The script, every matrix as CSV, and the steps (each head's in turn) in LaTeX."""

    def build() -> Export:
        labels = token_labels(list(tokens))
        n, d_model = np.shape(X)
        columns = [str(c) for c in range(1, d_model + 1)]
        tables = [Table("X", X, labels, columns)]
        if positions:
            tables.append(Table("P", positional_encoding(n, d_model), labels, columns))
        tables += [Table(name, projections[name], columns, columns) for name in PROJECTIONS]
        tables += [Table(f"A{i + 1}", mh.weights[i], labels, labels) for i in range(mh.head_count)]
        tables.append(Table("Y", mh.output, labels, columns))
        return Export(
            script=transformer_script(mh, X, projections, positions=positions, causal=causal),
            tables=tables,
            derivation=_derivation(mh, positions=positions, causal=causal),
        )

    export_panel(PAGE, build, details=(f"h{mh.head_count}",))


def _derivation(mh: MultiHeadResult, *, positions: bool, causal: bool) -> str:
    """The shared steps, each head's steps (titled with the head), then concat and W_O."""
    head_of: dict[int, str] = {}
    run_of: dict[int, tuple] = {}  # a head's step → that head's steps (its sentence reads them)
    ordered = [s for s in mh.steps if s.key not in ("heads_concatenated", "output_projected")]
    for number, run in enumerate(mh.heads, start=1):
        name = t("transformer.heads_grid.head", number=number, d_head=mh.d_head)
        for step in run.steps:
            head_of[id(step)] = name
            run_of[id(step)] = run.steps
            ordered.append(step)
    ordered += [mh.step("heads_concatenated"), mh.step("output_projected")]

    def title_of(step) -> str:
        head = head_of.get(id(step))
        return step_title(step) if head is None else f"{head}: {step_title(step)}"

    heading = (
        f"Attention Explorer, {t('transformer.title')}: h = {mh.head_count}, "
        f"d_model = {mh.output.shape[1]}, positions {'on' if positions else 'off'}, "
        f"causal {'on' if causal else 'off'}"
    )

    def sentence_of(step) -> str:
        return step_sentence(step, run_steps=run_of.get(id(step), mh.steps))

    return derivation_latex(ordered, title_of=title_of, sentence_of=sentence_of, heading=heading)
