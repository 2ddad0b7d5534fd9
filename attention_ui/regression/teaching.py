"""The regression page's export panel: the Nadaraya–Watson run at the learner's
queries as a NumPy script, the training points, weights and predictions as CSV, the steps in
LaTeX. pages/regression.py calls `export(result, points)`; tests call `regression_script`."""

from __future__ import annotations

import numpy as np

from attention_core import NadarayaWatsonResult
from attention_ui.kit.export.latex_writer import derivation_latex
from attention_ui.kit.export.panel import Export, Table, export_panel
from attention_ui.kit.export.scripts import numpy_script
from attention_ui.kit.grids.points_editor import PointsInput
from attention_ui.kit.text.i18n import step_sentence, step_title, t

PAGE = "regression"

# κ(u) for each kernel, as attention_core.regression computes it (the Gaussian as a softmax of
# −u²/2: the factor exp(−max) it leaves out is the same for a whole row and cancels).
_KERNEL_CODE = {
    "gaussian": (
        "a = -(U**2) / 2  # scores -u²/2\n"
        "K = np.exp(a - a.max(axis=1, keepdims=True))  # minus each row's max: never 0/0"
    ),
    "boxcar": "K = (np.abs(U) < 1).astype(float)  # κ(u) = 1 if |u| < 1, else 0",
    "constant": "K = np.ones_like(U)  # κ(u) = 1",
    "triangular": "K = np.maximum(0.0, 1.0 - np.abs(U))  # κ(u) = max(0, 1 - |u|)",
    "epanechnikov": "K = 0.75 * np.maximum(0.0, 1.0 - U**2)  # κ(u) = 3/4 max(0, 1 - u²)",
}


def regression_script(
    result: NadarayaWatsonResult, *, title: str = "Attention Explorer: Nadaraya-Watson"
) -> str:
    """A script that recomputes `nadaraya_watson(x_query, x_train, y_train, kernel, σ)` with
    NumPy alone and asserts its weights and predictions (NaN where no point reaches the query)
    are the app's."""
    computation = "\n".join(
        [
            "# Scaled differences: one query per row, one training point per column",
            "U = (x_query[:, None] - x_train[None, :]) / sigma  # n × m: u = (x* - x_i) / σ",
            "",
            f"# Kernel: {result.kernel}",
            _KERNEL_CODE[result.kernel],
            "",
            "# Weights: each query's row divided by its sum (a row of 0 where nothing reaches)",
            "sums = K.sum(axis=1)  # n",
            "reached = sums > 0",
            "weights = K / np.where(reached, sums, 1.0)[:, None]  # n × m",
            "",
            "# Predictions: each query's weighted mean of the y's, NaN where no point reaches it",
            "prediction = np.where(reached, weights @ y_train, np.nan)  # n",
        ]
    )
    return numpy_script(
        title=title,
        inputs={
            "x_train": np.asarray(result.x_train, dtype=float),
            "y_train": np.asarray(result.y_train, dtype=float),
            "x_query": np.asarray(result.x_query, dtype=float),
            "sigma": float(result.bandwidth),
        },
        comments={
            "x_train": "m training inputs: the keys",
            "y_train": "m training outputs: the values",
            "x_query": "n queries x*",
            "sigma": "σ, the bandwidth",
        },
        computation=computation,
        expected={
            "weights": np.asarray(result.weights, dtype=float),
            "prediction": np.asarray(result.prediction, dtype=float),
        },
        about=[f"kernel: {result.kernel}, sigma: {float(result.bandwidth)!r}."],
    )


def export(result: NadarayaWatsonResult, points: PointsInput) -> None:
    """The script, the points, weights and predictions as CSV, and the steps in LaTeX."""

    def build() -> Export:
        queries = [f"x*{j + 1}" for j in range(result.x_query.size)]
        keys = [f"x{row}" for row in points.rows]
        heading = (
            f"Attention Explorer, {t('regression.title')}: {result.kernel}, "
            f"sigma = {float(result.bandwidth)!r}"
        )
        return Export(
            script=regression_script(result),
            tables=[
                Table(
                    "points", np.column_stack([result.x_train, result.y_train]), keys, ["x", "y"]
                ),
                Table("weights", result.weights, queries, keys),
                Table(
                    "predictions",
                    np.column_stack([result.x_query, result.prediction]),
                    queries,
                    ["x*", "ŷ"],
                ),
            ],
            derivation=derivation_latex(
                result.steps,
                title_of=step_title,
                sentence_of=lambda step: step_sentence(step, run_steps=result.steps),
                heading=heading,
            ),
        )

    export_panel(PAGE, build, details=(result.kernel,))
