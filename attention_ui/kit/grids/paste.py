"""A block of cells pasted from a spreadsheet, read and cut to the grid it lands in. Pure.

Spreadsheets copy tab-separated lines; a CSV file gives commas. A single value with a decimal
comma (`0,5`) is one cell, not two: `number_text.read_number` decides that on the server.
"""

from __future__ import annotations

from dataclasses import dataclass

from attention_ui.kit.grids.number_text import NotANumberError, read_number

# More text than any grid of the app could hold (50 rows of 3 names of 100 characters).
PASTE_CHARS = 100_000


@dataclass(frozen=True)
class CutBlock:
    """The part of a pasted block that fits, and how many rows and columns were left out."""

    cells: list[list[str]]
    rows_left: int
    cols_left: int

    @property
    def cut(self) -> bool:
        return bool(self.rows_left or self.cols_left)


def split_block(text: str) -> list[list[str]]:
    """Rows of cells: lines split by tabs when there are any, else by semicolons or commas."""
    text = text[:PASTE_CHARS].replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    lines = text.split("\n") if text else []
    if "\t" in text:
        return [line.split("\t") for line in lines]
    if len(lines) == 1 and _one_number(lines[0]):
        return [[lines[0]]]
    separator = ";" if ";" in text else ","
    return [line.split(separator) for line in lines]


def cut_block(block: list[list[str]], at: tuple[int, int], shape: tuple[int, int]) -> CutBlock:
    """`block` placed with its top left cell at `at` in a grid of `shape`: what fits."""
    row, col = at
    height, width = shape
    fits_rows = max(0, min(len(block), height - row))
    widest = max((len(line) for line in block), default=0)
    fits_cols = max(0, min(widest, width - col))
    cells = [line[:fits_cols] for line in block[:fits_rows]]
    return CutBlock(cells, len(block) - fits_rows, widest - fits_cols)


def _one_number(text: str) -> bool:
    try:
        read_number(text)
    except NotANumberError:
        return False
    return True
