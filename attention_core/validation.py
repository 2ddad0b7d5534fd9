"""Turning what the user wrote into float matrices, or a message that says exactly what is wrong.

Checking is kept apart from computing (as einops does): the math in `attention.py` may assume
finite 2-D float arrays of consistent sizes.
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

import numpy as np

from .errors import AttentionInputError


def as_matrix(name: str, data: Any) -> np.ndarray:
    """Return `data` as a finite 2-D float array, or raise naming `name` and the bad cell."""
    try:  # fast path: one vectorised conversion; locate the culprit only when it fails
        array = np.array(data, dtype=float)
    except (TypeError, ValueError):
        array = _convert_entry_by_entry(name, data)
    if array.size == 0:
        raise AttentionInputError("empty", matrix=name, shape=_shape_text(array.shape))
    if array.ndim != 2:
        _as_nested_rows(name, data)  # raises the precise dimension or raggedness error
        raise AttentionInputError("bad_ndim", matrix=name, ndim=array.ndim, expected="matrix")
    finite = np.isfinite(array)
    if not finite.all():
        if not (isinstance(data, np.ndarray) and data.dtype.kind in "fiub"):
            # np.array turned a blank (None) into NaN: name it as "not a number" instead
            _convert_entry_by_entry(name, data)
        i, j = (int(x) for x in np.argwhere(~finite)[0])
        raise AttentionInputError("not_finite", matrix=name, cell=(i, j), value=float(array[i, j]))
    return array


def _convert_entry_by_entry(name: str, data: Any) -> np.ndarray:
    rows = _as_nested_rows(name, data)
    array = np.empty((len(rows), len(rows[0]) if rows else 0), dtype=float)
    for i, row in enumerate(rows):
        for j, entry in enumerate(row):
            array[i, j] = _as_finite_number(name, (i, j), entry)
    return array


def as_vector(name: str, data: Any) -> np.ndarray:
    """Return `data` as a finite 1-D float array (an h × 1 or 1 × h matrix is accepted too)."""
    if (isinstance(data, np.ndarray) and data.ndim == 1) or _is_flat_sequence(data):
        matrix = as_matrix(name, [list(data)])
    else:
        matrix = as_matrix(name, data)
        if 1 not in matrix.shape:
            raise AttentionInputError("bad_ndim", matrix=name, ndim=2, expected="vector")
    return matrix.reshape(-1)


def as_temperature(value: Any) -> float:
    """A temperature must be a positive finite real number."""
    is_real = isinstance(value, Real) and not isinstance(value, bool)
    if not is_real or not math.isfinite(value) or value <= 0:
        raise AttentionInputError("bad_temperature", value=value)
    return float(value)


def as_mask(data: Any, expected_shape: tuple[int, int]) -> np.ndarray:
    """A boolean array shaped like the scores; 0/1 numbers are accepted as False/True."""
    array = np.asarray(data, dtype=object)
    if array.shape != expected_shape:
        raise AttentionInputError(
            "mask_shape", shape=_shape_text(array.shape), expected=_shape_text(expected_shape)
        )
    mask = np.empty(expected_shape, dtype=bool)
    for (i, j), entry in np.ndenumerate(array):
        if isinstance(entry, (bool, np.bool_)) or (isinstance(entry, Real) and entry in (0, 1)):
            mask[i, j] = bool(entry)
        else:
            raise AttentionInputError("mask_not_boolean", row=i + 1, col=j + 1, value=entry)
    return mask


def check_finite(name: str, array: np.ndarray, *, swap: bool = False) -> None:
    """Raise 'overflow' naming the first entry of a computed `array` that is not finite.

    A vector counts as one column (entry i is cell (i, 0)). `swap` reports the cell as
    (column, row), for a matrix computed in column layout that the caller sees transposed.
    """
    if np.isfinite(array).all():  # the usual case: one cheap pass, no index array
        return
    grid = array.reshape(-1, 1) if array.ndim == 1 else array
    i, j = (int(x) for x in np.argwhere(~np.isfinite(grid))[0])
    cell = (j, i) if swap else (i, j)
    raise AttentionInputError("overflow", matrix=name, cell=cell, value=float(grid[i, j]))


def shape_text(shape: tuple[int, ...]) -> str:
    """'3 × 2', the way the UI and messages write shapes."""
    return _shape_text(shape)


def _shape_text(shape: tuple[int, ...]) -> str:
    return " × ".join(str(s) for s in shape) if shape else "scalar"


def _is_flat_sequence(data: Any) -> bool:
    return (
        isinstance(data, (list, tuple))
        and len(data) > 0
        and not any(isinstance(x, (list, tuple, np.ndarray)) for x in data)
    )


def _as_nested_rows(name: str, data: Any) -> list[list[Any]]:
    """Split `data` into rows without converting entries, so a bad entry can be located."""
    if isinstance(data, np.ndarray):
        if data.ndim != 2:
            raise AttentionInputError("bad_ndim", matrix=name, ndim=data.ndim, expected="matrix")
        if data.dtype.kind in "fiub":  # fast path: already numeric
            return data.astype(float, copy=False).tolist() if data.size else [[]] * data.shape[0]
        return data.tolist()
    if hasattr(data, "to_numpy"):  # a pandas DataFrame from an editor
        return _as_nested_rows(name, data.to_numpy())
    if not isinstance(data, (list, tuple)):
        raise AttentionInputError("bad_ndim", matrix=name, ndim=0, expected="matrix")
    if not data:
        return []
    if not all(isinstance(row, (list, tuple, np.ndarray)) for row in data):
        raise AttentionInputError("bad_ndim", matrix=name, ndim=1, expected="matrix")
    rows = [list(row) for row in data]
    if any(isinstance(x, (list, tuple, np.ndarray)) for row in rows for x in row):
        raise AttentionInputError("bad_ndim", matrix=name, ndim=3, expected="matrix")
    if len({len(row) for row in rows}) > 1:
        raise AttentionInputError("ragged", matrix=name)
    return rows


def _as_finite_number(name: str, cell: tuple[int, int], entry: Any) -> float:
    if isinstance(entry, (bool, np.bool_)) or entry is None:
        raise AttentionInputError("not_numeric", matrix=name, cell=cell, value=entry)
    if isinstance(entry, str):
        try:
            number = float(entry.strip().replace("−", "-"))
        except ValueError:
            raise AttentionInputError("not_numeric", matrix=name, cell=cell, value=entry) from None
    elif isinstance(entry, Real):
        number = float(entry)
    else:
        raise AttentionInputError("not_numeric", matrix=name, cell=cell, value=entry)
    if not math.isfinite(number):
        raise AttentionInputError("not_finite", matrix=name, cell=cell, value=number)
    return number
