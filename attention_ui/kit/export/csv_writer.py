"""The CSV writer of the export panel: a labelled matrix as spreadsheet text, numbers exact."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

import numpy as np


def matrix_csv(values: Any, row_labels: Sequence[str], col_labels: Sequence[str]) -> str:
    """The matrix as CSV: a header of column labels, then one labelled row per matrix row.
    Numbers are repr'd (exact; inf and -inf for masked scores)."""
    values = np.asarray(values, dtype=float)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["", *(_cell_text(label) for label in col_labels)])
    for label, row in zip(row_labels, values, strict=True):
        writer.writerow([_cell_text(label), *(repr(float(x)) for x in row)])
    return out.getvalue()


def rows_csv(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table of text cells as CSV: the header, then the rows, every cell as text (a cell
    that starts like a formula is kept from running as one)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for row in (header, *rows):
        writer.writerow([_cell_text(cell) for cell in row])
    return out.getvalue()


def _cell_text(label: str) -> str:
    """A label a spreadsheet shows as text, never runs as a formula (=, +, -, @ first)."""
    label = str(label)
    return "'" + label if label[:1] in ("=", "+", "-", "@") else label
