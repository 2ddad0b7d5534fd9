"""A Plotly chart that stays on the page and takes new numbers in place.

st.plotly_chart draws a changed figure as a new element: the old chart is taken down and a full
Plotly draw builds the new one. This chart is a Streamlit custom component (v2, no iframe) whose
browser half (static/live_chart.js) draws the figure once and then calls `Plotly.react` on the
same element with each new figure, so that an edit, or a scrub of many edits, redraws only what
changed. It keeps what st.plotly_chart gives: hover text, the mode bar's camera (its PNG named by
`config`), Streamlit's chart theme in light and dark, the text alternative as the chart's
accessible name (role="figure"), and the container's width.

The plotly.js it draws with is the one the Python plotly package ships, the very version whose
JSON the server writes, kept in the project's static/vendor/ as plotly-<version>.min.js (a
copy, byte for byte: tests/kit/figures/test_live_chart_served.py) and served by Streamlit's static
serving at app/static/ (.streamlit/config.toml). The browser loads it once per page with a
<script> tag, which sets window.Plotly. The version in the name lets a browser keep the file
(that route sends an ETag and Last-Modified, no Cache-Control: a reload asks again and gets 304
Not Modified) without ever mixing an old plotly.js with a newer plotly's JSON.

Sent: one JSON document as bytes (the figure as plotly writes it, the config, the text
alternative, and `plotly`, the address of plotly.js relative to the app's root).
`chart_spec(element)` reads it back, for tests.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st
from plotly.offline import get_plotlyjs_version
from streamlit.components.v2 import component

from attention_ui.kit.figures.heatmap import DrawnFigure

_STATIC = Path(__file__).resolve().parents[3] / "static"
_LOADER = """
const code = import(new URL("app/static/live_chart.js", location.href).href);
export default async function (component) {
  const { default: render } = await code;
  return render(component);
}
"""
# plotly.js of the plotly package in use, in static/vendor/ (see the module's docstring)
PLOTLY_FILE = f"plotly-{get_plotlyjs_version()}.min.js"
_PLOTLY_WHERE = json.dumps(f"app/static/vendor/{PLOTLY_FILE}")


def _static_served() -> bool:
    """Whether Streamlit serves static/ at app/static/ (see kit.grids.cell_grid)."""
    script = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    served = bool(st.get_option("server.enableStaticServing"))
    return served and script is not None and (script.parent / "static").resolve() == _STATIC


def _define_component():
    js = _LOADER if _static_served() else (_STATIC / "live_chart.js").read_text(encoding="utf-8")
    # Plotly styles its hover labels and mode bar from <head>: the chart is not in a shadow root.
    return component("attention_live_chart", js=js, isolate_styles=False)


_COMPONENT = _define_component()


def live_chart(
    figure: go.Figure | DrawnFigure,
    key: str,
    *,
    config: dict[str, Any],
    alt: str,
    container: Any = None,
) -> None:
    """Draw `figure` under widget key `key` (in `container`, else the current one); a later run
    with the same key redraws the same element with the new figure."""
    spec = (
        '{"figure":'
        + (
            figure.to_json()
            if isinstance(figure, DrawnFigure)
            else pio.to_json(figure, validate=False)
        )
        + ',"config":'
        + json.dumps(config)
        + ',"alt":'
        + json.dumps(alt)
        + ',"plotly":'
        + _PLOTLY_WHERE
        + "}"
    )
    if container is None or container is st:
        _COMPONENT(key=key, data=spec.encode())
    else:
        with container:
            _COMPONENT(key=key, data=spec.encode())


def chart_spec(element: Any) -> dict[str, Any]:
    """The document a live chart element (an AppTest element or its proto) carries."""
    proto = getattr(element, "proto", element)
    return json.loads(bytes(proto.bytes).decode())
