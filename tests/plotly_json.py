"""Reading the Plotly figures an AppTest run produced: the JSON spec, with arrays decoded.

Plotly 6+ sends NumPy arrays as typed arrays ({"dtype": "f8", "bdata": base64, "shape": "2, 3"});
`figures(at)` turns them back into NumPy arrays so tests can compare numbers.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np


def figures(at) -> list[dict[str, Any]]:
    """Every Plotly figure of the run, in page order, as decoded dicts."""
    return [decode(json.loads(chart.proto.spec)) for chart in at.get("plotly_chart")]


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
    """The decoded figure of the plotly_chart drawn with widget key `key`."""
    for element in at.get("plotly_chart"):
        if element.proto.id.endswith(f"-{key}"):
            return decode(json.loads(element.proto.spec))
    raise AssertionError(f"no chart {key}")
