"""The attention player: the snapshots' attention heatmaps with the step slider and Play under
them, drawn in the browser (static/train_player.js, a Streamlit custom component v2), which
plays the frames it holds without a server round trip per frame and tells the server the step
when the learner stops (or, before training with "Predict, then reveal" on, the cells clicked).

`panels` builds what the browser draws from the engine's snapshots (pure: arrays and words
in, a dict out); `player` draws it and returns what the learner chose.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import streamlit as st
from streamlit.components.v2 import component

from attention_core import ToyTask
from attention_core.training import Snapshot
from attention_ui.kit.text.i18n import t

STACKED = 4  # a task with one output per example shows this many examples, one per row
FPS = 12  # frames a second while playing
# At most this many numbers per draw (panels' cells × frames): longer runs send every other
# snapshot, evenly spread, the first and the last always among them.
MAX_NUMBERS = 60_000

_STATIC = Path(__file__).resolve().parents[2] / "static"
_LOADER = """
const code = import(new URL("app/static/train_player.js", location.href).href);
export default async function (component) {
  const { default: render } = await code;
  return render(component);
}
"""


def _static_served() -> bool:
    """Whether Streamlit serves static/ at app/static/ (see kit.grids.cell_grid)."""
    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    served = bool(st.get_option("server.enableStaticServing"))
    return served and script is not None and (script.parent / "static").resolve() == _STATIC


def _define_component():
    served = _static_served()
    js = _LOADER if served else (_STATIC / "train_player.js").read_text(encoding="utf-8")
    return component("attention_train_player", js=js)


_COMPONENT = _define_component()


@dataclass(frozen=True)
class Shown:
    """What the heatmaps show: `rings` the right positions framed (hidden while a prediction
    is open), `shares` each head's weight on them in its title (hidden likewise)."""

    rings: bool = True
    shares: bool = True


def _percent(weights: np.ndarray) -> list[int]:
    """Weights 0 … 1 as whole percentages, row-major (the browser's colour and text)."""
    return (
        np.rint(np.clip(np.asarray(weights, dtype=float), 0, 1) * 100).astype(int).ravel().tolist()
    )


def _positions(task: ToyTask, row: np.ndarray) -> list[str]:
    return [f"{i + 1} · {task.tokens[int(token)]}" for i, token in enumerate(row)]


def _head_title(snapshot: Snapshot, head: int, layers: int, layer: int, shown: Shown) -> str:
    if layers > 1:
        return t("watch.layer_head", layer=layer + 1, head=head + 1)
    if shown.shares:
        share = float(snapshot.on_target_by_head[head])
        return t("train.snapshot.head", number=head + 1, share=f"{share:.2f}")
    return t("train.learned.head", number=head + 1)


def _layer_panels(task: ToyTask, snapshots: Sequence[Snapshot], layer: int, shown: Shown):
    """Each head's panel of one layer, over the snapshots."""
    first = snapshots[0]
    layers = max(len(first.layer_weights), 1)
    last = layer == layers - 1
    heads = first.weights.shape[1]
    stacked = last and task.outputs == 1  # one row per example
    count = min(STACKED, first.weights.shape[0]) if stacked else 1
    if stacked:
        x = [str(i + 1) for i in range(task.length)]
        y = [
            t(
                "watch.example_row",
                number=e + 1,
                query=task.tokens[int(task.inputs[e][-1])],
                answer=task.tokens[int(task.targets[e][0])],
            )
            for e in range(count)
        ]
        rings = [[e, int(task.attend[e][0])] for e in range(count)]
    else:
        x = _positions(task, task.inputs[0])
        if last:
            y = [
                t("train.axis.output", number=i + 1, token=task.tokens[int(token)])
                for i, token in enumerate(task.targets[0])
            ]
            rings = [[row, int(column)] for row, column in enumerate(task.attend[0])]
        else:  # a first layer: every position asks
            y = x
            rings = []
    panels = []
    for head in range(heads):

        def weights(s: Snapshot, head=head) -> np.ndarray:
            arrays = s.layer_weights or (s.weights,)
            chosen = arrays[layer][:count, head]  # examples × rows × L
            return chosen[:, 0, :] if stacked else chosen[0]

        panels.append(
            {
                "title": _head_title(snapshots[-1], head, layers, layer, shown),
                "x": x,
                "y": y,
                "rings": rings if shown.rings else [],
                "outputs": last,
                "z": [_percent(weights(s)) for s in snapshots],
            }
        )
    return panels


def spread(snapshots: Sequence[Snapshot], cells: int) -> list[Snapshot]:
    """The snapshots sent: all of them while cells × frames stays within MAX_NUMBERS, else
    evenly spread ones, the first and the last among them."""
    most = max(2, MAX_NUMBERS // max(cells, 1))
    if len(snapshots) <= most:
        return list(snapshots)
    chosen = np.unique(np.linspace(0, len(snapshots) - 1, most).round().astype(int))
    return [snapshots[i] for i in chosen]


def panels(task: ToyTask, snapshots: Sequence[Snapshot], shown: Shown = Shown()) -> dict:
    """What the player draws for these snapshots: their steps and a panel per layer and head
    (named "Layer 1", "Layer 2" where the model has two), each frame's weights."""
    layers = max(len(snapshots[0].layer_weights), 1)
    cells = sum(
        np.asarray(w[0]).size for w in (snapshots[0].layer_weights or (snapshots[0].weights,))
    )
    sent = spread(snapshots, cells * (STACKED if task.outputs == 1 else 1))
    found = []
    for layer in range(layers):
        found.extend(_layer_panels(task, sent, layer, shown))
    return {"steps": [int(s.step) for s in sent], "panels": found}


def player(
    drawn: dict,
    key: str,
    *,
    step: int,
    live: bool = False,
    pick: Sequence[int | None] | None = None,
    pick_panel: int = 0,
    on_step: Callable[[], None] | None = None,
    on_pick: Callable[[], None] | None = None,
) -> Any:
    """Draw the player (`drawn` from `panels`) at the snapshot at or before `step`; `live`:
    no slider and no Play (a run in progress); `pick`: panel `pick_panel`'s cells answer
    clicks (the chosen column per row). `on_step`/`on_pick` run (before the rerun) when the
    learner stops at a step / clicks a cell. Returns the component's result (`.step`,
    `.pick`)."""
    steps = drawn["steps"]
    index = int(np.searchsorted(steps, step, side="right")) - 1
    data = {
        **drawn,
        "index": max(index, 0),
        "live": live,
        "fps": FPS,
        "pick": None if pick is None else {"panel": pick_panel, "chosen": list(pick)},
        "words": {
            "play": t("watch.play"),
            "pause": t("watch.pause"),
            "slider": t("train.scrub.label"),
            "step": t("watch.step"),
        },
    }
    return _COMPONENT(
        key=key,
        data=data,
        on_step_change=on_step or _noop,
        on_pick_change=on_pick or _noop,
    )


def _noop() -> None:
    """The component's state changes rerun the page (or its fragment): the page reads them
    from the result."""
