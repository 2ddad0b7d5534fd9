"""Each page's main edit for bench/browser.py: where the bench types (the input's accessible
name, as the app, its plain floor and its limit page all name it), what it types, what the
page opens with (handed to the plain floor and the limit page as their start), and what the
charts hold once the edit is done, from the engine (attention_core through the page's own
compute module: the numbers the app must show, never the floors' own).

- luong: Enter in Q's first cell; S, A, O (every chart titled so) hold attention(Q, K, V).
- database: Enter in the query box (one surname of d2l's table at a time, exact matching);
  the weights bar and the first names' totals hold lookup's weights and totals.
- transformer: Enter in the sentence box (six words from a pool); the heads' weights, Y, and
  the steps Q, K, V, C, Y hold multi_head's numbers.
- regression: Enter in the bandwidth σ box; the prediction curve, the chosen query's weights
  and the weights' heatmap hold nadaraya_watson's numbers.
- train: no typed edit but the step scrub (ScrubTarget in bench/browser.py's SCRUB_TARGETS):
  each head's weights and learned score matrix hold the run's snapshot at the step shown.

`expected(value)` is either {chart title: numbers} (Luong: every chart with that title must
hold them) or [[name, numbers, charts], …]: at least `charts` charts hold `numbers` in one
trace's z, y or x (flattened), whatever their titles (the app's titles carry the learner's
text and numbers; the floors' do not).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from attention_core import attention, lookup, toy_task, train_attention
from attention_ui.database import state as database_state
from attention_ui.kit.text.i18n import t
from attention_ui.luong.presets import DEFAULT_PRESET, PRESETS
from attention_ui.regression import compute as regression_compute
from attention_ui.regression import data as regression_data
from attention_ui.regression import state as regression_state
from attention_ui.train import compute as train_compute
from attention_ui.train import state as train_state
from attention_ui.transformer import compute as transformer_compute
from attention_ui.transformer import model as transformer_model
from attention_ui.transformer import state as transformer_state

EXAMPLE = PRESETS[DEFAULT_PRESET].column_matrices()  # what the Luong page opens with
TITLES = {"S": "S: scores", "A": "A: weights", "O": "O: output"}
TRAIN_BUTTON = t("train.train", "en")  # the training page's Train button
STEP_LABEL = t("train.scrub.label", "en")  # its step slider


def flat(array) -> list[float]:
    return np.asarray(array, dtype=float).ravel().tolist()


def held(arrays: list[tuple[str, object]]) -> list[list]:
    """[[name, numbers, charts], …]: equal arrays merged, their charts counted."""
    merged: list[list] = []
    for name, array in arrays:
        numbers = flat(array)
        same = next((entry for entry in merged if entry[1] == numbers), None)
        if same is None:
            merged.append([name, numbers, 1])
        else:
            same[0], same[2] = f"{same[0]}+{name}", same[2] + 1
    return merged


@dataclass(frozen=True)
class PageEdit:
    """A page's main edit as the bench drives it."""

    page: str  # the app's page path
    label: str  # the input's accessible name
    start: dict  # what the page opens with (the floors' start)
    values: Callable[[int], list]  # `count` edits, each unlike the one before
    typed: Callable[[object], str]
    expected: Callable[[object], object]
    opening: object  # the value the page opens with
    floor: str  # the plain floor's script
    extra_floors: tuple = field(default=())  # (name, script) pages drawn the app's way


# -- Luong ------------------------------------------------------------------------------------

Q_CELL = "Q, row 1, column q1"  # the matrix editor's accessible name of Q's first cell


def luong_expected(value: float) -> dict[str, list[float]]:
    """The numbers each of S, A, O shows (column layout, flattened) once Q[0, 0] is `value`."""
    q = EXAMPLE["Q"].copy()
    q[0, 0] = value
    result = attention(q, EXAMPLE["K"], EXAMPLE["V"])
    arrays = {"S": result.scores, "A": result.weights, "O": result.output}
    return {TITLES[name]: flat(a) for name, a in arrays.items()}


def luong_values(count: int) -> list[float]:
    """A new number each time, never the example's (so that every edit moves every chart)."""
    return [round(1.37 + 0.5 * (k % 11), 2) for k in range(count)]


def luong() -> PageEdit:
    return PageEdit(
        "luong",
        Q_CELL,
        {name: EXAMPLE[name].tolist() for name in ("Q", "K", "V")},
        luong_values,
        lambda value: f"{value:.2f}",
        luong_expected,
        EXAMPLE["Q"][0, 0],
        "bench/plain_floor.py",
        (("floor page", "bench/floor_app.py"),),
    )


# -- database ---------------------------------------------------------------------------------

RECORDS = database_state.PRESETS["d2l"]


def database_expected(query: str) -> list[list]:
    result = lookup(RECORDS, query, "exact", database_state.TEMPERATURE.default)
    totals = [total for _, total in result.value_distribution]
    return held([("weights", result.weights), ("first names", totals)])


def database() -> PageEdit:
    keys = [record[0] for record in RECORDS if record[0] != database_state.QUERY.default]
    return PageEdit(
        "database",
        t("database.query.label", "en"),
        {
            "records": [list(record) for record in RECORDS],
            "query": database_state.QUERY.default,
            "label": t("database.query.label", "en"),
        },
        lambda count: [keys[k % len(keys)] for k in range(count)],
        str,
        database_expected,
        database_state.QUERY.default,
        "bench/plain_floor_database.py",
    )


# -- transformer ------------------------------------------------------------------------------

WORDS = ["the", "a", "cat", "dog", "sat", "ran", "on", "under", "mat", "box", "red", "old"]


def transformer_values(count: int) -> list[str]:
    """Six words each (the example's length), from a pool, never two sentences alike in a row."""
    return [" ".join(WORDS[(k + 5 * i) % len(WORDS)] for i in range(6)) for k in range(count)]


def transformer_expected(sentence: str) -> list[list]:
    d_model, seed = transformer_state.D_MODEL.default, transformer_state.SEED.default
    tokens = transformer_model.split_sentence(sentence).tokens
    mh = transformer_compute.compute(
        transformer_compute.Inputs(
            transformer_model.embeddings(tokens, d_model, seed),
            transformer_model.projections(d_model, seed),
            transformer_state.HEADS.default,
        )
    )
    steps = {step.key: step.value for step in mh.steps}
    heads = [(f"head {h + 1}", weights) for h, weights in enumerate(mh.weights)]
    return held([*heads, *steps.items(), ("Y", mh.output)])


def transformer() -> PageEdit:
    d_model, seed = transformer_state.D_MODEL.default, transformer_state.SEED.default
    label = t("transformer.sentence.label", "en")
    example = transformer_model.EXAMPLES["en"]
    weights = transformer_model.projections(d_model, seed)
    return PageEdit(
        "transformer",
        label,
        {
            "sentence": example,
            "label": label,
            "d_model": d_model,
            "seed": seed,
            "heads": transformer_state.HEADS.default,
            "W": {name: w.tolist() for name, w in weights.items()},
        },
        transformer_values,
        str,
        transformer_expected,
        example,
        "bench/plain_floor_transformer.py",
    )


# -- regression -------------------------------------------------------------------------------


def regression_runs(sigma: float):
    x, y = regression_state.default_points()
    inputs = regression_compute.Inputs(
        x, y, regression_state.KERNEL.default, sigma, regression_state.QUERIES.default
    )
    return regression_compute.compute(inputs)


def regression_expected(sigma: float) -> list[list]:
    runs = regression_runs(sigma)
    chosen = regression_state.CHOSEN.default - 1
    return held(
        [
            ("curve", runs.curve.prediction),
            ("chosen weights", runs.queries.weights[chosen]),
            ("weights", runs.queries.weights),
        ]
    )


def regression() -> PageEdit:
    x, y = regression_state.default_points()
    sigma = regression_state.SIGMA.default
    runs = regression_runs(sigma)
    truth = regression_data.TRUE_FUNCTIONS[regression_state.PRESET.default][0]
    label = t("regression.controls.sigma", "en")
    return PageEdit(
        "regression",
        label,
        {
            "x": x.tolist(),
            "y": y.tolist(),
            "curve_x": runs.curve.x_query.tolist(),
            "queries": runs.queries.x_query.tolist(),
            "truth": truth(runs.curve.x_query).tolist(),
            "chosen": regression_state.CHOSEN.default - 1,
            "sigma": sigma,
            "label": label,
        },
        lambda count: [round(0.2 + 0.15 * (k % 9), 2) for k in range(count)],
        lambda value: f"{value:g}",
        regression_expected,
        sigma,
        "bench/plain_floor_regression.py",
    )


# -- training ---------------------------------------------------------------------------------


@cache
def trained_run():
    """The run the training page trains with its default settings (train/worker.py trains it
    with train_attention_steps, whose last step's run train_attention returns)."""
    s = train_state.settings_of({})
    task = toy_task(s.task, size=train_compute.TASK_SIZE, seed=s.seed)
    every = train_compute.record_every(s.steps)
    return train_attention(
        task, s.score, s.heads, s.d_model, s.steps, s.learning_rate, s.seed, record_every=every
    )


def train_expected(step: float) -> list[list]:
    run = trained_run()
    snapshot = run.snapshot_at(int(step))
    arrays = []
    for head in range(run.heads):
        arrays.append((f"weights {head}", snapshot.weights[0, head]))
        matrix, _, _ = train_compute.score_matrix(snapshot.params, run.score, run.heads, head)
        arrays.append((f"learned {head}", matrix))
    return held(arrays)


def train() -> PageEdit:
    run = trained_run()
    steps = [int(s) for s in run.snapshot_steps]
    snapshots = [run.snapshot_at(s) for s in steps]
    return PageEdit(
        "train",
        STEP_LABEL,
        {
            "steps": steps,
            "heads": run.heads,
            "label": STEP_LABEL,
            "loss": flat(run.loss),
            "accuracy": flat(run.accuracy),
            "weights": [np.asarray(s.weights[0]).tolist() for s in snapshots],
            "W_Q": [np.asarray(s.params["W_Q"]).tolist() for s in snapshots],
            "W_K": [np.asarray(s.params["W_K"]).tolist() for s in snapshots],
        },
        lambda count: [],
        str,
        train_expected,
        steps[-1],
        "bench/plain_floor_train.py",
    )


EDITS = {
    "luong": luong,
    "database": database,
    "transformer": transformer,
    "regression": regression,
    "train": train,
}


def start_json(edit: PageEdit) -> str:
    return json.dumps(edit.start)


def _numbers(values) -> np.ndarray | None:
    try:
        return np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):  # category labels
        return None


def _holds(trace_values, want: list[float]) -> bool:
    got = _numbers(trace_values)
    want = np.asarray(want, dtype=float)
    return got is not None and got.shape == want.shape and np.allclose(got, want, 1e-9, 1e-9)


def missing(figures: list[dict], expected) -> list[str]:
    """The expected charts (as `PageEdit.expected` gives them) that these figures (plotly
    dicts, arrays decoded) do not hold: the browser's check, in Python, for the tests."""

    def title(figure: dict) -> str:
        text = (figure.get("layout") or {}).get("title") or {}
        return text.get("text", "") if isinstance(text, dict) else str(text)

    if isinstance(expected, dict):  # every chart with the title holds the numbers
        return [
            name
            for name, want in expected.items()
            if not (charts := [f for f in figures if title(f) == name and f.get("data")])
            or not all(_holds(f["data"][0].get("z"), want) for f in charts)
        ]
    gone = []
    for name, want, count in expected:
        holding = [
            f
            for f in figures
            if any(
                _holds(trace.get(key), want)
                for trace in f.get("data", [])
                for key in ("z", "y", "x")
                if trace.get(key) is not None
            )
        ]
        if len(holding) < count:
            gone.append(name)
    return gone
