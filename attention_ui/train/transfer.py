"""Trained weights travel: the model at the slider's step, on one input, put into the
transformer page (its X and its four W's: the same multi-head scaled dot attention) and into
the Luong explorer (one head's Q, K, V and its score function's own parameters), where their
shapes fit those pages' grids (as their schemas bound them). What each page is given is a
state of its own schema, stored as its address would store it (kit/share/address), and a
`Trained` note (kit/grids/trained) that the page shows while its grids hold those numbers.

What the note carries (both pages read it): words task, score; numbers step, head (the head
sent to Luong, 1-based), heads, layers, tokens (the input, as shown). The transformer page
gets its own sentence (the whole last layer, not one head) and captions for its X and its
positions (`TRANSFORMER_NOTE`, `TRANSFORMER_CAPTIONS`); the Luong page the shared
"common.trained".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import streamlit as st

from attention_core import ToyTask, TrainingRun
from attention_core.formatting import fmt
from attention_core.training import model_forward
from attention_ui.kit.grids.trained import Trained, mark_trained
from attention_ui.kit.share.address import SCHEMAS, apply_state
from attention_ui.kit.text.i18n import current_language, t
from attention_ui.kit.text.markdown import escape_markdown
from attention_ui.luong import state as luong
from attention_ui.train import compute
from attention_ui.train import state as train_state
from attention_ui.train.state import Settings
from attention_ui.transformer import state as transformer

TRANSFORMER_NOTE = {1: "learned.handover.note_one"}  # by heads; more: "learned.handover.note"
TRANSFORMER_CAPTIONS = {"x": "learned.handover.x", "positions": "learned.handover.positions"}
# two layers: the last one's input X also holds the first layer's output (the residual stream)
TWO_LAYER_CAPTIONS = {**TRANSFORMER_CAPTIONS, "x": "learned.handover.x_two_layers"}
# tokens made of features (key lookup's pair C→5: key C and value 5): a pair's embedding is the
# sum of two rows of E, not one
PAIR_CAPTIONS = {**TRANSFORMER_CAPTIONS, "x": "learned.handover_pairs.x"}


@dataclass(frozen=True)
class Sent:
    """What a page is given (by session key), or why it cannot be (a catalog key's last part
    and its numbers)."""

    values: dict[str, Any]
    grids: tuple[str, ...] = ()
    problem: tuple[str, dict] | None = None


def _last_layer(run: TrainingRun, params: dict, task: ToyTask, tokens: np.ndarray):
    passed = model_forward(
        params,
        tokens[None, :],
        task.outputs,
        run.score,
        run.heads,
        causal=task.causal,
        features=task.features,
    )
    return passed.layers[-1]


def transformer_state(
    run: TrainingRun, settings: Settings, task: ToyTask, tokens: np.ndarray, step: int
) -> Sent:
    """The transformer page computes scaled dot attention from X, W_Q, W_K, W_V, W_O: the
    trained model's last layer is that very computation when its score is scaled dot; X is
    that layer's input for these tokens (embeddings plus positions, and for two layers the
    first one's output added)."""
    if run.score != "scaled_dot":
        return Sent({}, problem=("transformer_score", {}))
    high = SCHEMAS["transformer"].field("d").high  # the page's largest d_model
    if run.d_model > high:
        return Sent({}, problem=("transformer_size", {"d_model": run.d_model, "high": high}))
    params = run.snapshot_at(step).params
    layer = _last_layer(run, params, task, tokens)
    grids = {transformer.MATRIX_KEYS["X"]: layer.x[0]}  # L × d
    for name in ("W_Q", "W_K", "W_V", "W_O"):
        grids[transformer.MATRIX_KEYS[name]] = params[name]
    values = {
        transformer.SENTENCE.key: " ".join(task.tokens[int(i)] for i in tokens),
        transformer.D_MODEL.key: run.d_model,
        transformer.HEADS.key: run.heads,
        transformer.SEED.key: settings.seed,
        transformer.POSITIONS.key: False,  # the learned positions are in X already
        transformer.CAUSAL.key: task.causal,
        **grids,
    }
    return Sent(values, tuple(grids))


def luong_state(run: TrainingRun, task: ToyTask, tokens: np.ndarray, step: int, head: int) -> Sent:
    """One head of the last layer as the Luong explorer's inputs, in its column layout: Q
    (d_h × T, the outputs' queries), K and V (d_h × L), the score function's own W, W_a, v_a,
    and, under a causal mask, the mask's cells. Every size must be at most the page's."""
    d_h = run.d_model // run.heads
    high = min(s.field.high for s in luong.SIZES.values())  # the page's largest size
    if max(d_h, task.length, task.outputs) > high:
        return Sent({}, problem=("luong_size", {"d_h": d_h, "length": task.length, "high": high}))
    params = run.snapshot_at(step).params
    layer = _last_layer(run, params, task, tokens)
    q, v = layer.q[head, 0], layer.v[head, 0]
    k = v if layer.k is None else layer.k[head, 0]  # location reads no key
    grids = {luong.matrix_key("Q"): q, luong.matrix_key("K"): k, luong.matrix_key("V"): v}
    if run.score == "general":
        grids[luong.matrix_key("W")] = params["W"][head]
    elif run.score == "concat":
        grids[luong.matrix_key("Wa_concat")] = params["W_a"][head]
        grids[luong.matrix_key("va")] = params["v_a"][head][None, :]  # 1 × h
    elif run.score == "location":
        grids[luong.matrix_key("Wa_location")] = params["W_a"][head]
    values: dict[str, Any] = {
        luong.PRESET.key: "random",
        luong.SEED.key: 0,
        luong.SCORE.key: run.score,
        luong.LAYOUT.key: "column",
        luong.TEMPERATURE.key: 1.0,
        luong.MASK_KIND.key: "none",
        **{
            luong.SIZES[name].key: size
            for name, size in (
                ("d_q", d_h),
                ("d_k", d_h),
                ("d_v", d_h),
                ("n", task.outputs),
                ("m", task.length),
                ("h", d_h),
            )
        },
    }
    if task.causal:  # key j may be attended by the output read at position t when j ≤ t
        values[luong.MASK_KIND.key] = "cells"
        cells = (
            np.arange(task.length)[:, None] <= np.arange(task.length)[layer.read][None, :]
        ).astype(float)  # L × T
        grids[luong.matrix_key("mask.cells")] = cells
    return Sent({**values, **grids}, tuple(grids))


# ---------------------------------------------------------------------------------------------
# Drawing


def section(run: TrainingRun, settings: Settings, step: int, tokens: np.ndarray) -> None:
    """ "Open in multi-head self-attention" and "Open in the Luong explorer": the model at the
    slider's step on this input, put into those pages' grids (where their shapes fit), which
    then say the matrices are trained, on which task and at which step."""
    task = compute.task_of(settings.task, settings.seed)
    st.subheader(t("train.transfer.title"))
    st.caption(t("train.transfer.intro", step=fmt(step)))
    head = int(st.session_state.get(train_state.HEAD, 1)) - 1
    head = head if 0 <= head < run.heads else 0
    sends = {
        "transformer": transformer_state(run, settings, task, tokens, step),
        "luong": luong_state(run, task, tokens, step, head),
    }
    told = told_of(run, settings, task, tokens, step, head)
    for column, (page, sent) in zip(st.columns(2), sends.items(), strict=True):
        with column:
            pressed = st.button(
                t(f"train.transfer.{page}"),
                key=f"train.transfer.{page}",
                disabled=sent.problem is not None,
                icon=":material/open_in_new:",
            )
            if sent.problem is not None:
                code, numbers = sent.problem
                st.caption(t(f"train.transfer.{code}", **{k: fmt(v) for k, v in numbers.items()}))
            if pressed and sent.problem is None:
                if page == "transformer":
                    captions = _captions(run, task)
                    note = TRANSFORMER_NOTE.get(run.heads, "learned.handover.note")
                    told = replace(told, note=note, captions=captions)
                send(page, sent, told)


def _captions(run: TrainingRun, task: ToyTask) -> dict[str, str]:
    """What the transformer page says of the X it is sent: one row of E per token, or a
    pair's two rows (tokens made of features), plus layer 1's output (two layers)."""
    if run.layers == 2:
        return TWO_LAYER_CAPTIONS
    return TRANSFORMER_CAPTIONS if task.features is None else PAIR_CAPTIONS


def told_of(
    run: TrainingRun, settings: Settings, task: ToyTask, tokens: np.ndarray, step: int, head: int
) -> Trained:
    """What the page the weights go to says of them: trained on which task, with which
    score, at which step, which head (for Luong) of how many, on which input."""
    shown = " ".join(task.tokens[int(i)] for i in tokens)
    return Trained(
        grids={},
        words={
            "task": f"train.settings.task_options.{settings.task}",
            "score": f"engine.value.score.{run.score}",
        },
        numbers={
            "step": fmt(step),
            "head": fmt(head + 1),
            "heads": fmt(run.heads),
            "layers": fmt(run.layers),
            "tokens": escape_markdown(shown, 80),
        },
    )


def send(page: str, sent: Sent, told: Trained) -> None:
    """Put the weights into `page`'s state, marked trained (`told` with the grids sent), and
    open that page."""
    apply_state(SCHEMAS[page], sent.values)
    grids = {key: np.asarray(sent.values[key], dtype=float) for key in sent.grids}
    mark_trained(page, replace(told, grids=grids))
    st.switch_page(f"pages/{page}.py", query_params={"lang": current_language()})
