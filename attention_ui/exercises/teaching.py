"""The exercises page's export panel: what the chosen exercise computes, as a NumPy
script with the page's numbers, its matrices as CSV and its derivation in LaTeX.

- 1 matching: the lookup (the database page's script);
- 2 gradient: p, o, ∂o/∂q and Cov_p(k)/τ, and the exercise's claim ∂o/∂q = Cov_p(k)/τ;
- 3 search: every iterate of gradient descent (q, p, loss), the final query and loss, and the
  hard argmax lookup;
- 4 Squeeze-and-Excitation: the sigmoid gates, the gated channels, the softmax gates.

The `*_script` functions are pure (tests run what they write); `export_*` draw the panel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_core import LookupResult, QueryGradient
from attention_core.search import SearchPath
from attention_core.squeeze_excitation import SqueezeExcitation
from attention_ui.exercises.compute import Records, Search
from attention_ui.kit.export.latex_writer import derivation_latex
from attention_ui.kit.export.panel import Export, Table, export_panel
from attention_ui.kit.export.scripts import (
    LookupCall,
    lookup_script,
    numpy_script,
    steps_listed,
)
from attention_ui.kit.text.i18n import t

PAGE = "exercises"


@dataclass(frozen=True)
class _Line:
    """One line of a derivation: a catalog key for its title, its formula, its matrix."""

    key: str
    latex: str
    value: np.ndarray


def _derivation(
    lines: Sequence[Any], title_of: Callable[[Any], str], section: str, note: str = ""
) -> str:
    heading = f"Attention Explorer, {t('exercises.title')}: {t(f'exercises.{section}.title')}"
    return derivation_latex(
        lines, title_of=title_of, sentence_of=lambda _: "", heading=heading, note=note
    )


def _export_title(line: Any) -> str:
    return t(f"exercises.export.{line.key}")


def _row(vector: Any) -> np.ndarray:
    return np.atleast_2d(np.asarray(vector, dtype=float))


# ---------------------------------------------------------------------------------------------
# Exercise 1: the lookup


def match_script(result: LookupResult, temperature: float) -> str:
    """The database page's lookup script for the one query of exercise 1 (softmax weights)."""
    call = LookupCall(
        [(r.key, r.value, r.number) for r in result.records],
        [result.query],
        result.similarity,
        temperature,
        "softmax",
    )
    return lookup_script(
        call,
        scores=_row(result.scores),
        weights=_row(result.weights),
        best=[result.best_index],
        pooled=[result.pooled_number],
        title="Attention Explorer: exercise 1, approximate matching",
    )


def export_match(result: LookupResult, temperature: float, latex: str, weights_latex: str) -> None:
    """`weights_latex`: how the page turns the scores into weights (exact matching divides by
    the sum and has no τ; the others are a softmax over τ)."""

    def build() -> Export:
        keys = [r.key for r in result.records]
        exact = result.similarity == "exact"
        lines = [
            _Line("match_scores", latex, _row(result.scores)),
            _Line(
                "match_weights_exact" if exact else "match_weights",
                weights_latex if exact else weights_latex + rf",\quad \tau = {temperature!r}",
                _row(result.weights),
            ),
        ]
        return Export(
            script=match_script(result, temperature),
            tables=[
                Table("scores", _row(result.scores), ["q"], keys),
                Table("weights", _row(result.weights), ["q"], keys),
            ],
            derivation=_derivation(lines, _export_title, "match"),
        )

    export_panel(PAGE, build, details=("match", result.similarity))


# ---------------------------------------------------------------------------------------------
# Exercise 2: ∂o/∂q = Cov_p(k)/τ

_GRADIENT_CODE = """\
# Dot scores and softmax weights (one key per column of K)
s = K.T @ q  # m: s_i = k_i · q
z = s / tau
p = np.exp(z - z.max())  # minus the max: no overflow
p = p / p.sum()  # m
o = V @ p  # the pooled output, d_v

# The Jacobian (1/τ) V (diag(p) − p pᵀ) Kᵀ, written centred: Σ_i p_i (v_i − o)(k_i − k̄)ᵀ / τ
# keeps the tiny true gradient when one weight is within 1e-16 of 1 (the textbook form below
# then returns rounding noise of the same tiny size)
k_bar = K @ p
J = ((V - o[:, None]) * p) @ (K - k_bar[:, None]).T / tau  # d_v × d_q
J_textbook = V @ (np.diag(p) - np.outer(p, p)) @ K.T / tau
assert np.allclose(J, J_textbook, atol=1e-12), 'the centred form is the textbook form'

# The exercise's claim: with k_i = v_i the Jacobian is the keys' covariance under p, over τ
covariance = ((K - k_bar[:, None]) * p) @ (K - k_bar[:, None]).T  # Σ_i p_i (k_i − k̄)(k_i − k̄)ᵀ
cov_over_tau = covariance / tau
assert np.allclose(J, cov_over_tau, atol=1e-12), 'd2l exercise 2: dO/dq = Cov_p(k) / tau'
# how strongly the output still reacts to q; scaled by the largest entry first so that entries
# below 1e-154 do not square to 0
largest = np.abs(J).max()
norm = largest * np.linalg.norm(J / largest) if largest > 0 else 0.0
"""


def gradient_script(result: QueryGradient, values: np.ndarray, covariance: np.ndarray) -> str:
    """Recomputes exercise 2 (dot score, keys = values) and checks p, o, ∂o/∂q, Cov_p(k)/τ
    and ‖∂o/∂q‖ against the app's; the script also asserts the exercise's claim itself."""
    tau = float(result.temperature)
    keys = np.asarray(values, dtype=float).T  # 2 × m: one key per column
    return numpy_script(
        title="Attention Explorer: exercise 2, the gradient is a covariance",
        inputs={"q": np.asarray(result.query, dtype=float), "K": keys, "V": keys, "tau": tau},
        comments={
            "q": "the query, d_q entries",
            "K": "d_k × m: one key per column",
            "V": "d_v × m: keys = values (k_i = v_i)",
            "tau": "τ",
        },
        computation=_GRADIENT_CODE,
        expected={
            "p": np.asarray(result.weights, dtype=float),
            "o": np.asarray(result.output, dtype=float),
            "J": np.asarray(result.jacobian, dtype=float),
            "cov_over_tau": np.asarray(covariance, dtype=float) / tau,
            "norm": float(result.norm),
        },
        about=[f"score: {result.score}, temperature: {tau!r}, keys = values."],
    )


def export_gradient(result: QueryGradient, values: np.ndarray, covariance: np.ndarray) -> None:
    def build() -> Export:
        labels = [f"k{i + 1}" for i in range(values.shape[0])]
        lines = [
            *(_Line(step.key, step.latex, step.value) for step in result.steps),
            _Line(
                "grad_covariance",
                r"\frac{1}{\tau}\operatorname{Cov}_{p}(\mathbf{k}) = \frac{1}{\tau}\sum_i p_i\,"
                r"(\mathbf{k}_i - \bar{\mathbf{k}})(\mathbf{k}_i - \bar{\mathbf{k}})^{\mathsf{T}}",
                covariance / result.temperature,
            ),
        ]
        return Export(
            script=gradient_script(result, values, covariance),
            tables=[
                Table("keys", values, labels, ["x", "y"]),
                Table("weights", _row(result.weights), ["p"], labels),
                Table("jacobian", result.jacobian, ["o1", "o2"], ["q1", "q2"]),
                Table("covariance", covariance / result.temperature, ["x", "y"], ["x", "y"]),
            ],
            derivation=_derivation(lines, _export_title, "grad"),
        )

    export_panel(PAGE, build, details=("grad",))


# ---------------------------------------------------------------------------------------------
# Exercise 3: the search engine

_NAMES_CODE = """\
# Each name as counts of its letter pairs (lower case, a space at both ends): one key per column
def letter_pairs(name):
    padded = " " + name.strip().lower() + " "
    return [padded[i:i + 2] for i in range(len(padded) - 1)]

vocabulary = sorted(set().union(*(letter_pairs(name) for name in names)))
K = np.array([[letter_pairs(name).count(pair) for name in names] for pair in vocabulary],
             dtype=float)  # pairs × records
q0 = np.zeros(len(vocabulary))  # the search starts at q = 0

"""

_SEARCH_CODE = """\
# Gradient descent on L(q) = -log p_target, p = softmax(Kᵀq): every iterate is recorded
q = q0.copy()
queries, weights, losses = [], [], []
for _ in range(steps + 1):
    z = K.T @ q  # m dot scores
    top = z.max()
    loss = top + np.log(np.exp(z - top).sum()) - z[target]  # -log p_target, stably
    p = np.exp(z - top) / np.exp(z - top).sum()
    gradient = -(K[:, target] - K @ p)  # ∇_q L = -(k_target - Σ_j p_j k_j)
    queries.append(q)
    weights.append(p)
    losses.append(loss)
    q = q - learning_rate * gradient
queries, weights, losses = np.array(queries), np.array(weights), np.array(losses)
final_query, final_loss = queries[-1], losses[-1]

# The hard lookup: weight 1 on the best key from the start; its loss has gradient 0 (or none)
hard_best = int(np.argmax(K.T @ q0))
"""


def search_steps_listed(path: SearchPath) -> int:
    """How many of the descent's iterates its export lists (each: a query, weights, a loss)."""
    numbers_per_step = path.queries.shape[1] + path.weights.shape[1] + 1
    return steps_listed(path.steps + 1, numbers_per_step)


def search_script(
    path: SearchPath,
    keys: np.ndarray,
    start: np.ndarray,
    hard_best: int,
    names: Sequence[str] | None = None,
) -> str:
    """Recomputes exercise 3's descent (as many steps as the page ran) and checks every
    iterate's query, weights and loss, the final query and loss, and the hard lookup's pick.
    With `names` the keys are built from the names' letter pairs, as the page builds them."""
    inputs: dict[str, Any] = {}
    comments = {
        "target": "0-based index of the record to find",
        "learning_rate": "η",
        "steps": "gradient steps the page ran",
    }
    if names is None:
        inputs |= {"K": np.asarray(keys, dtype=float), "q0": np.asarray(start, dtype=float)}
        comments |= {"K": "d × m: one key per column", "q0": "the starting query"}
        computation = _SEARCH_CODE
    else:
        inputs["names"] = [str(name) for name in names]
        comments["names"] = "the database's keys"
        computation = _NAMES_CODE + _SEARCH_CODE
    inputs |= {
        "target": int(path.target),
        "learning_rate": float(path.learning_rate),
        "steps": int(path.steps),
    }
    listed = search_steps_listed(path)
    if listed < path.steps + 1:
        computation += (
            f"\n# The app's listing below holds the first {listed} of the {path.steps + 1} "
            "iterates (a size limit);\n# the final query and loss are checked in full.\n"
            f"queries, weights, losses = queries[:{listed}], weights[:{listed}], "
            f"losses[:{listed}]\n"
        )
    expected: dict[str, Any] = {"K": np.asarray(keys, dtype=float)} if names is not None else {}
    expected |= {
        "queries": np.asarray(path.queries[:listed], dtype=float),
        "weights": np.asarray(path.weights[:listed], dtype=float),
        "losses": np.asarray(path.losses[:listed], dtype=float),
        "final_query": np.asarray(path.queries[-1], dtype=float),
        "final_loss": float(path.losses[-1]),
        "hard_best": int(hard_best),
    }
    return numpy_script(
        title="Attention Explorer: exercise 3, a differentiable search engine",
        inputs=inputs,
        comments=comments,
        computation=computation,
        expected=expected,
        about=[
            f"keys: {'letter pairs of names' if names is not None else 'vectors'}, "
            f"learning rate: {float(path.learning_rate)!r}, steps run: {path.steps}."
        ],
    )


def export_search(numbers: Search, records: Records) -> None:
    """The descent's export; by name, the script builds the keys from the names' letter pairs."""
    path, names = numbers.path, records.names if records.by_name else None

    def build() -> Export:
        listed, total = search_steps_listed(path), path.steps + 1
        queries, weights = path.queries[:listed], path.weights[:listed]
        losses = path.losses[:listed, None]
        iterations = [str(i) for i in range(listed)]
        dims = list(records.pairs) if records.by_name else ["x", "y"]
        lines = [
            _Line(
                "search_queries",
                r"\mathbf{q}_{t+1} = \mathbf{q}_t - \eta\,\nabla_{\mathbf{q}} L,\quad "
                rf"\eta = {float(path.learning_rate)!r}",
                queries,
            ),
            _Line(
                "search_weights",
                r"\mathbf{p}_t = \operatorname{softmax}(\mathbf{K}^{\mathsf{T}}\mathbf{q}_t)",
                weights,
            ),
            _Line("search_losses", r"L(\mathbf{q}_t) = -\log p_{t,\text{target}}", losses),
        ]
        left_out = (
            t("export.steps_left_out", listed=listed, total=total, left=total - listed)
            if listed < total
            else ""
        )
        return Export(
            script=search_script(path, records.keys, records.start, numbers.hard.best, names),
            tables=[
                Table("keys", np.asarray(records.keys).T, list(records.names), dims),
                Table("queries", queries, iterations, dims),
                Table("weights", weights, iterations, list(records.names)),
                Table("losses", losses, iterations, ["L"]),
            ],
            derivation=_derivation(lines, _export_title, "search", note=left_out),
            notes=(left_out,) if left_out else (),
        )

    export_panel(PAGE, build, details=("search",))


# ---------------------------------------------------------------------------------------------
# Exercise 4: Squeeze-and-Excitation

_SE_CODE = """\
# Squeeze: the mean of each channel (one channel per row of X): average pooling over the pixels
z = X.mean(axis=1)  # C
# Excitation: reduce to the hidden size (C/r in Hu et al., r the reduction ratio), ReLU, expand
h = np.maximum(W1 @ z, 0.0)  # hidden size
a = W2 @ h  # C: one score per channel
gates = 1.0 / (1.0 + np.exp(-a))  # sigmoid: in (0, 1) exactly, 1.0 in floating point for a >~ 37
# Scale: each channel times its own gate; nothing is summed over the channels (a gating)
Y = gates[:, None] * X  # C × P

# For contrast: softmax gates over the channels sum to 1 and compete (SE does not use them)
softmax_gates = np.exp(a - a.max()) / np.exp(a - a.max()).sum()
gate_sum = gates.sum()
"""


def se_script(se: SqueezeExcitation, soft: SqueezeExcitation, W1: Any, W2: Any) -> str:
    """Recomputes exercise 4's SE block and checks the gates, Y, the softmax gates and the
    sigmoid gates' sum against the app's."""
    return numpy_script(
        title="Attention Explorer: exercise 4, Squeeze-and-Excitation as attention",
        inputs={
            "X": np.asarray(se.feature_map, dtype=float),
            "W1": np.asarray(W1, dtype=float),
            "W2": np.asarray(W2, dtype=float),
        },
        comments={
            "X": "C × P: one channel per row, its pixels in the columns",
            "W1": "hidden × C: the reduction (hidden = C/r, r the reduction ratio)",
            "W2": "C × hidden: the expansion",
        },
        computation=_SE_CODE,
        expected={
            "gates": np.asarray(se.gates, dtype=float),
            "Y": np.asarray(se.output, dtype=float),
            "softmax_gates": np.asarray(soft.gates, dtype=float),
            "gate_sum": float(se.gate_sum),
        },
        about=[f"channels: {se.feature_map.shape[0]}, pixels: {se.feature_map.shape[1]}."],
    )


def export_se(
    se: SqueezeExcitation,
    soft: SqueezeExcitation,
    W1: Any,
    W2: Any,
    labels: tuple[Sequence[str], Sequence[str], Sequence[str]],
) -> None:
    channels, pixels, hidden = labels

    def build() -> Export:
        lines = [*se.steps, soft.steps[-2]]  # every step, then the softmax gates for contrast
        return Export(
            script=se_script(se, soft, W1, W2),
            tables=[
                Table("X", se.feature_map, channels, pixels),
                Table("W1", W1, hidden, channels),
                Table("W2", W2, channels, hidden),
                Table(
                    "gates",
                    np.column_stack([se.gates, soft.gates]),
                    channels,
                    ["sigmoid", "softmax"],
                ),
                Table("Y", se.output, channels, pixels),
            ],
            derivation=_derivation(lines, lambda s: t(f"exercises.se.step.{s.key}"), "se"),
        )

    export_panel(PAGE, build, details=("se",))
