"""Squeeze-and-Excitation (Hu et al., 2018) read as attention (d2l's exercise 4).

A feature map X has C channels of P pixels each (C × P here: one channel per row, its pixels
flattened). SE re-weights the channels in three steps:

    squeeze     z = mean over the pixels of each channel              (C,)
    excitation  s = σ(W₂ ReLU(W₁ z))      W₁: h × C, W₂: C × h        (C,)
    scale       Y = diag(s) X                                         (C × P)

where Hu et al. write the hidden size h as C/r, r being the reduction ratio. Read as attention,
each channel is scaled by its own gate, Y_c = s_c X_c: nothing is summed over the channels, so
SE is a gating by unnormalised, non-competing weights computed from the global context z (and
the squeeze itself is average pooling over the pixels). Each σ(a) is in (0, 1) in exact
arithmetic; in floating point it is exactly 1.0 for a ≳ 37. With gate='softmax' the last step
is a softmax over the channels instead, whose weights sum to 1 and compete, for contrast.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .errors import AttentionInputError
from .normalize import softmax
from .steps import Step
from .validation import as_matrix, check_finite, shape_text

GATES = ("sigmoid", "softmax")


@dataclass(frozen=True)
class SqueezeExcitation:
    """Every intermediate of one SE block.

    squeezed : (C,); hidden_scores : (h,) = W₁ z; hidden : (h,) = ReLU(W₁ z)
    gate_scores : (C,) = W₂ h; gates : (C,) the channel weights; output : (C, P)
    """

    feature_map: np.ndarray
    squeezed: np.ndarray
    hidden_scores: np.ndarray
    hidden: np.ndarray
    gate_scores: np.ndarray
    gates: np.ndarray
    output: np.ndarray
    gate: str
    steps: tuple[Step, ...]

    @property
    def gate_sum(self) -> float:
        return float(self.gates.sum())


def squeeze_excitation(X: Any, W1: Any, W2: Any, *, gate: str = "sigmoid") -> SqueezeExcitation:
    """Squeeze, excite and scale the channels of X.

    Parameters
    ----------
    X : array_like, C × P (one channel per row, its pixels in the columns)
    W1 : array_like, h × C (the reduction to the hidden size h, C/r in Hu et al.)
    W2 : array_like, C × h (the expansion back to one score per channel)
    gate : {'sigmoid', 'softmax'}, SE's sigmoid, or a softmax over the channels for contrast
    """
    if gate not in GATES:
        raise AttentionInputError("unknown_gate", gate=gate, choices=", ".join(GATES))
    x, w1, w2 = _checked(X, W1, W2)
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        squeezed = x.mean(axis=1)  # C
        hidden_scores = w1 @ squeezed  # r
        hidden = np.maximum(hidden_scores, 0.0)  # r
        gate_scores = w2 @ hidden  # C
        if gate == "sigmoid":
            # σ(a) = 1 / (1 + e^(−a)), written per sign so e^(±a) never overflows
            gates = np.where(
                gate_scores >= 0,
                1.0 / (1.0 + np.exp(-np.abs(gate_scores))),
                np.exp(-np.abs(gate_scores)) / (1.0 + np.exp(-np.abs(gate_scores))),
            )
        else:
            gates = softmax(gate_scores[:, None], axis=0)[:, 0]
        output = gates[:, None] * x  # C × P
    check_finite("z", squeezed)
    check_finite("W1 z", hidden_scores)
    check_finite("W2 h", gate_scores)
    check_finite("Y", output)
    result = SqueezeExcitation(
        feature_map=x,
        squeezed=squeezed,
        hidden_scores=hidden_scores,
        hidden=hidden,
        gate_scores=gate_scores,
        gates=gates,
        output=output,
        gate=gate,
        steps=(),
    )
    return replace(result, steps=squeeze_excitation_steps(result))


def _checked(X: Any, W1: Any, W2: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """X (C × P), W1 (h × C) and W2 (C × h) as float matrices, or the error naming the one at
    fault."""
    x = as_matrix("X", X)
    w1, w2 = as_matrix("W1", W1), as_matrix("W2", W2)
    channels = x.shape[0]
    r = w1.shape[0]
    if w1.shape[1] != channels:
        raise AttentionInputError(
            "weight_shape",
            matrix="W1",
            shape=shape_text(w1.shape),
            expected=shape_text((r, channels)),
            channels=channels,
        )
    if w2.shape != (channels, r):
        raise AttentionInputError(
            "weight_shape",
            matrix="W2",
            shape=shape_text(w2.shape),
            expected=shape_text((channels, r)),
            channels=channels,
        )
    return x, w1, w2


def squeeze_excitation_steps(se: SqueezeExcitation) -> tuple[Step, ...]:
    """The steps of one `squeeze_excitation` run, from the arrays it computed."""
    channels, pixels = se.feature_map.shape
    r = se.hidden.shape[0]
    gate_latex = (
        r"\mathbf{s} = \sigma(\mathbf{W}_2\mathbf{h}) = "
        r"\frac{1}{1 + e^{-\mathbf{W}_2\mathbf{h}}}"
        if se.gate == "sigmoid"
        else r"\mathbf{s} = \operatorname{softmax}(\mathbf{W}_2\mathbf{h})"
    )
    return (
        Step(
            "se_squeeze",
            rf"\underbrace{{\mathbf{{z}}}}_{{{channels} \times 1}},\quad "
            rf"z_c = \frac{{1}}{{{pixels}}}\sum_{{p=1}}^{{{pixels}}} X_{{c,p}}",
            se.squeezed[:, None],
            {"channels": channels, "pixels": pixels},
        ),
        Step(
            "se_reduce",
            rf"\underbrace{{\mathbf{{W}}_1\mathbf{{z}}}}_{{{r} \times 1}}",
            se.hidden_scores[:, None],
            {"r": r},
        ),
        Step(
            "se_relu",
            r"\mathbf{h} = \operatorname{ReLU}(\mathbf{W}_1\mathbf{z}) = "
            r"\max(0, \mathbf{W}_1\mathbf{z})",
            se.hidden[:, None],
            {"r": r},
        ),
        Step(
            "se_expand",
            rf"\underbrace{{\mathbf{{W}}_2\mathbf{{h}}}}_{{{channels} \times 1}}",
            se.gate_scores[:, None],
            {"channels": channels},
        ),
        Step(f"se_gate_{se.gate}", gate_latex, se.gates[:, None], {"channels": channels}),
        Step(
            "se_scale",
            rf"\underbrace{{\mathbf{{Y}}}}_{{{channels} \times {pixels}}} = "
            r"\operatorname{diag}(\mathbf{s})\,\mathbf{X}",
            se.output,
            {"channels": channels, "pixels": pixels},
        ),
    )
