"""Every chart the pages draw in a set of AppTest sessions (each page in English and Japanese,
and the states that reshape a heatmap: key blocks, capped rows, missing predictions, a trained
run), written as decoded JSON (typed arrays as lists, NaN as null) with each chart's key and
text alternative. Run it in two checkouts and compare the files: a refactor of the figures
must draw the same JSON.

    PYTHONPATH=. python bench/figure_dump.py out.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from attention_ui.kit.figures.alt_text import values_of

APP = Path("app.py").resolve()
TEN_WORDS = "the cat sat on the mat and the dog ran"


def _decoded(value):
    if isinstance(value, dict):
        array = values_of(value)  # plotly's typed array, decoded
        if array is not value:
            return _decoded(np.asarray(array).tolist())
        return {key: _decoded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_decoded(item) for item in value]
    if isinstance(value, float) and value != value:
        return None
    return value


def _session(page: str, lang: str, state: dict | None = None, after=None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.session_state["lang"] = lang
    at.run()
    if page != "home":
        at.switch_page(f"pages/{page}.py").run()
    if state:
        for key, value in state.items():
            at.session_state[key] = value
        at.run()
    if after:
        after(at)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _train(at: AppTest) -> None:
    at.button(key="train.train").click().run()


SCENARIOS = {
    "home": ("home", {}, None),
    "luong": ("luong", {}, None),
    "database": ("database", {}, None),
    "gallery": ("gallery", {}, None),
    "exercises": ("exercises", {}, None),
    "exercises.grad": ("exercises", {"exercises.section": "grad"}, None),
    "exercises.search": ("exercises", {"exercises.section": "search"}, None),
    "exercises.search.long": (
        "exercises",
        {"exercises.section": "search", "exercises.search.steps": 200},
        None,
    ),
    "exercises.se": ("exercises", {"exercises.section": "se"}, None),
    "transformer": ("transformer", {"transformer.detail": True}, None),
    "transformer.ten": ("transformer", {"transformer.sentence": TEN_WORDS}, None),
    "regression": ("regression", {"regression.steps.show": True}, None),
    "regression.many": (
        "regression",
        {"regression.queries": 60, "regression.steps.show": True},
        None,
    ),
    "regression.few": (
        "regression",
        {
            "regression.preset": "few",
            "regression.kernel": "boxcar",
            "regression.sigma": 0.3,
            "regression.steps.show": True,
        },
        None,
    ),
    "train": (
        "train",
        {"train.steps": 60, "train.d_model": 8, "train.task": "reverse", "train.heads": 2},
        _train,
    ),
}


def main(out: str, names: list[str]) -> None:
    dump = {}
    for name, (page, state, after) in SCENARIOS.items():
        if names and name not in names:
            continue
        for lang in ("en", "ja"):
            at = _session(page, lang, state, after)
            charts = []
            for element in at.get("bidi_component"):
                if element.proto.component_name != "attention_live_chart":
                    continue
                document = json.loads(bytes(element.proto.bytes).decode())
                key = element.proto.id.split("-", 1)[-1]
                charts.append(
                    {"key": key, "alt": document["alt"], "figure": _decoded(document["figure"])}
                )
            dump[f"{name}.{lang}"] = charts
            print(name, lang, len(charts), flush=True)
    Path(out).write_text(json.dumps(dump, sort_keys=True, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
