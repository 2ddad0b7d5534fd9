"""Every invalid input gets one clear error: the right code, and a message that says where.

The table (tests/support/engine_errors.py; the catalog test reads it too) is the contract with
the UI (which translates by `code` and highlights `matrix` and `cell`) and with the learner
(who reads the message). One row per mistake a person can make; a last test checks that every
code the engine knows is reached by some row.
"""

from __future__ import annotations

import re
import warnings

import pytest

from attention_core import AttentionInputError, attention, lookup
from attention_core.errors import ERROR_CODES
from attention_ui.kit.text.i18n import error_text
from tests.support.engine_errors import ERROR_CASES as CASES
from tests.support.engine_errors import WA_CONCAT, K, Q, V


def english(error: AttentionInputError) -> str:
    """The error as the app words it in English (the engine itself holds a code and numbers)."""
    return re.sub(r"\\(.)", r"\1", error_text(error, "en"))


@pytest.mark.parametrize(("call", "code", "in_message", "matrix", "cell"), CASES)
def test_invalid_input_raises_a_clear_error(call, code, in_message, matrix, cell):
    with warnings.catch_warnings(), pytest.raises(AttentionInputError) as caught:
        warnings.simplefilter("error")  # the error is the whole report: no NumPy warning too
        call()
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.code == code
    message = english(error)
    for fragment in in_message:
        assert fragment in message, f"{fragment!r} not in {message!r}"
    assert error.matrix == matrix
    assert error.cell == cell
    assert str(error).startswith(f"{code}(")  # the engine's own text: a code, no sentence


def test_every_error_code_is_reached_by_some_case_in_the_table():
    raised = set()
    for param in CASES:
        call = param.values[0]
        try:
            call()
        except AttentionInputError as error:
            raised.add(error.code)
    assert raised == set(ERROR_CODES), f"codes no case raises: {sorted(set(ERROR_CODES) - raised)}"


def test_an_error_leaves_a_readable_message_with_no_unfilled_placeholder():
    for param in CASES:
        with pytest.raises(AttentionInputError) as caught:
            param.values[0]()
        message = english(caught.value)
        assert "{" not in message and "}" not in message, param.id


def test_valid_input_near_the_limits_is_accepted():
    # the counterpart of the table: each of these is one step away from an error above
    attention([["1", " 2 "], ["−3", 4]], K, V)  # numbers written as text
    attention(Q, K, V, mask=[[1, 0], [0, 1], [True, False]])  # 0/1 as a mask
    attention(Q, K, V, temperature=1e-3)
    attention([[1.0, 1.0]], [[2.0, 0.0]], [[1.0, 1.0]], normalization="sum")  # zero allowed
    attention(Q, K, V, "concat", Wa=WA_CONCAT, va=[[1.0], [-1.0], [0.5]])  # v_a as a column
    lookup([("Li", "Mu", float("nan"))], "Li")  # a blank number cell
