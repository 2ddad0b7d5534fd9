"""The LaTeX writer of the export panel: a derivation's steps for lecture notes, text made
literal, numbers to 4 significant digits."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "#": r"\#",
    "$": r"\$",
    "%": r"\%",
    "&": r"\&",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_text(text: str) -> str:
    """Plain text made literal for LaTeX's text mode."""
    return "".join(_LATEX_SPECIAL.get(char, char) for char in str(text))


def latex_number(x: float, digits: int = 4) -> str:
    """A matrix entry for lecture notes: 4 significant digits, −∞ for a masked score."""
    if math.isinf(x):
        return r"-\infty" if x < 0 else r"\infty"
    if math.isnan(x):
        return r"\mathrm{NaN}"
    text = f"{x:.{digits}g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return rf"{mantissa} \times 10^{{{int(exponent)}}}"
    return "0" if text == "-0" else text


def latex_matrix(values: Any) -> str:
    values = np.atleast_2d(np.asarray(values, dtype=float))
    body = r" \\ ".join(" & ".join(latex_number(float(x)) for x in row) for row in values)
    return r"\begin{bmatrix} " + body + r" \end{bmatrix}"


def derivation_latex(
    steps: Sequence[Any],
    *,
    title_of: Callable[[Any], str],
    sentence_of: Callable[[Any], str],
    heading: str,
    note: str = "",
) -> str:
    """The steps of a derivation as LaTeX for lecture notes: each step's title and sentence
    (in the learner's language), its formula with the actual sizes, and its matrix; `note`
    (what the listing left out, say) comes before the steps.

    `steps` are engine steps (anything with `.latex` and a 2-D `.value`); `title_of` and
    `sentence_of` give their words. Needs amsmath; the words are Unicode (LuaLaTeX/XeLaTeX).
    """
    lines = [
        f"% {latex_text(heading)}",
        "% Paste into a LaTeX document with \\usepackage{amsmath}; the text is Unicode",
        "% (compile with LuaLaTeX or XeLaTeX; Japanese text also needs luatexja or xeCJK).",
        *([latex_text(note)] if note else []),
        r"\begin{enumerate}",
    ]
    for step in steps:
        lines += [
            rf"  \item \textbf{{{latex_text(title_of(step))}.}} "
            f"{latex_text(sentence_of(step))}",
            r"  \[ " + step.latex + r" \]",
            r"  \[ " + latex_matrix(step.value) + r" \]",
        ]
    lines += [r"\end{enumerate}", ""]
    return "\n".join(lines)
