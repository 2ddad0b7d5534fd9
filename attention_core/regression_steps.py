"""The step-by-step record of a Nadaraya–Watson regression: what the app shows, matrix by matrix.

`nadaraya_watson` (regression.py) computes; this module only describes what it computed, as
steps.py does for `attention`. Each step is a key (the interface words it: `step.<key>` in
attention_ui/locales/<lang>/engine.toml), its formula in LaTeX with the actual sizes, its matrix
and an explainer that spells out one entry ('u₁₂ = d₁₂ / σ = −0.9 / 0.5 = −1.8').

Every matrix is n × m (one query per row, as d2l draws the weights); sums and predictions are
n × 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .formatting import fmt, operand, product_sum, subscript
from .normalize import SoftmaxStages
from .steps import Step

# κ(u) in LaTeX (d2l writes the triangular one and names it "Epanechikov").
KERNEL_LATEX: dict[str, str] = {
    "gaussian": r"\kappa(u) = \exp\!\left(-\tfrac{u^2}{2}\right)",
    "boxcar": r"\kappa(u) = \begin{cases} 1 & |u| < 1 \\ 0 & |u| \ge 1 \end{cases}",
    "constant": r"\kappa(u) = 1",
    "triangular": r"\kappa(u) = \max(0,\ 1 - |u|)",
    "epanechnikov": r"\kappa(u) = \tfrac{3}{4} \max(0,\ 1 - u^2)",
}

# The steps `nadaraya_watson` records, in order; the interface words each by its key.
NW_STEP_KEYS: tuple[str, ...] = (
    "nw_differences",
    "nw_scaled",
    "nw_scores",
    "nw_shifted",
    "nw_exponentials",
    "nw_kernel",
    "nw_sums",
    "nw_weights",
    "nw_prediction",
)


@dataclass(frozen=True)
class RegressionStep(Step):
    """A step of `nadaraya_watson` (its key is one of NW_STEP_KEYS)."""


@dataclass(frozen=True)
class RegressionRun:
    """What one `nadaraya_watson` run computed: the recorder's one input.

    `softmax` holds the Gaussian's stages (its numerators are their exponentials); it is None
    for the other kernels, whose numerators are κ(u) itself.
    """

    queries: np.ndarray  # n
    x: np.ndarray  # m
    y: np.ndarray  # m
    kernel: str
    sigma: float
    differences: np.ndarray  # n × m, x*ⱼ − xᵢ
    scaled: np.ndarray  # n × m, u = (x*ⱼ − xᵢ) / σ
    softmax: SoftmaxStages | None  # the Gaussian's −u²/2, shifted and exponentiated
    numerators: np.ndarray  # n × m, κ(u) (for the Gaussian: exp(score − max))
    sums: np.ndarray  # n
    weights: np.ndarray  # n × m
    prediction: np.ndarray  # n


def regression_steps(run: RegressionRun) -> tuple[Step, ...]:
    """The steps of one `nadaraya_watson` run, from the matrices it computed."""
    record = _Recorder()
    _distance_steps(record, run)
    if run.softmax is not None:
        _gaussian_steps(record, run, run.softmax)
    else:
        _kernel_step(record, run)
    _weight_steps(record, run)
    return tuple(record.steps)


class _Recorder:
    def __init__(self) -> None:
        self.steps: list[Step] = []

    def add(
        self,
        key: str,
        latex: str,
        value: np.ndarray,
        explain: Callable[[int, int], str],
        **params: Any,
    ) -> None:
        self.steps.append(RegressionStep(key, latex, value, params, explain))


def _d(j: int, i: int, name: str) -> str:
    """'d₁₂' for query 1 and training point 2."""
    return f"{name}{subscript(j + 1)}{subscript(i + 1)}"


def _distance_steps(b: _Recorder, run: RegressionRun) -> None:
    queries, x, differences, scaled, sigma = (
        run.queries,
        run.x,
        run.differences,
        run.scaled,
        run.sigma,
    )
    n, m = differences.shape
    b.add(
        "nw_differences",
        rf"\underbrace{{D}}_{{{n} \times {m}}},\quad d_{{ji}} = x^*_j - x_i",
        differences,
        lambda j, i: (
            f"{_d(j, i, 'd')} = x*{subscript(j + 1)} − x{subscript(i + 1)}"
            f" = {fmt(queries[j])} − {operand(x[i])} = "
            f"{fmt(differences[j, i])}"
        ),
        n=n,
        m=m,
    )
    b.add(
        "nw_scaled",
        rf"U = D / \sigma = D / {fmt(sigma)}",
        scaled,
        lambda j, i: (
            f"{_d(j, i, 'u')} = {_d(j, i, 'd')} / σ = {fmt(differences[j, i])} / "
            f"{fmt(sigma)} = {fmt(scaled[j, i])}"
        ),
        sigma=sigma,
    )


def _gaussian_steps(b: _Recorder, run: RegressionRun, softmax: SoftmaxStages) -> None:
    scaled = run.scaled
    scores, peaks, shifted = softmax.masked, softmax.peaks, softmax.shifted
    exponentials = softmax.exponentials
    b.add(
        "nw_scores",
        r"a_{ji} = -\tfrac{1}{2} u_{ji}^2 = -\frac{(x^*_j - x_i)^2}{2\sigma^2}",
        scores,
        lambda j, i: (
            f"{_d(j, i, 'a')} = −{_d(j, i, 'u')}²/2 = "
            f"−{operand(scaled[j, i])}²/2 = {fmt(scores[j, i])}"
        ),
    )
    b.add(
        "nw_shifted",
        r"a_{ji} - \max_{i'} a_{ji'}",
        shifted,
        lambda j, i: (
            f"{_d(j, i, 'a')} − max = {fmt(scores[j, i])} − {operand(peaks[j, 0])} = "
            f"{fmt(shifted[j, i])}"
        ),
    )
    b.add(
        "nw_exponentials",
        r"e_{ji} = \exp\!\left(a_{ji} - \max_{i'} a_{ji'}\right)",
        exponentials,
        lambda j, i: f"{_d(j, i, 'e')} = exp({fmt(shifted[j, i])}) = {fmt(exponentials[j, i])}",
    )


def _kernel_step(b: _Recorder, run: RegressionRun) -> None:
    kernel, scaled, numerators = run.kernel, run.scaled, run.numerators
    b.add(
        "nw_kernel",
        rf"K_{{ji}} = \kappa(u_{{ji}}),\quad {KERNEL_LATEX[kernel]}",
        numerators,
        lambda j, i: (
            f"κ({_d(j, i, 'u')}) = {_kernel_text(kernel, scaled[j, i])} = {fmt(numerators[j, i])}"
        ),
        kernel=kernel,
    )


def _weight_steps(b: _Recorder, run: RegressionRun) -> None:
    numerators, sums, weights, prediction, y = (
        run.numerators,
        run.sums,
        run.weights,
        run.prediction,
        run.y,
    )
    n, m = numerators.shape
    reached = sums > 0
    name = "e" if run.softmax is not None else "κ"
    b.add(
        "nw_sums",
        rf"\left[\textstyle\sum_{{i=1}}^{{{m}}} {_tex(name)}_{{ji}}\right]_{{j=1..{n}}}",
        sums[:, None],
        lambda j, _: (
            f"Σᵢ {name}{subscript(j + 1)}ᵢ = "
            f"{' + '.join(fmt(v) for v in numerators[j])} = "
            f"{fmt(sums[j])}"
        ),
    )

    def explain_weight(j: int, i: int) -> str:
        if not reached[j]:
            return f"{_d(j, i, 'α')} = 0  (Σᵢ {name}{subscript(j + 1)}ᵢ = 0)"
        return (
            f"{_d(j, i, 'α')} = {_d(j, i, name)} / Σ = {fmt(numerators[j, i])} / "
            f"{fmt(sums[j])} = {fmt(weights[j, i])}"
        )

    b.add(
        "nw_weights",
        rf"\underbrace{{\boldsymbol{{\alpha}}}}_{{{n} \times {m}}},\quad \alpha_{{ji}} = "
        rf"\frac{{{_tex(name)}_{{ji}}}}{{\sum_{{i'}} {_tex(name)}_{{ji'}}}}",
        weights,
        explain_weight,
    )

    def explain_prediction(j: int, _: int) -> str:
        label = f"ŷ{subscript(j + 1)}"
        if not reached[j]:
            return f"{label} = —  (Σᵢ {name}{subscript(j + 1)}ᵢ = 0)"
        return f"{label} = Σᵢ αᵢ·yᵢ = {product_sum(weights[j], y)} = {fmt(prediction[j])}"

    b.add(
        "nw_prediction",
        rf"\underbrace{{\hat{{\mathbf{{y}}}}}}_{{{n} \times 1}} = "
        rf"\underbrace{{\boldsymbol{{\alpha}}}}_{{{n} \times {m}}}\,"
        rf"\underbrace{{\mathbf{{y}}}}_{{{m} \times 1}}",
        prediction[:, None],
        explain_prediction,
    )


def _kernel_text(kernel: str, u: float) -> str:
    if kernel == "boxcar":
        return f"1[|{fmt(u)}| < 1]"
    if kernel == "constant":
        return "1"
    if kernel == "triangular":
        return f"max(0, 1 − |{fmt(u)}|)"
    return f"0.75·max(0, 1 − {operand(u)}²)"


def _tex(name: str) -> str:
    return r"\kappa" if name == "κ" else name
