"""The one error type the engine raises: a code and its parameters, never a sentence.

The parameters name the matrix, the shapes and, where there is one, the cell (1-based, as a
person counts) and the value; numbers stay numbers. The interface turns them into a sentence
for a student in each language.
"""

from __future__ import annotations

from typing import Any

# Every code the engine raises. The interface words each one from its catalogs
# (attention_ui/locales/<lang>/engine.toml, `error.<code>`), so a code and its parameters are a
# public contract: add a code here and in both catalogs, rename neither lightly.
ERROR_CODES: frozenset[str] = frozenset(
    {
        "not_numeric",
        "not_finite",
        "ragged",
        "bad_ndim",
        "empty",
        "query_key_size",
        "key_value_count",
        "missing_parameter",
        "parameter_shape",
        "unknown_score",
        "unknown_layout",
        "unknown_normalization",
        "bad_temperature",
        "mask_shape",
        "mask_not_boolean",
        "all_masked",
        "negative_score",
        "zero_sum",
        "overflow",
        "empty_database",
        "empty_query",
        "bad_record",
        "empty_key",
        "unknown_similarity",
        "bad_target",
        "bad_learning_rate",
        "learning_rate_too_large",
        "bad_steps",
        "weight_shape",
        "unknown_gate",
        "empty_data",
        "data_not_numeric",
        "data_not_finite",
        "data_ndim",
        "data_length_mismatch",
        "unknown_kernel",
        "bad_bandwidth",
        "bad_demo_size",
        "loo_too_few",
        "bad_heads",
        "heads_not_dividing",
        "projection_shape",
        "bad_count",
        "unknown_task",
        "out_of_bounds",
        "training_rate_too_large",
        "bad_tokens",
        "token_count",
        "token_out_of_range",
        "targets_shape",
    }
)


class AttentionInputError(ValueError):
    """Invalid input to `attention` or `lookup`.

    Attributes
    ----------
    code : str
        One of `ERROR_CODES`; the UI words the error by it.
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
        if code not in ERROR_CODES:
            raise KeyError(f"unknown error code {code!r}: add it to ERROR_CODES and the catalogs")
        # Machine-readable, for logs and tracebacks: the code and its parameters, no prose.
        details = ", ".join(f"{name}={value!r}" for name, value in self.params.items())
        super().__init__(f"{code}({details})")
