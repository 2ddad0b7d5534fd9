"""Multi-head self-attention, step by step (Vaswani et al., "Attention Is All You Need", 2017).

Row layout, as PyTorch writes it: X is n × d_model, one token per row. The queries, keys and
values are three projections of the same X:

    Q = X W_Q,  K = X W_K,  V = X W_V                       # each n × d_model
    head i takes columns i·d_h … (i+1)·d_h − 1 of Q, K, V    # d_h = d_model / h
    A_i = softmax_rows(Q_i K_iᵀ / √d_h)                     # n × n, masked entries exactly 0
    O_i = A_i V_i                                           # n × d_h
    Y = concat(O_1 … O_h) W_O                               # n × d_model

Each head is `attention(Q_i, K_i, V_i, "scaled_dot", layout="row")`, so a head's weights and
steps are exactly those of the single-head engine the other pages use. The sinusoidal
positional encodings are the paper's: P[pos, 2c] = sin(pos / 10000^(2c/d_model)),
P[pos, 2c+1] = cos(pos / 10000^(2c/d_model)), positions counted from 0.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Context, Decimal
from numbers import Integral
from typing import Any

import numpy as np

from .attention import AttentionResult, attention
from .errors import AttentionInputError
from .formatting import fmt, operand, product_sum, subscript
from .steps import Step
from .validation import as_mask, as_matrix, check_finite, shape_text

PROJECTIONS = ("W_Q", "W_K", "W_V", "W_O")
POSITION_BASE = 10000.0

# The steps this module adds, in order (each head's own steps are attention()'s, STEP_KEYS);
# the interface words each by its key (locales/<lang>/engine.toml, `step.<key>`).
MULTI_HEAD_STEP_KEYS: tuple[str, ...] = (
    "positions_added",
    "queries_from_x",
    "keys_from_x",
    "values_from_x",
    "heads_concatenated",
    "output_projected",
)


@dataclass(frozen=True)
class MultiHeadResult:
    """Every matrix of one multi-head self-attention run, in row layout (one token per row).

    `steps` are the shared steps (positions, the three projections, the concatenation and
    W_O); each head's own steps are `heads[i].steps`, those of `attention()` in row layout.
    """

    inputs: np.ndarray  # n × d_model: X, plus P when positions were added
    queries: np.ndarray  # n × d_model: Q = X W_Q
    keys: np.ndarray  # n × d_model: K = X W_K
    values: np.ndarray  # n × d_model: V = X W_V
    heads: tuple[AttentionResult, ...]  # one scaled-dot attention() run per head
    weights: np.ndarray  # heads × n × n: A_i, each row sums to 1
    concatenated: np.ndarray  # n × d_model: concat(O_1 … O_h)
    output: np.ndarray  # n × d_model: concat(O_1 … O_h) W_O
    steps: tuple[Step, ...]
    mask: np.ndarray | None  # n × n, True = may attend (causal and the given mask, ANDed)
    d_head: int
    layout: str = "row"

    @property
    def head_count(self) -> int:
        return len(self.heads)

    def head_columns(self, head: int) -> slice:
        """The columns of Q, K, V (and of the concatenation) that head `head` (0-based) owns."""
        return slice(head * self.d_head, (head + 1) * self.d_head)

    def head_inputs(self, head: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Q_i, K_i, V_i of head `head` (0-based), each n × d_h."""
        columns = self.head_columns(head)
        return self.queries[:, columns], self.keys[:, columns], self.values[:, columns]

    def step(self, key: str) -> Step:
        """The shared step called `key`; KeyError if this run has none."""
        for step in self.steps:
            if step.key == key:
                return step
        raise KeyError(key)


def positional_encoding(n: int, d_model: int) -> np.ndarray:
    """The sinusoidal positional encodings of the Transformer paper.

    Parameters
    ----------
    n : number of positions (tokens), ≥ 1
    d_model : the embedding size, ≥ 1

    Returns
    -------
    P : n × d_model array; P[pos, 2c] = sin(pos / 10000^(2c/d_model)) and
        P[pos, 2c+1] = cos(pos / 10000^(2c/d_model)), pos counted from 0.
    """
    n, d_model = _positive_count("n", n), _positive_count("d_model", d_model)
    positions = np.arange(n, dtype=float)[:, None]  # n × 1
    pair = np.arange(d_model) // 2  # the c of columns 2c and 2c+1
    angles = positions / POSITION_BASE ** (2 * pair / d_model)  # n × d_model
    return np.where(np.arange(d_model) % 2 == 0, np.sin(angles), np.cos(angles))


def positional_encoding_entry(pos: int, column: int, d_model: int) -> str:
    """The arithmetic of P[pos, column] (0-based), e.g. 'p₂₁ = sin(1 / 10000^(0/4)) = 0.8415'."""
    function = "sin" if column % 2 == 0 else "cos"
    exponent = 2 * (column // 2)
    value = positional_encoding(pos + 1, d_model)[pos, column]
    return (
        f"p{subscript(pos + 1)}{subscript(column + 1)} = "
        f"{function}({pos} / 10000^({exponent}/{d_model})) = {fmt(value)}"
    )


def causal_mask(n: int) -> np.ndarray:
    """n × n, True on and below the diagonal: token i may attend to tokens 1 … i only."""
    return np.tril(np.ones((_positive_count("n", n),) * 2, dtype=bool))


def multi_head(
    X: Any,
    W_q: Any,
    W_k: Any,
    W_v: Any,
    W_o: Any,
    heads: int = 2,
    *,
    mask: Any = None,
    causal: bool = False,
    positions: bool = False,
) -> MultiHeadResult:
    """Multi-head self-attention of the tokens X, with every intermediate step.

    Parameters
    ----------
    X : array_like, n × d_model, one token's embedding per row
    W_q, W_k, W_v, W_o : array_like, each d_model × d_model
    heads : h, a whole number ≥ 1 that divides d_model (each head gets d_h = d_model / h)
    mask : array_like of bool, n × n; True = token i may attend to token j (row i, column j)
    causal : allow j ≤ i only (ANDed with `mask` when both are given)
    positions : add the sinusoidal positional encodings to X first

    Raises
    ------
    AttentionInputError (a ValueError) with a code: empty, not_finite, not_numeric, bad_ndim
    (naming the matrix and cell), bad_heads, heads_not_dividing, projection_shape,
    mask_shape, mask_not_boolean, all_masked, overflow.
    """
    given = as_matrix("X", X)
    n, d_model = given.shape  # n tokens × d_model
    h = _heads(heads, d_model)
    projections = _projections((W_q, W_k, W_v, W_o), d_model)
    allowed = _allowed(mask, causal, n)
    d_head = d_model // h
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is reported by check_finite
        x = given
        if positions:
            x = given + positional_encoding(n, d_model)  # n × d_model
            check_finite("X + P", x)
        q = _product("Q", x, projections["W_Q"])  # n × d_model
        k = _product("K", x, projections["W_K"])  # n × d_model
        v = _product("V", x, projections["W_V"])  # n × d_model
    runs = []
    for i in range(h):
        columns = slice(i * d_head, (i + 1) * d_head)
        runs.append(
            attention(
                q[:, columns],
                k[:, columns],
                v[:, columns],
                "scaled_dot",
                mask=allowed,
                layout="row",
            )
        )  # A_i: n × n, O_i: n × d_h
    concatenated = np.concatenate([run.output for run in runs], axis=1)  # n × d_model
    with np.errstate(over="ignore", invalid="ignore"):
        output = _product("Y", concatenated, projections["W_O"])  # n × d_model
    result = MultiHeadResult(
        inputs=x,
        queries=q,
        keys=k,
        values=v,
        heads=tuple(runs),
        weights=np.stack([run.weights for run in runs]),  # h × n × n
        concatenated=concatenated,
        output=output,
        steps=(),
        mask=allowed,
        d_head=d_head,
    )
    return replace(result, steps=multi_head_steps(result, given, projections, positions))


def _product(name: str, x: np.ndarray, w: np.ndarray) -> np.ndarray:
    product = exact_product(x, w)
    check_finite(name, product)
    return product


def multi_head_steps(
    mh: MultiHeadResult, given: np.ndarray, projections: dict[str, np.ndarray], positions: bool
) -> tuple[Step, ...]:
    """The shared steps of one `multi_head` run (each head's own are its attention() steps),
    from the arrays it computed; `given` is X as the caller gave it, before any positions."""
    steps: list[Step] = []
    if positions:
        _positions_step(steps, given, mh.inputs)
    for key, name, product in (
        ("queries_from_x", "Q", mh.queries),
        ("keys_from_x", "K", mh.keys),
        ("values_from_x", "V", mh.values),
    ):
        _project_step(steps, key, name, mh.inputs, projections[f"W_{name}"], product)
    _concat_step(steps, mh.concatenated, mh.head_count, mh.d_head)
    _project_step(steps, "output_projected", "Y", mh.concatenated, projections["W_O"], mh.output)
    return tuple(steps)


# ---------------------------------------------------------------------------------------------
# Checking (codes and numbers only; the interface writes the sentences)


def _positive_count(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise AttentionInputError("bad_count", parameter=name, value=value)
    return int(value)


def _heads(heads: Any, d_model: int) -> int:
    if isinstance(heads, bool) or not isinstance(heads, Integral) or heads < 1:
        raise AttentionInputError("bad_heads", value=heads)
    if d_model % heads:
        raise AttentionInputError("heads_not_dividing", heads=int(heads), d_model=d_model)
    return int(heads)


def _projections(matrices: tuple[Any, ...], d_model: int) -> dict[str, np.ndarray]:
    """W_Q, W_K, W_V, W_O as float matrices, each d_model × d_model."""
    projections = {
        name: as_matrix(name, data) for name, data in zip(PROJECTIONS, matrices, strict=True)
    }
    for name, w in projections.items():
        if w.shape != (d_model, d_model):
            raise AttentionInputError(
                "projection_shape",
                matrix=name,
                shape=shape_text(w.shape),
                expected=shape_text((d_model, d_model)),
                d_model=d_model,
            )
    return projections


def _allowed(mask: Any, causal: bool, n: int) -> np.ndarray | None:
    """The n × n 'may attend' matrix, or None when nothing is masked."""
    allowed = None if mask is None else as_mask(mask, (n, n))
    if causal:
        allowed = causal_mask(n) if allowed is None else allowed & causal_mask(n)
    if allowed is not None:
        empty = np.flatnonzero(~allowed.any(axis=1))
        if empty.size:
            raise AttentionInputError("all_masked", query=int(empty[0]) + 1)
    return allowed


# ---------------------------------------------------------------------------------------------
# The steps. Explainers take (row, column) of the matrix as shown: row = token.


def _sized(symbol: str, rows: int, cols: int) -> str:
    return rf"\underbrace{{{symbol}}}_{{{rows} \times {cols}}}"


def _positions_step(steps: list[Step], x: np.ndarray, summed: np.ndarray) -> None:
    n, d_model = x.shape
    table = positional_encoding(n, d_model)
    X, P = r"\mathbf{X}", r"\mathbf{P}"
    X_plus_P = X + "+" + P
    steps.append(
        Step(
            "positions_added",
            # three lines: on one it was wider than the step view's text column at 1400 px
            # (578 px in 355) and than a phone, and scrolled
            rf"\begin{{gathered}}{_sized(X_plus_P, n, d_model)} = {_sized(X, n, d_model)} + "
            rf"{_sized(P, n, d_model)},\\ "
            # rows and columns counted from 1, as the grids label them
            rf"p_{{i,2c+1}} = \sin\frac{{i-1}}{{10000^{{2c/{d_model}}}}},\\ "
            rf"p_{{i,2c+2}} = \cos\frac{{i-1}}{{10000^{{2c/{d_model}}}}}\end{{gathered}}",
            summed,
            {"d_model": d_model},
            lambda i, c: (
                f"x{subscript(i + 1)}{subscript(c + 1)} + "
                f"p{subscript(i + 1)}{subscript(c + 1)} = {fmt(x[i, c])} + "
                f"{operand(table[i, c])} = {fmt(summed[i, c])}"
            ),
        )
    )


_EXACT = Context(prec=80)  # enough digits for a sum of 8 products of 17-digit numbers


def exact_product(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """x @ w, where an entry within rounding of 0 is summed again exactly in decimal from the
    numbers as written (their shortest repr) and rounded once to a float. Rows typed with one
    decimal whose products cancel then give exactly 0, not the 10⁻¹⁷ a float matmul leaves
    (0.1 · 0.7 − 0.07 in binary). Entries clear of 0 keep the float matmul's value."""
    product = x @ w
    # |float sum − exact sum| ≤ d·ε·Σ|aᵢbᵢ|: an entry inside that bound may be 0 exactly
    bound = x.shape[1] * np.finfo(float).eps * (np.abs(x) @ np.abs(w))
    for i, c in zip(*np.nonzero(np.abs(product) <= bound), strict=True):
        total = Decimal(0)
        for a, b in zip(x[i], w[:, c], strict=True):
            total = _EXACT.add(
                total, _EXACT.multiply(Decimal(repr(float(a))), Decimal(repr(float(b))))
            )
        product[i, c] = float(total)
    return product


def _project_step(
    steps: list[Step],
    key: str,
    name: str,
    x: np.ndarray,
    w: np.ndarray,
    product: np.ndarray,
) -> None:
    """`product` = `x @ w` as a step: entry (i, c) is row i of `x` times column c of `w`
    (x is X, or C, the concatenated heads, for the output Y)."""
    source = "C" if name == "Y" else "X"
    n, d_in = x.shape
    d_out = w.shape[1]
    weight = {"Q": "W_Q", "K": "W_K", "V": "W_V", "Y": "W_O"}[name]
    lower = name.lower()
    source_tex = r"\mathbf{X}" if source == "X" else r"\mathbf{C}"
    weight_tex = rf"\mathbf{{W}}_{{{weight[-1]}}}"
    name_tex = r"\mathbf{" + name + "}"
    steps.append(
        Step(
            key,
            rf"{_sized(name_tex, n, d_out)} = {_sized(source_tex, n, d_in)}\,"
            rf"{_sized(weight_tex, d_in, d_out)}",
            product,
            {"d_model": d_out},
            lambda i, c: (
                f"{lower}{subscript(i + 1)}{subscript(c + 1)} = "
                f"{source.lower()}{subscript(i + 1)}·{weight}[:, {c + 1}] = "
                f"{product_sum(x[i], w[:, c])} = {fmt(product[i, c])}"
            ),
        )
    )


def _concat_step(steps: list[Step], concatenated: np.ndarray, h: int, d_head: int) -> None:
    n, d_model = concatenated.shape
    parts = ", ".join(rf"\mathbf{{O}}_{{{i + 1}}}" for i in range(h))
    if h > 3:  # eight heads named one by one would not fit a phone's width
        parts = rf"\mathbf{{O}}_1, \ldots, \mathbf{{O}}_{{{h}}}"
    C = r"\mathbf{C}"
    steps.append(
        Step(
            "heads_concatenated",
            # two lines: one is wider than the step view's text column at 1400 px
            rf"\begin{{gathered}}{_sized(C, n, d_model)} = \operatorname{{concat}}({parts}),"
            rf"\\ \mathbf{{O}}_i = \mathbf{{A}}_i \mathbf{{V}}_i:\ {n} \times {d_head}"
            r"\end{gathered}",
            concatenated,
            {"heads": h, "n": n, "d_head": d_head, "d_model": d_model},
            lambda i, c: (
                f"c{subscript(i + 1)}{subscript(c + 1)} = "
                f"(O{subscript(c // d_head + 1)}){subscript(i + 1)}"
                f"{subscript(c % d_head + 1)} = {fmt(concatenated[i, c])}"
            ),
        )
    )
