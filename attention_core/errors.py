"""The one error type the engine raises, with a code and parameters the UI can translate.

Every message is written for a student: it names the matrix, the shapes and, where there is
one, the cell (1-based, as a person counts), and says what was expected.
"""

from __future__ import annotations

from typing import Any

# English templates, one per error code. The UI translates by code (see attention_ui/locales),
# so a code's parameters are part of the public contract: rename neither lightly.
MESSAGES: dict[str, str] = {
    "not_numeric": "{matrix}, row {row}, column {col}: {value!r} is not a number.",
    "not_finite": "{matrix}, row {row}, column {col}: {value} is not a finite number "
    "(NaN and ±infinity cannot be attended to).",
    "ragged": "{matrix} has rows of different lengths: every row needs the same number of entries.",
    "bad_ndim": "{matrix} must be {expected}, but it has {ndim} dimension(s).",
    "empty": "{matrix} is empty (shape {shape}): it needs at least one row and one column.",
    "query_key_size": "{q_size_words} but {k_size_words}: in {score} attention queries and keys "
    "need the same size d_k.",
    "key_value_count": "K holds {m_keys} key(s) but V holds {m_values} value(s): each key needs "
    "exactly one value.",
    "missing_parameter": "{score} attention needs {parameter}, but none was given.",
    "parameter_shape": "{parameter} has shape {shape}, but {score} attention needs shape "
    "{expected} here ({why}).",
    "unknown_score": "Unknown score function {score!r}: choose one of {choices}.",
    "unknown_layout": "Unknown layout {layout!r}: choose 'column' (one query per column) or "
    "'row' (one query per row).",
    "unknown_normalization": "Unknown normalization {normalization!r}: choose 'softmax' or 'sum'.",
    "bad_temperature": "The temperature must be a positive finite number, not {value}.",
    "mask_shape": "The mask has shape {shape}, but the scores have shape {expected}: it needs "
    "one entry per score.",
    "mask_not_boolean": "The mask must hold only True/False (or 1/0), but row {row}, column "
    "{col} is {value!r}.",
    "all_masked": "Query {query} has every key masked: at least one key must stay visible, "
    "or its weights cannot sum to 1.",
    "negative_score": "Divide-by-sum normalization needs non-negative scores, but the score "
    "of key {key} for query {query} is {value}. Use softmax for scores that can be negative.",
    "zero_sum": "Divide-by-sum normalization needs a positive sum, but every score of query "
    "{query} is 0, so its weights would be 0/0.",
    "overflow": "{matrix}, row {row}, column {col} overflowed to {value}: the entries are too "
    "large to compute with. Use smaller numbers.",
    "empty_database": "The database is empty: add at least one (key, value) record.",
    "empty_query": "The query is empty: type a key to look up.",
    "bad_record": "Record {index} is {value!r}: each record must be a (key, value) pair of "
    "text, optionally followed by a number.",
    "empty_key": "Record {index} has an empty key: every record needs a key to match against.",
    "unknown_similarity": "Unknown similarity {similarity!r}: choose one of {choices}.",
    # gradient-descent search and Squeeze-and-Excitation (the exercises page)
    "bad_target": "The target record must be one of records 1 to {m}, not {value!r}.",
    "bad_learning_rate": "The learning rate must be a positive finite number, not {value}.",
    "learning_rate_too_large": "A learning rate of {value} is too large: above {limit} every "
    "step overshoots. Use a learning rate between 0 and {limit}.",
    "bad_steps": "The number of steps must be a whole number of at least 1, not {value!r}.",
    "weight_shape": "{matrix} has shape {shape}, but with C = {channels} channel(s) it needs "
    "shape {expected}.",
    "unknown_gate": "Unknown gate {gate!r}: choose one of {choices}.",
    # Nadaraya–Watson regression (attention_core/regression.py): data are 1-D lists of numbers.
    "empty_data": "{vector} is empty: it needs at least one number.",
    "data_not_numeric": "{vector}, entry {index}: {value!r} is not a number.",
    "data_not_finite": "{vector}, entry {index}: {value} is not a finite number (NaN and "
    "±infinity cannot be used).",
    "data_ndim": "{vector} must be a list of numbers (1-D), but it has {ndim} dimension(s).",
    "data_length_mismatch": "x_train has {n_x} number(s) but y_train has {n_y}: each training "
    "point needs one x and one y.",
    "unknown_kernel": "Unknown kernel {kernel!r}: choose one of {choices}.",
    "bad_bandwidth": "The bandwidth σ must be a positive finite number, not {value}.",
    "loo_too_few": "Leave-one-out needs at least 2 training points, but there are {count}.",
}


class AttentionInputError(ValueError):
    """Invalid input to `attention` or `lookup`.

    Attributes
    ----------
    code : str
        A key of `MESSAGES`; the UI translates by it.
    params : dict
        The values the message is formatted with (matrix names, shapes, 1-based cells).
    matrix : str or None
        The matrix at fault, so an editor can highlight it.
    cell : tuple[int, int] or None
        The 0-based (row, column) of the offending entry in that matrix, if there is one.
    """

    def __init__(
        self,
        code: str,
        *,
        matrix: str | None = None,
        cell: tuple[int, int] | None = None,
        **params: Any,
    ) -> None:
        self.code = code
        self.matrix = matrix
        self.cell = cell
        self.params: dict[str, Any] = dict(params)
        if matrix is not None:
            self.params.setdefault("matrix", matrix)
        if cell is not None:
            self.params.setdefault("row", cell[0] + 1)
            self.params.setdefault("col", cell[1] + 1)
        super().__init__(MESSAGES[code].format(**self.params))
