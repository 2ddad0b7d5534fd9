"""Exported scripts run on their own: for every Luong preset × score × layout, seeded random
examples, database and gallery states, every regression preset × kernel × σ, both transformer
sentences × d_model × h × positions × causal mask, and each exercise's states, the script
recomputes the engine's numbers with NumPy alone and its asserts pass. All scripts run in ONE
isolated subprocess (python -I: the repository is not importable there), each in a fresh
namespace."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from attention_core import (
    AttentionInputError,
    attention,
    lookup,
    multi_head,
    nadaraya_watson,
    query_gradient,
)
from attention_core.attention import LAYOUTS
from attention_core.gradient import weighted_covariance
from attention_core.lookup import SIMILARITIES, lookup_many
from attention_core.regression import KERNELS
from attention_core.search import gradient_search, hard_lookup, letter_pair_vectors
from attention_core.squeeze_excitation import squeeze_excitation
from attention_ui.database.state import JAPANESE_RECORDS, STORY
from attention_ui.database.state import PRESETS as DATABASE_PRESETS
from attention_ui.exercises import state as exercises
from attention_ui.exercises import teaching as exercise_teaching
from attention_ui.gallery.state import PRESETS as GALLERY_PRESETS
from attention_ui.kit.export.scripts import result_script, table_script
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.luong.model import (
    Sizes,
    applicable_scores,
    causal_mask,
    engine_parameters,
    in_layout,
    padding_mask,
)
from attention_ui.luong.presets import PRESETS, random_matrices
from attention_ui.regression import data as regression_data
from attention_ui.regression.teaching import regression_script
from attention_ui.transformer.model import (
    EXAMPLES,
    divisors,
    embeddings,
    projections,
    split_sentence,
)
from attention_ui.transformer.teaching import transformer_script

RUNNER = r"""
import json, runpy, sys, traceback
failures = {}
for path in sys.argv[1:]:
    try:
        runpy.run_path(path, run_name="__main__")
    except BaseException:
        failures[path] = traceback.format_exc(limit=2)
leaked = sorted(m for m in sys.modules if m.startswith(("attention_core", "attention_ui")))
print(json.dumps({"failures": failures, "leaked": leaked}))
sys.exit(1 if failures or leaked else 0)
"""


def run_all(scripts: dict[str, str], folder: Path) -> subprocess.CompletedProcess:
    paths = []
    for name, script in scripts.items():
        path = folder / f"{name}.py"
        path.write_text(script, encoding="utf-8")
        paths.append(str(path))
    return subprocess.run(
        [sys.executable, "-I", "-c", RUNNER, *paths],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def luong_script(
    name: str, matrices: dict, score: str, layout: str, *, temperature=1.0, column_mask=None
) -> tuple[str, str]:
    """The script the Luong page exports for these inputs (as the page calls the engine)."""
    values = {
        key: in_layout(m, layout) if key in ("Q", "K", "V") else m for key, m in matrices.items()
    }
    mask = None if column_mask is None else in_layout(column_mask, layout)
    params = engine_parameters(score, values)
    result = attention(
        values["Q"],
        values["K"],
        values["V"],
        score,
        temperature=temperature,
        mask=mask,
        layout=layout,
        **params,
    )
    return (
        f"luong_{name}_{score}_{layout}",
        result_script(
            result, values["Q"], values["K"], values["V"], parameters={**params, "mask": mask}
        ),
    )


def luong_cases() -> Iterator[tuple[str, str]]:
    for preset in PRESETS.values():
        s = preset.sizes
        mask = {
            "none": None,
            "causal": causal_mask(s.m, s.n),
            "padding": padding_mask(s.m, s.n, preset.mask_length),
        }[preset.mask]
        for score in applicable_scores(s):
            for layout in LAYOUTS:
                yield luong_script(
                    preset.key,
                    preset.column_matrices(),
                    score,
                    layout,
                    temperature=preset.temperature,
                    column_mask=mask,
                )
    for seed, tau, sizes in (
        (0, 1.0, Sizes()),
        (7, 0.3, Sizes(3, 3, 2, 4, 5, 3)),
        (123, 5.0, Sizes(2, 4, 3, 3, 2, 2)),
    ):
        mask = padding_mask(sizes.m, sizes.n, max(1, sizes.m - 1))
        for score in applicable_scores(sizes):
            for layout in LAYOUTS:
                yield luong_script(
                    f"random{seed}",
                    random_matrices(sizes, seed),
                    score,
                    layout,
                    temperature=tau,
                    column_mask=mask,
                )


def database_cases() -> Iterator[tuple[str, str]]:
    states = [
        (records, [query], similarity, tau, "softmax")
        for records, query, similarity, tau in STORY.values()
    ]
    states += [
        (DATABASE_PRESETS["d2l"], ["Li", "Smol", "Werness", "Zang"], sim, tau, norm)
        for sim in ("ngram", "edit")
        for tau in (0.1, 1.0, 2.0)  # 1.0: d2l's own divide-by-the-sum, no power
        for norm in ("softmax", "sum")
    ]
    states += [
        (JAPANESE_RECORDS, ["山", "田中", "ｻﾄｳ"], "ngram", 0.5, "softmax"),
        (
            [("Li", "Mu"), ("li", "mu", 3.0), ("Lipton", "Zachary", None)],
            ["li", "Li "],
            "exact",
            1.0,
            "softmax",
        ),
    ]
    for number, (records, queries, similarity, tau, norm) in enumerate(states):
        table = lookup_many(records, queries, similarity, tau, norm)
        yield f"database_{number}", table_script(table, temperature=tau, normalization=norm)


def gallery_cases() -> Iterator[tuple[str, str]]:
    for name, values in GALLERY_PRESETS.items():
        values = np.array(values, dtype=float)
        for query in ((1.0, 0.5), (-2.0, 0.3)):
            for tau in (0.1, 1.0, 20.0):
                for normalization in ("softmax", "sum"):
                    q = np.array(query)[:, None]
                    try:
                        result = attention(
                            q,
                            values.T,
                            values.T,
                            "dot",
                            temperature=tau,
                            normalization=normalization,
                        )
                    except AttentionInputError:
                        continue  # the page shows the error instead of an export
                    yield (
                        f"gallery_{name}_{query[0]}_{tau}_{normalization}",
                        result_script(result, q, values.T, values.T),
                    )


def regression_cases() -> Iterator[tuple[str, str]]:
    """Every preset × kernel × σ (a tiny σ leaves boxcar and Epanechnikov queries unreached:
    NaN predictions), at the page's default 12 queries and at 1 and 60."""
    for preset in regression_data.PRESETS:
        x, y = regression_data.preset_points(preset)
        for kernel in KERNELS:
            for sigma in (0.05, 0.5, 5.0):
                for count in (12,) if sigma != 0.5 else (1, 12, 60):
                    queries = regression_data.queries_along(x, count)
                    result = nadaraya_watson(queries, x, y, kernel, sigma)
                    yield f"regression_{preset}_{kernel}_{sigma}_{count}", regression_script(result)


def transformer_cases() -> Iterator[tuple[str, str]]:
    """Both example sentences × d_model 2, 4, 6, 8 × every h that divides it × positional
    encodings on/off × causal mask on/off, with the page's seeded X and W's (seed 0 and 5),
    and the identity button's state (h = 1, every W = I)."""
    for lang, sentence in EXAMPLES.items():
        tokens = split_sentence(sentence).tokens
        for d_model in (2, 4, 6, 8):
            for heads in divisors(d_model):
                seed = 5 if heads == d_model else 0
                X, W = embeddings(tokens, d_model, seed), projections(d_model, seed)
                if heads == 1:
                    W = {name: np.eye(d_model) for name in W}
                for positions in (False, True):
                    for causal in (False, True):
                        mh = multi_head(X, *W.values(), heads, causal=causal, positions=positions)
                        yield (
                            f"transformer_{lang}_{d_model}_{heads}_{positions}_{causal}",
                            transformer_script(mh, X, W, positions=positions, causal=causal),
                        )


def exercise_cases() -> Iterator[tuple[str, str]]:
    """Each exercise's export: 1) every similarity × queries × τ; 2) every gallery preset and
    the "one huge score" points × queries × τ; 3) vector keys × every target × learning rates
    (a capped run of 500 steps included) and the database's names as letter-pair keys; 4) SE
    with the page's grids and seeded ones of every size."""
    for similarity in SIMILARITIES:
        for query in ("Li", "Smol", "werness", "Zz"):
            for tau in (0.05, 0.25, 5.0):
                result = lookup(D2L_RECORDS, query, similarity, temperature=tau)
                yield (
                    f"exercise_match_{similarity}_{query}_{tau}",
                    exercise_teaching.match_script(result, tau),
                )
    points = {**GALLERY_PRESETS, "huge": exercises.HUGE_POINTS}
    for name, values in points.items():
        values = np.array(values, dtype=float)
        for query in ((1.0, 0.5), exercises.HUGE_QUERY, (-3.0, 2.0)):
            for tau in (0.05, 1.0, 5.0):
                result = query_gradient(np.array(query), values.T, values.T, temperature=tau)
                covariance = weighted_covariance(values.T, result.weights)
                yield (
                    f"exercise_grad_{name}_{query}_{tau}",
                    exercise_teaching.gradient_script(result, values, covariance),
                )
    keys = exercises.MATRICES[exercises.SEARCH_KEYS].T
    start = np.array([-1.0, -1.0])
    for target in range(keys.shape[1]):
        for rate, steps in ((0.5, 30), (0.05, 1), (5.0, 500)):
            path = gradient_search(start, keys, target, learning_rate=rate, steps=steps)
            hard = hard_lookup(start, keys, target).best
            yield (
                f"exercise_search_{target}_{rate}_{steps}",
                exercise_teaching.search_script(path, keys, start, hard),
            )
    names = [record[0] for record in D2L_RECORDS]
    name_keys, _pairs = letter_pair_vectors(names)
    for target in range(len(names)):
        zero = np.zeros(name_keys.shape[0])
        path = gradient_search(zero, name_keys, target, learning_rate=0.5, steps=30)
        hard = hard_lookup(zero, name_keys, target).best
        yield (
            f"exercise_search_names_{target}",
            exercise_teaching.search_script(path, name_keys, zero, hard, names),
        )
    grids = [
        tuple(exercises.MATRICES[k] for k in (exercises.SE_X, exercises.SE_W1, exercises.SE_W2))
    ]
    rng = np.random.default_rng(3)
    for channels, pixels, hidden in ((1, 1, 1), (4, 8, 4), (2, 3, 1)):
        grids.append(
            (
                np.round(rng.normal(size=(channels, pixels)), 1),
                np.round(rng.normal(size=(hidden, channels)), 1),
                np.round(rng.normal(size=(channels, hidden)), 1),
            )
        )
    for number, (X, W1, W2) in enumerate(grids):
        se = squeeze_excitation(X, W1, W2)
        soft = squeeze_excitation(X, W1, W2, gate="softmax")
        yield f"exercise_se_{number}", exercise_teaching.se_script(se, soft, W1, W2)


def all_cases() -> dict[str, str]:
    return dict(
        [
            *luong_cases(),
            *database_cases(),
            *gallery_cases(),
            *regression_cases(),
            *transformer_cases(),
            *exercise_cases(),
        ]
    )


def test_every_exported_script_runs_alone_and_its_asserts_pass(tmp_path):
    scripts = all_cases()
    assert len(scripts) > 150 + 5 * 4 * 5 + 2 * 13 * 4 + 36 + 27 + 12 + 6 + 4
    assert sum("np.nan" in text for name, text in scripts.items() if "regression" in name) > 10
    assert not [name for name, text in scripts.items() if "attention_core" in text]
    done = run_all(scripts, tmp_path)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"failures": {}, "leaked": []}, done.stdout[-3000:]
    assert done.returncode == 0


def test_the_runner_reports_a_script_whose_numbers_are_not_the_apps(tmp_path):
    name, script = next(luong_cases())
    broken = script.replace("A_app = np.array([[", "A_app = np.array([[0.5 + ", 1)
    done = run_all({name: script, "broken": broken}, tmp_path)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert list(report["failures"]) == [str(tmp_path / "broken.py")]
    assert "A differs from the app" in report["failures"][str(tmp_path / "broken.py")]
    assert done.returncode == 1


def test_a_regression_script_fails_when_a_missing_prediction_gets_a_number_or_loses_one(tmp_path):
    """NaN (no point reaches the query) counts as equal only to NaN in the asserts."""
    x, y = regression_data.preset_points("few")
    result = nadaraya_watson(regression_data.queries_along(x, 12), x, y, "boxcar", 0.5)
    assert np.isnan(result.prediction).any() and not np.isnan(result.prediction).all()
    script = regression_script(result)
    line = next(s for s in script.splitlines() if s.startswith("prediction_app = "))
    filled = line.replace("np.nan", "1.0", 1)
    emptied = line.replace("[1.459", "[np.nan", 1)
    assert filled != line and emptied != line
    scripts = {
        "kept": script,
        "filled": script.replace(line, filled),
        "emptied": script.replace(line, emptied),
    }
    done = run_all(scripts, tmp_path)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted(report["failures"]) == [str(tmp_path / f"{n}.py") for n in ("emptied", "filled")]
    assert all("prediction differs from the app" in f for f in report["failures"].values())


def test_the_runner_reports_a_tampered_script_of_each_new_page(tmp_path):
    """For the first script of the regression and transformer pages and of each exercise, the
    last result the app computed is raised by 1: each such script fails on that very assert."""
    firsts: dict[str, str] = {}
    for name, script in [*regression_cases(), *transformer_cases(), *exercise_cases()]:
        kind = "_".join(name.split("_")[:2]) if name.startswith("exercise") else name.split("_")[0]
        firsts.setdefault(kind, script)
    assert len(firsts) == 6
    tampered, names = {}, {}
    for kind, script in firsts.items():
        line = next(s for s in reversed(script.splitlines()) if "_app = " in s)
        nudged = f"{line} + 1"  # every number one more (an index: the next record)
        tampered[kind] = script.replace(line, nudged)
        names[kind] = line.split("_app = ", 1)[0]
    done = run_all(tampered, tmp_path)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted(report["failures"]) == sorted(str(tmp_path / f"{k}.py") for k in tampered)
    for kind, name in names.items():
        assert f"{name} differs from the app" in report["failures"][str(tmp_path / f"{kind}.py")]
