"""The LaTeX of each score function, for one pair and for whole matrices, in both layouts.

Column layout follows the Luong article (S = f(Q, K) is m × n, O = V Softmax(S)); row layout
follows d2l and PyTorch (S is n × m, O = Softmax(S) V), and every row-layout matrix is the
transpose of its column-layout twin.
"""

from __future__ import annotations

_Q, _K, _V, _W = r"\mathbf{Q}", r"\mathbf{K}", r"\mathbf{V}", r"\mathbf{W}"
_T = r"^{\mathsf{T}}"
_q, _k = r"\mathbf{q}", r"\mathbf{k}"
_WA, _VA = r"\mathbf{W}_a", r"\mathbf{v}_a"

PAIR: dict[str, str] = {
    "dot": rf"\operatorname{{score}}({_q}, {_k}) = {_k}{_T}{_q}",
    "scaled_dot": rf"\operatorname{{score}}({_q}, {_k}) = \frac{{{_k}{_T}{_q}}}{{\sqrt{{d_k}}}}",
    "general": rf"\operatorname{{score}}({_q}, {_k}) = {_k}{_T}{_W}{_q}",
    "concat": rf"\operatorname{{score}}({_q}, {_k}) = {_VA}{_T}\tanh\!\left({_WA}"
    rf"\begin{{bmatrix}}{_q} \\ {_k}\end{{bmatrix}}\right)",
    "location": rf"\operatorname{{score}}({_q}, {_k}_i) = \left({_WA}{_q}\right)_i",
}

_CONCAT = (
    rf"{_VA}{_T}\tanh\!\left(\mathbf{{W}}_q{_q}_j + \mathbf{{W}}_k{_k}_i\right),\quad "
    rf"{_WA} = \left[\,\mathbf{{W}}_q \mid \mathbf{{W}}_k\,\right]"
)
MATRIX: dict[tuple[str, str], str] = {
    ("dot", "column"): rf"\mathbf{{S}} = {_K}{_T}{_Q}",
    ("dot", "row"): rf"\mathbf{{S}} = {_Q}{_K}{_T}",
    ("scaled_dot", "column"): rf"\mathbf{{S}} = \frac{{{_K}{_T}{_Q}}}{{\sqrt{{d_k}}}}",
    ("scaled_dot", "row"): rf"\mathbf{{S}} = \frac{{{_Q}{_K}{_T}}}{{\sqrt{{d_k}}}}",
    ("general", "column"): rf"\mathbf{{S}} = {_K}{_T}{_W}{_Q}",
    ("general", "row"): rf"\mathbf{{S}} = {_Q}{_W}{_T}{_K}{_T}",
    ("concat", "column"): r"s_{ij} = " + _CONCAT,  # one score per key (row) and query (column)
    ("concat", "row"): r"s_{ji} = " + _CONCAT,
    ("location", "column"): rf"\mathbf{{S}} = {_WA}{_Q}",
    ("location", "row"): rf"\mathbf{{S}} = {_Q}{_WA}{_T}",
}

ATTENTION: dict[str, str] = {  # softmax down each column / along each row (said in words)
    "column": rf"\mathbf{{O}} = {_V}\,\operatorname{{Softmax}}\!\left(\mathbf{{S}} / \tau\right)",
    "row": rf"\mathbf{{O}} = \operatorname{{Softmax}}\!\left(\mathbf{{S}} / \tau\right){_V}",
}

# Luong's paper writes the general score query first; the article (and this app) key first.
LUONG_GENERAL = (
    r"\mathbf{h}_t^{\mathsf{T}}\mathbf{W}_a\bar{\mathbf{h}}_s = "
    r"\mathbf{k}^{\mathsf{T}}\mathbf{W}\mathbf{q}\quad\Leftarrow\quad "
    r"\mathbf{W} = \mathbf{W}_a^{\mathsf{T}},\ \mathbf{q} = \mathbf{h}_t,\ "
    r"\mathbf{k} = \bar{\mathbf{h}}_s"
)
# d2l's additive attention is the concat score with W_a split in two.
D2L_ADDITIVE = (
    r"\mathbf{w}_v^{\mathsf{T}}\tanh\!\left(\mathbf{W}_q\mathbf{q} + "
    r"\mathbf{W}_k\mathbf{k}\right) = \mathbf{v}_a^{\mathsf{T}}\tanh\!\left("
    r"\mathbf{W}_a\begin{bmatrix}\mathbf{q} \\ \mathbf{k}\end{bmatrix}\right)"
    r"\quad\Leftarrow\quad \mathbf{W}_a = \left[\,\mathbf{W}_q \mid \mathbf{W}_k\,"
    r"\right],\ \mathbf{v}_a = \mathbf{w}_v"
)
# Every row-layout result is the transpose of the column-layout one.
# Short enough for a phone's width (390 px): one tuple instead of three equations.
LAYOUT_RELATION = (
    r"(\mathbf{S}, \mathbf{A}, \mathbf{O})_{\text{row}} = "
    r"(\mathbf{S}^{\mathsf{T}}, \mathbf{A}^{\mathsf{T}}, \mathbf{O}^{\mathsf{T}})_{\text{col}}"
)
