"""A Plotly chart that stays on the page and takes new numbers in place.

st.plotly_chart draws a changed figure as a new element: the old chart is taken down and a full
Plotly draw builds the new one. This chart is a Streamlit custom component (v2, no iframe) whose
browser half (static/live_chart.js) draws the figure once and then calls `Plotly.react` on the
same element with each new figure, so that an edit, or a scrub of many edits, redraws only what
changed. It keeps what st.plotly_chart gives: hover text, the mode bar's camera (its PNG named by
`config`), Streamlit's chart theme in light and dark, the text alternative as the chart's
accessible name (role="figure"), and the container's width.

The plotly.js it draws with is the one st.plotly_chart draws with: Streamlit's own plotly chunk
(static/js/PlotlyChart.<hash>.js in its frontend, which sets window.Plotly when it runs),
imported from where Streamlit serves its frontend. That route sends files as they are on disk
(no compression on the server: Streamlit leaves its static route out of its gzip middleware)
with `Cache-Control: public, immutable, max-age=1 year`, so a browser fetches it once, and a
page that also has an st.plotly_chart loads it once. The plotly.js that the Python plotly
package ships (served by Streamlit from the package's folder, as a component's asset) is the
fallback, should a Streamlit release name its chunk otherwise: that route compresses the whole
file anew for every request and lets no browser keep it.

Sent: one JSON document as bytes (the figure as plotly writes it, the config, the text
alternative, where plotly.js is: `{"streamlit": chunk file name or "", "package": address}`).
`chart_spec(element)` reads it back, for tests.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import plotly
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st
from streamlit.components.v1 import declare_component
from streamlit.components.v2 import component

from attention_ui.kit.figures.heatmap import DrawnFigure

_PLOTLY_DIR = Path(plotly.__file__).resolve().parent / "package_data"
_PLOTLY_NAME = "plotly_js"  # Streamlit serves _PLOTLY_DIR at component/<module>.plotly_js/
_PLOTLY_URL = f"component/{__name__}.{_PLOTLY_NAME}/plotly.min.js"
# Streamlit's frontend, served at static/ beside its index.html
_STREAMLIT_JS = Path(st.__file__).resolve().parent / "static" / "static" / "js"


def streamlit_plotly_chunk() -> str:
    """The file name of the chunk of Streamlit's frontend that holds plotly.js (the one
    st.plotly_chart loads), or "" when there is not exactly one."""
    found = sorted(path.name for path in _STREAMLIT_JS.glob("PlotlyChart.*.js"))
    return found[0] if len(found) == 1 else ""


_PLOTLY_WHERE = json.dumps({"streamlit": streamlit_plotly_chunk(), "package": _PLOTLY_URL})
_STATIC = Path(__file__).resolve().parents[3] / "static"
_LOADER = """
const code = import(new URL("app/static/live_chart.js", location.href).href);
export default async function (component) {
  const { default: render } = await code;
  return render(component);
}
"""
_served = False


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


def _serve_plotly() -> None:
    """Let Streamlit serve plotly.js from the plotly package (registered in the run that first
    draws a chart: Streamlit registers a component's folder only inside a script run)."""
    global _served
    if not _served:
        declare_component(_PLOTLY_NAME, path=str(_PLOTLY_DIR))
        _served = True


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
    _serve_plotly()
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
