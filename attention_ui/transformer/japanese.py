"""Japanese sentences into words by janome, within the memory of a Community Cloud app.

janome 0.5.0 ships its dictionary as Python source: the connection costs, a 1,316 × 1,316
matrix of integers written as list literals (`janome/sysdic/connections1.py` and
`connections2.py`), and the entries (twenty more files). Importing that source compiles it
first unless the installer wrote its bytecode (pip does by default; uv does not, and nothing
does where PYTHONDONTWRITEBYTECODE is set), and compiling the matrix takes more memory than a
Community Cloud app has (figures: README, Benchmarks).

So before janome's tokenizer is imported, the matrix is read with NumPy from the same files
and handed to janome as the modules it imports, holding each distinct cost once as marshal's
bytecode would; and the entries are read through janome's own memory-mapped dictionary
(`mmap=True`), which imports only their small indexes.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

import janome  # its package alone: the version
import numpy as np
import streamlit as st

CONNECTION_MODULES = ("connections1", "connections2")


def read_connections(path: Path) -> list[list[int]]:
    """The rows of the matrix literal `DATA=[[…], …]` in janome's file `path`, as lists of
    Python ints, each distinct value one shared object."""
    text = path.read_text(encoding="ascii")
    body = text[text.index("DATA=") + len("DATA=") :]
    rows = body.count("[") - 1  # one bracket opens the whole list
    flat = np.fromstring(body.replace("[", " ").replace("]", " "), dtype=np.int64, sep=",")
    matrix = flat.reshape(rows, -1)
    values = np.unique(matrix)
    shared = values.tolist()
    return [list(map(shared.__getitem__, np.searchsorted(values, row).tolist())) for row in matrix]


def _provide_connections() -> None:
    """Put janome's two matrix modules in `sys.modules`, read with NumPy, unless they are there."""
    folder = Path(janome.__file__).parent / "sysdic"
    for name in CONNECTION_MODULES:
        qualified = f"janome.sysdic.{name}"
        if qualified in sys.modules:
            continue
        module = types.ModuleType(qualified)
        module.__file__ = str(folder / f"{name}.py")
        module.DATA = read_connections(folder / f"{name}.py")
        sys.modules[qualified] = module


_provide_connections()
from janome.tokenizer import Tokenizer  # noqa: E402 (it imports the matrix modules provided)


@st.cache_resource
def _tokenizer() -> Tokenizer:
    """One analyser per process, shared by every session, made on the first Japanese sentence
    (it maps the entries' files then)."""
    return Tokenizer(wakati=True, mmap=True)


def japanese_words(text: str) -> list[str]:
    """The words of a Japanese sentence, as janome splits them (spaces dropped)."""
    return [word for word in _tokenizer().tokenize(text) if word.strip()]
