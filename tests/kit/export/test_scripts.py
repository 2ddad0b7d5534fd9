"""The export generators: literals that round-trip exactly, CSV, LaTeX, and scripts whose
asserts really check (a wrong number makes the script fail)."""

from __future__ import annotations

import csv
import inspect
import io
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_core import attention
from attention_core.attention import LAYOUTS, SCORES
from attention_core.lookup import lookup_many
from attention_core.scores import SCORE_FUNCTIONS
from attention_ui.kit.export.csv_writer import matrix_csv
from attention_ui.kit.export.latex_writer import derivation_latex, latex_number, latex_text
from attention_ui.kit.export.names import file_name
from attention_ui.kit.export.scripts import (
    AttentionCall,
    LookupCall,
    attention_script,
    literal,
    lookup_script,
    numpy_script,
)
from attention_ui.kit.text.i18n import step_sentence, step_title


def run(script: str) -> dict:
    """Run a script in a fresh namespace (as `python file.py` would)."""
    namespace: dict = {"__name__": "__main__"}
    exec(compile(script, "<export>", "exec"), namespace)
    return namespace


@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=6))
def test_an_array_literal_gives_back_every_float_bit_for_bit(xs):
    values = np.array([xs])
    back = eval(literal(values), {"np": np})
    assert back.shape == values.shape
    assert np.array_equal(back, values, equal_nan=True)
    signs = [math.copysign(1, x) for x in values[0] if not math.isnan(x)]  # −0.0 stays −0.0
    assert [math.copysign(1, x) for x in back[0] if not math.isnan(x)] == signs


def test_text_becomes_a_string_literal_never_code():
    nasty = "'); import os; os.system('x') #\n\"\"\""
    assert eval(literal([(nasty, "v", None)])) == [(nasty, "v", None)]
    assert eval(literal(np.array([[True, False]])), {"np": np}).dtype == bool


def test_file_names_keep_settings_and_drop_anything_else():
    assert (
        file_name("luong", "scaled_dot", "row", suffix=".py")
        == "attention-explorer_luong_scaled_dot_row.py"
    )
    assert (
        file_name("database", "../../etc/passwd <b>", suffix=".csv")
        == "attention-explorer_database_etc-passwd-b.csv"
    )


def test_a_matrix_csv_has_labels_and_exact_numbers():
    values = np.array([[0.1 + 0.2, -np.inf], [1e-300, 2.0]])
    rows = list(csv.reader(io.StringIO(matrix_csv(values, ["k1", "k2"], ["q1", "q2"]))))
    assert rows[0] == ["", "q1", "q2"]
    assert [r[0] for r in rows[1:]] == ["k1", "k2"]
    assert np.array_equal(np.array([[float(x) for x in r[1:]] for r in rows[1:]]), values)


def test_latex_numbers_and_text_for_lecture_notes():
    assert latex_number(-np.inf) == r"-\infty"
    assert latex_number(0.333333333) == "0.3333"
    assert latex_number(1.5e-7) == r"1.5 \times 10^{-7}"
    assert latex_text("d_q = 2 & 50% {x}") == r"d\_q = 2 \& 50\% \{x\}"


def test_the_derivation_lists_every_step_with_its_formula_and_matrix():
    r = attention(
        [[1, 0], [0, 1]],
        [[1, 0, 1], [0, 1, 1]],
        [[1, 2, 3]],
        "scaled_dot",
        temperature=0.5,
        mask=[[True, True], [False, True], [True, True]],
    )
    tex = derivation_latex(
        r.steps,
        title_of=lambda s: step_title(s, "en"),
        sentence_of=lambda s: step_sentence(s, "en"),
        heading="Luong explorer",
    )
    assert tex.count(r"\item") == len(r.steps)
    for step in r.steps:
        assert step.latex in tex
        assert latex_text(step_title(step, "en")) in tex
    assert r"-\infty" in tex  # the masked score
    assert tex.count(r"\begin{bmatrix}") == len(r.steps)


Q = np.array([[2.0, 0.0], [0.5, 1.5]])
K = np.array([[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]])
V = np.array([[10.0, 20.0, 30.0], [1.0, 0.0, -1.0]])


def test_an_attention_script_passes_on_the_engines_numbers_and_fails_on_others():
    r = attention(Q, K, V, "dot", temperature=0.7)
    call = AttentionCall(Q, K, V, "dot", temperature=0.7)
    script = attention_script(call, scores=r.scores, weights=r.weights, output=r.output)
    assert "attention_core" not in script
    run(script)
    wrong = r.weights.copy()
    wrong[0, 0] += 1e-6
    with pytest.raises(AssertionError, match="A differs"):
        run(attention_script(call, scores=r.scores, weights=wrong, output=r.output))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("score", SCORES)
def test_a_script_runs_the_engines_own_score_function_without_importing_the_engine(score, layout):
    """One definition of each formula: the script carries the engine's function, copied."""
    q, k, v = (Q, K, V) if layout == "column" else (Q.T, K.T, V.T)
    params = {
        "general": {"W": [[1.0, -0.5], [0.25, 2.0]]},
        "concat": {"Wa": [[0.5, -1.0, 1.0, 0.0], [1.0, 0.5, 0.0, -1.0]], "va": [1.0, -2.0]},
        "location": {"Wa": [[1.0, 0.0], [0.5, -0.5], [0.0, 2.0]]},
    }.get(score, {})
    r = attention(q, k, v, score, layout=layout, **params)
    call = AttentionCall(q, k, v, score, layout=layout, **params)
    script = attention_script(call, scores=r.scores, weights=r.weights, output=r.output)
    assert inspect.getsource(SCORE_FUNCTIONS[score]) in script
    assert "attention_core" not in script and "import attention" not in script
    namespace = run(script)
    assert np.array_equal(namespace["S"], r.scores)  # the same function: the same bits
    wrong = r.scores + 1e-6
    with pytest.raises(AssertionError, match="S differs"):
        run(attention_script(call, scores=wrong, weights=r.weights, output=r.output))


def test_a_script_in_the_other_layout_fails_on_the_transposed_numbers():
    r = attention(Q, K, V, "dot")
    with pytest.raises(AssertionError, match="shape"):
        call = AttentionCall(Q.T, K.T, V.T, "dot", layout="row")
        run(attention_script(call, scores=r.scores, weights=r.weights, output=r.output))


def test_a_lookup_script_checks_scores_weights_best_and_pooled():
    records = [("Zhang", "Aston", 1.0), ("Lipton", "Zachary", 2.0), ("山田", "太郎", 3.0)]
    table = lookup_many(records, ["Li", "ＹＡＭＡ", "山"], "ngram", 0.5, "softmax")
    call = LookupCall(records, list(table.queries), "ngram", 0.5, "softmax")
    args = {"scores": table.scores, "weights": table.weights}
    best = [r.best_index for r in table.results]
    pooled = [r.pooled_number for r in table.results]
    run(lookup_script(call, best=best, pooled=pooled, **args))
    with pytest.raises(AssertionError, match="best differs"):
        run(lookup_script(call, best=[2, 2, 2], pooled=pooled, **args))


def test_a_new_page_exports_its_own_computation_with_one_call():
    x = np.array([0.0, 1.0, 2.0])
    script = numpy_script(
        title="Nadaraya-Watson",
        inputs={"x": x},
        computation="y = np.where(x > 0, 1 / np.where(x > 0, x, 1), np.nan)",
        expected={"y": np.array([np.nan, 1.0, 0.5])},
    )
    run(script)  # NaN where the app shows no number counts as equal
    with pytest.raises(AssertionError, match="y differs"):
        run(script.replace("1 / np.where", "2 / np.where"))


def test_a_script_imports_the_standard_modules_its_computation_names_and_no_other():
    """numpy_script imports, besides NumPy, each of `MODULES` that the computation uses."""
    args = {"title": "t", "inputs": {"x": 4.0}, "expected": {"y": 2.0}}
    plain = numpy_script(computation="y = np.sqrt(x)", **args)
    assert "import math" not in plain and "import unicodedata" not in plain
    assert "import numpy as np" in plain
    both = numpy_script(
        computation="y = math.sqrt(x) + len(unicodedata.normalize('NFC', '')) + 0 * np.pi", **args
    )
    assert "import math\nimport unicodedata\nimport numpy as np" in both
    run(plain), run(both)
    assert "import math" not in numpy_script(computation="y = mymath.sqrt(x)", **args)
