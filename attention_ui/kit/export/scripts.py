"""The script writer of the export panel: a runnable NumPy script that recomputes a page's
result (the CSV and LaTeX writers are csv_writer.py and latex_writer.py).

Pure functions (no Streamlit): numbers and words in, file text out, so tests can run the
scripts they write. Every number is written with `repr()`, which round-trips a float exactly,
so an exported script checks the app's own numbers, not rounded copies of them.

A new page exports its result with `numpy_script`: its inputs, the few lines of NumPy that
recompute its result from them, and the engine's result to assert against. `attention_script`
(the Luong explorer, the gallery) and `lookup_script` (the database page) are built on it.
An exported script never imports attention_core: a learner runs it with NumPy alone. Its score
function is the engine's own (attention_core/scores.py), copied in as source, so each formula
has one definition.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention_core.scores import SCORE_FUNCTIONS, swap

# An exported script's asserts: tight enough that a wrong formula fails, loose enough for the
# last-bit differences of a different (but equal) order of floating-point operations.
RTOL, ATOL = 1e-9, 1e-12
# An export stays small enough to show and run whatever was entered: a per-step listing (the
# iterates of a descent) holds at most this many numbers, and says how many steps it left out;
# any other expected array of more numbers is checked by its shape and sums, not cell by cell.
LISTING_NUMBERS = 5_000
# The standard modules a script's computation may use besides NumPy.
MODULES = ("math", "unicodedata")
# ---------------------------------------------------------------------------------------------
# Python literals


def literal(value: Any) -> str:
    """Python source that evaluates (with `import numpy as np`) to `value`, exactly.

    Arrays become np.array(...) of repr'd floats (±np.inf and np.nan where not finite), bools
    stay bools; text is repr'd, so whatever a learner typed is a string literal, never code.
    """
    if value is None or isinstance(value, bool | str | int):
        return repr(value)
    if isinstance(value, float | np.floating):
        return _float(float(value))
    if isinstance(value, np.ndarray):
        if value.dtype == bool:
            return f"np.array({_nested(value.tolist(), repr)})"
        return f"np.array({_nested(value.astype(float).tolist(), _float)})"
    if isinstance(value, tuple):
        items = ", ".join(literal(item) for item in value)
        return f"({items},)" if len(value) == 1 else f"({items})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(item) for item in value) + "]"
    raise TypeError(f"no literal for {type(value).__name__}")


def _float(x: float) -> str:
    if math.isnan(x):
        return "np.nan"
    if math.isinf(x):
        return "np.inf" if x > 0 else "-np.inf"
    return repr(x)


def _nested(value: Any, write: Callable[[Any], str]) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_nested(item, write) for item in value) + "]"
    return write(value)


# ---------------------------------------------------------------------------------------------
# Scripts


def numpy_script(
    *,
    title: str,
    inputs: Mapping[str, Any],
    computation: str,
    expected: Mapping[str, Any],
    comments: Mapping[str, str] | None = None,
    about: Sequence[str] = (),
) -> str:
    """A stand-alone script: the inputs, the computation, then one assert per expected result.

    Parameters
    ----------
    title : the script's first line (ASCII words: it goes into the docstring as it is)
    inputs : name → value, each written as `name = <literal>` (see `literal`)
    computation : NumPy source that computes every name of `expected` from the inputs
    expected : name → the app's value; the script asserts `np.allclose(name, <value>)` (NaN
        equals NaN) for arrays and numbers, and `==` for anything else (indices, None)
    comments : name → a short comment written after that input (settings only, no user text)
    about : more lines for the docstring (ASCII, no user text)

    NumPy is imported as np; of `MODULES`, each one the computation names (`math.`) is imported.
    """
    comments = comments or {}
    lines = [
        '"""' + title,
        "",
        *about,
        "",
        "Recomputes the result with NumPy alone and checks it against the numbers the app",
        "computed (every number written with repr(), so they are exact). Run: python <file>.",
        '"""',
        "",
        *(f"import {name}" for name in MODULES if re.search(rf"\b{name}\.", computation)),
        "import numpy as np",
        "",
        "# Inputs, as they were on the page",
    ]
    for name, value in inputs.items():
        comment = f"  # {comments[name]}" if name in comments else ""
        lines.append(f"{name} = {literal(value)}{comment}")
    lines += ["", computation.strip("\n"), "", "# What the app computed from the same inputs"]
    for name, value in expected.items():
        lines += _expected_lines(name, value)
    lines.append("")
    for name, value in expected.items():
        lines += _checks(name, value)
    lines += ["", f"print('OK: {', '.join(expected)} agree with the app.')", ""]
    return "\n".join(lines)


def _checks(name: str, value: Any) -> list[str]:
    """The asserts comparing `name` with `name_app` (a large array: its shape and sums)."""
    if not _is_numeric(value):
        return [f"assert {name} == {name}_app, '{name} differs from the app'"]
    shape = (
        f"assert np.shape({name}) == np.shape({name}_app), "
        f"'{name} has another shape than in the app'"
    )
    if _summarised(value):
        return [
            shape.replace(f"np.shape({name}_app)", f"{name}_app_shape"),
            f"assert np.allclose([np.nansum({name}), np.nansum(np.square({name}))], "
            f"{name}_app_sums, rtol={RTOL!r}, atol={ATOL!r}), '{name} differs from the app'",
        ]
    return [
        shape,
        f"assert np.allclose({name}, {name}_app, rtol={RTOL!r}, atol={ATOL!r}, "
        f"equal_nan=True), '{name} differs from the app'",
    ]


def _summarised(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.dtype != object and value.size > LISTING_NUMBERS


def _expected_lines(name: str, value: Any) -> list[str]:
    """`name_app = <the app's value>`; for a large array its shape and sums instead."""
    if not _summarised(value):
        return [f"{name}_app = {literal(_expected_value(value))}"]
    values = np.asarray(value, dtype=float)
    sums = np.array([np.nansum(values), np.nansum(np.square(values))])
    return [
        f"# {name} holds {values.size} numbers: the app's shape and sums of them are checked",
        f"{name}_app_shape = {tuple(values.shape)!r}",
        f"{name}_app_sums = {literal(sums)}",
    ]


def _expected_value(value: Any) -> Any:
    return np.asarray(value, dtype=float) if _is_numeric(value) else value


def steps_listed(steps: int, numbers_per_step: int, budget: int = LISTING_NUMBERS) -> int:
    """How many of `steps` iterates a per-step listing holds: all of them, or as many as fit
    in `budget` numbers (at least the first)."""
    return max(1, min(steps, budget // max(numbers_per_step, 1)))


def _is_numeric(value: Any) -> bool:
    if isinstance(value, np.ndarray):
        return value.dtype != object
    return isinstance(value, float | np.floating) and not isinstance(value, bool)


# The two normalizations as script lines, as attention_core.normalize computes them (the
# attention and the lookup scripts share them, so each is written once).


def softmax_code(scores: str, weights: str, axis: int, *, masked: bool = False) -> list[str]:
    """Lines that set `weights` = softmax(`scores` / temperature) along `axis` (masked entries:
    exactly 0 where the script's `mask` is False)."""
    lines = [f"Z = {scores} / temperature"]
    if masked:
        lines.append("Z = np.where(mask, Z, -np.inf)  # masked: exp(-inf) = 0")
    return [
        *lines,
        f"E = np.exp(Z - Z.max(axis={axis}, keepdims=True))  # minus the max: no overflow",
        f"{weights} = E / E.sum(axis={axis}, keepdims=True)",
    ]


def divide_by_sum_code(scores: str, weights: str, axis: int) -> list[str]:
    """Lines that set `weights` = s^(1/τ) / Σ s^(1/τ) along `axis`, for non-negative `scores`
    (τ = 1: d2l's s / Σ s; the power 1/τ is this app's extension)."""
    return [
        *([] if scores == "P" else [f"P = {scores}"]),
        "if temperature != 1.0:  # (s / max s)^(1/τ): the rescaling cancels below",
        f"    peak = P.max(axis={axis}, keepdims=True)",
        "    P = (P / np.where(peak == 0, 1.0, peak)) ** (1.0 / temperature)",
        f"{weights} = P / P.sum(axis={axis}, keepdims=True)",
    ]


def _score_code(score: str, layout: str) -> str:
    """The engine's own score function, copied into the script, and the line that calls it.

    Copying the source (it uses NumPy and math only) keeps one definition of each formula:
    the script runs what the app ran, and still imports nothing of the app. The function takes
    one query per column, as the article writes it; in row layout the script transposes Q and K
    on the way in and S on the way out, as the app does.
    """
    function = SCORE_FUNCTIONS[score]
    source = inspect.getsource(function).rstrip("\n")
    if "swap(" in source:  # the engine's helper for stacks of matrices comes along
        source = inspect.getsource(swap).rstrip("\n") + "\n\n\n" + source
    names = list(inspect.signature(function).parameters)  # Q, K, then W / Wa / va
    if layout == "column":
        call = f"S = {score}({', '.join(names)})['S']  # m × n: S[i, j] = score(q_j, k_i)"
    else:
        args = ", ".join(["Q.T", "K.T", *names[2:]])
        call = (
            "# the function takes one query per column: transpose Q and K in, and S out\n"
            f"S = {score}({args})['S'].T  # n × m: S[j, i] = score(q_j, k_i)"
        )
    return f"{source}\n\n\n{call}"


@dataclass(frozen=True)
class AttentionCall:
    """The arguments `attention_core.attention` took, in the page's layout: Q, K, V, the
    score and its parameters (W for general, Wa and va for concat, Wa for location), τ, the
    mask (shaped like S) and the normalization."""

    Q: Any
    K: Any
    V: Any
    score: str
    layout: str = "column"
    W: Any = None
    Wa: Any = None
    va: Any = None
    temperature: float = 1.0
    mask: Any = None
    normalization: str = "softmax"


def attention_script(
    call: AttentionCall,
    *,
    scores: Any,
    weights: Any,
    output: Any,
    title: str = "Attention Explorer",
) -> str:
    """A script that recomputes attention(Q, K, V, score, ...) of `call` with NumPy alone and
    asserts that its S, A and O are the app's `scores`, `weights` and `output` (the result
    `call` gave)."""
    inputs, comments = _attention_inputs(call)
    axis = 0 if call.layout == "column" else 1
    queries_along = "column" if axis == 0 else "row"
    score_code = _score_code(call.score, call.layout)
    code = [
        "# Scores: the app's own score function (one query per column, as in the article)",
        score_code,
        "",
        f"# Weights: normalize each query's {queries_along} of scores (axis={axis})",
        *_weights_code(call, axis),
        "",
        "# Output: each query's weighted sum of the values",
        "O = V @ A  # d_v × n" if call.layout == "column" else "O = A @ V  # n × d_v",
    ]
    about = [
        f"score: {call.score}, layout: {call.layout} (one query per {queries_along}), "
        f"normalization: {call.normalization}, temperature: {float(call.temperature)!r}, "
        f"mask: {'yes' if call.mask is not None else 'none'}."
    ]
    return numpy_script(
        title=title,
        inputs=inputs,
        computation="\n".join(code),
        expected={
            "S": np.asarray(scores, dtype=float),
            "A": np.asarray(weights, dtype=float),
            "O": np.asarray(output, dtype=float),
        },
        comments=comments,
        about=about,
    )


def _attention_inputs(call: AttentionCall) -> tuple[dict[str, Any], dict[str, str]]:
    """The script's inputs by name and the comment on each."""
    inputs: dict[str, Any] = {
        "Q": np.asarray(call.Q, dtype=float),
        "K": np.asarray(call.K, dtype=float),
        "V": np.asarray(call.V, dtype=float),
    }
    if call.layout == "column":
        comments = {
            "Q": "d_q × n: one query per column",
            "K": "d_k × m: one key per column",
            "V": "d_v × m: one value per column",
        }
    else:
        comments = {
            "Q": "n × d_q: one query per row",
            "K": "m × d_k: one key per row",
            "V": "m × d_v: one value per row",
        }
    if call.score == "general":
        inputs["W"] = np.asarray(call.W, dtype=float)
        comments["W"] = "d_k × d_q: score = kᵀ W q in both layouts"
    elif call.score == "concat":
        inputs["Wa"] = np.asarray(call.Wa, dtype=float)
        inputs["va"] = np.asarray(call.va, dtype=float).reshape(-1)
        comments["Wa"] = "h × (d_q + d_k)"
        comments["va"] = "h entries"
    elif call.score == "location":
        inputs["Wa"] = np.asarray(call.Wa, dtype=float)
        comments["Wa"] = "m × d_q"
    inputs["temperature"] = float(call.temperature)
    comments["temperature"] = "τ"
    if call.mask is not None:
        inputs["mask"] = np.asarray(call.mask, dtype=bool)
        comments["mask"] = "shaped like S: True = this key may be attended"
    return inputs, comments


def _weights_code(call: AttentionCall, axis: int) -> list[str]:
    """The lines that turn the scores S into the weights A, as the call's normalization does."""
    masked = call.mask is not None
    if call.normalization == "softmax":
        return softmax_code("S", "A", axis, masked=masked)
    return [
        "P = np.where(mask, S, 0.0)  # masked: weight 0" if masked else "P = S",
        "assert (P >= 0).all(), 'divide-by-sum needs non-negative scores'",
        f"assert (P.sum(axis={axis}) > 0).all(), 'a query has only zero scores'",
        *divide_by_sum_code("P", "A", axis),
    ]


# The database page's similarities, as attention_core.lookup defines them, in plain Python.
_LOOKUP_TEMPLATE = """\
def exact_form(text):  # exact matching ignores surrounding spaces and Unicode encodings
    return unicodedata.normalize("NFC", text).strip()

def fuzzy_form(text):  # approximate matching also folds case and width
    return unicodedata.normalize("NFKC", text).casefold().strip()

def letter_pairs(text):  # with word boundaries, so 'Li' and 'Lipton' share the pair '\u27e8l'
    padded = "\u27e8" + fuzzy_form(text) + "\u27e9"
    return {padded[i:i + 2] for i in range(len(padded) - 1)}

def levenshtein(a, b):  # edits (insert, delete, substitute) that turn a into b
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1,
                               previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]

def similarity_score(query, key):
    if similarity == "exact":
        return float(exact_form(query) == exact_form(key))
    if similarity == "ngram":  # shared letter pairs / all letter pairs (Jaccard)
        q, k = letter_pairs(query), letter_pairs(key)
        return len(q & k) / len(q | k)
    q, k = fuzzy_form(query), fuzzy_form(key)  # "edit"
    return 1.0 - levenshtein(q, k) / max(len(q), len(k), 1)

# Scores a(q, k): one row per query, one column per record
scores = np.array([[similarity_score(q, record[0]) for record in records] for q in queries])

# Weights: normalize each query's row
if similarity == "exact":  # the classic lookup: all the weight on the match(es), or none
    totals = scores.sum(axis=1, keepdims=True)
    weights = np.divide(scores, totals, out=np.zeros_like(scores), where=totals > 0)
elif normalization == "softmax":
{softmax}
else:  # divide by the sum, after the power 1/τ
    assert (scores.sum(axis=1) > 0).all(), 'a query shares nothing with any key'
{divide_by_sum}

# The best record of each query (0-based row), None when no key matches at all
best = [int(np.argmax(w)) if s.max() > 0 else None for s, w in zip(scores, weights)]

# Attention pooling of the numbers: sum_i alpha_i x_i (only if every record has a number)
numbers = [record[2] if len(record) > 2 else None for record in records]
pooled = np.array([w @ np.array(numbers, dtype=float)  # NaN: no pooled number
                   if s.max() > 0 and None not in numbers else np.nan
                   for s, w in zip(scores, weights)])
"""


def _lookup_code() -> str:
    def indented(lines: list[str]) -> str:
        return "\n".join("    " + line for line in lines)

    return _LOOKUP_TEMPLATE.replace(
        "{softmax}", indented(softmax_code("scores", "weights", 1))
    ).replace("{divide_by_sum}", indented(divide_by_sum_code("scores", "weights", 1)))


@dataclass(frozen=True)
class LookupCall:
    """The arguments `attention_core.lookup_many` took: (key, value) or (key, value, number)
    rows (numbers may be None), the queries, the similarity, τ and the normalization."""

    records: Iterable[Sequence[Any]]
    queries: Sequence[str]
    similarity: str
    temperature: float
    normalization: str


def lookup_script(
    call: LookupCall,
    *,
    scores: Any,
    weights: Any,
    best: Sequence[int | None],
    pooled: Sequence[float | None],
    title: str = "Attention Explorer: database lookup",
) -> str:
    """A script that recomputes `lookup_many` of `call` in plain Python and NumPy and asserts
    its scores, weights, best records and pooled numbers are the app's."""
    rows = [tuple(_record_item(item) for item in record) for record in call.records]
    return numpy_script(
        title=title,
        inputs={
            "records": rows,
            "queries": list(call.queries),
            "similarity": call.similarity,
            "temperature": float(call.temperature),
            "normalization": call.normalization,
        },
        comments={
            "records": "(key, value, number) rows",
            "similarity": "exact, ngram or edit",
            "temperature": "τ (exact lookup ignores it)",
            "normalization": "softmax or sum",
        },
        computation=_lookup_code(),
        expected={
            "scores": np.asarray(scores, dtype=float),
            "weights": np.asarray(weights, dtype=float),
            "best": list(best),
            "pooled": np.array([np.nan if p is None else p for p in pooled], dtype=float),
        },
        about=[
            f"similarity: {call.similarity}, normalization: {call.normalization}, "
            f"temperature: {float(call.temperature)!r}."
        ],
    )


def _record_item(item: Any) -> Any:
    if item is None or isinstance(item, str):
        return item
    return float(item)


# ---------------------------------------------------------------------------------------------
# From the engine's inputs and result (duck-typed: no attention_core import needed here)


def result_script(
    result: Any,
    Q: Any,
    K: Any,
    V: Any,
    *,
    parameters: Mapping[str, Any] | None = None,
    title: str = "Attention Explorer",
) -> str:
    """`attention_script` for an `AttentionResult` and the inputs `attention()` was given
    (`parameters`: its other arguments by name, the score's W, Wa, va and the mask): score,
    layout, temperature and normalization are read from the result."""
    call = AttentionCall(
        Q,
        K,
        V,
        result.score,
        layout=result.layout,
        temperature=result.temperature,
        normalization=result.normalization,
        **(parameters or {}),
    )
    return attention_script(
        call, scores=result.scores, weights=result.weights, output=result.output, title=title
    )


def table_script(
    table: Any,
    *,
    temperature: float,
    normalization: str,
    title: str = "Attention Explorer: database lookup",
) -> str:
    """`lookup_script` for a `LookupTable` (lookup_many's result) and the τ and normalization
    it was computed with."""
    call = LookupCall(
        [(r.key, r.value, r.number) for r in table.records],
        list(table.queries),
        table.results[0].similarity,
        temperature,
        normalization,
    )
    return lookup_script(
        call,
        scores=table.scores,
        weights=table.weights,
        best=[r.best_index for r in table.results],
        pooled=[r.pooled_number for r in table.results],
        title=title,
    )
