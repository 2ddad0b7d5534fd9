"""Reading the Plotly figures an AppTest run produced: the JSON spec, with arrays decoded.

Plotly 6+ sends NumPy arrays as typed arrays ({"dtype": "f8", "bdata": base64, "shape": "2, 3"});
`figures(at)` turns them back into NumPy arrays so tests can compare numbers.

The kit draws every chart as a live chart (attention_ui/kit/figures/live_chart.py), a custom
component whose data is one JSON document; `charts(node)` reads them out of an AppTest run (or a
block of it) in the shape st.plotly_chart's elements had: `.proto.id`, `.proto.spec` (the
figure's JSON), `.proto.alt`, `.proto.config`.
"""

from __future__ import annotations

import base64
import json
from types import SimpleNamespace
from typing import Any

import numpy as np

LIVE_CHART = "attention_live_chart"


def charts(node) -> list[SimpleNamespace]:
    """Every chart under `node` (an AppTest or a block of it), in page order."""
    found = []
    for element in node.get("bidi_component"):
        if element.proto.component_name != LIVE_CHART:
            continue
        document = json.loads(bytes(element.proto.bytes).decode())
        proto = SimpleNamespace(
            id=element.proto.id,
            spec=json.dumps(document["figure"]),
            alt=document["alt"],
            config=json.dumps(document["config"]),
        )
        found.append(SimpleNamespace(proto=proto))
    return found


def figures(at) -> list[dict[str, Any]]:
    """Every Plotly figure of the run, in page order, as decoded dicts."""
    return [decode(json.loads(chart.proto.spec)) for chart in charts(at)]


def decode(node: Any) -> Any:
    if isinstance(node, dict):
        if "bdata" in node and "dtype" in node:
            array = np.frombuffer(base64.b64decode(node["bdata"]), dtype=np.dtype(node["dtype"]))
            shape = node.get("shape")
            if shape:
                array = array.reshape([int(s) for s in str(shape).split(",")])
            return array
        return {key: decode(value) for key, value in node.items()}
    if isinstance(node, list):
        return [decode(value) for value in node]
    return node


def chart(at, key: str) -> dict[str, Any]:
    """The decoded figure of the chart drawn with widget key `key`."""
    for element in charts(at):
        if element.proto.id.endswith(f"-{key}"):
            return decode(json.loads(element.proto.spec))
    raise AssertionError(f"no chart {key}")
