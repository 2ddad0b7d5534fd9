"""Drawing a Plotly figure: the one place every page's charts go through.

Each chart gets Plotly's camera button configured to save a PNG under a meaningful name
(page, chart and settings, e.g. attention-explorer_luong_chart_A_dot_column.png) instead of
plotly's 'newplot.png'.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import streamlit as st

from attention_ui.kit.export.names import file_name


def chart_config(key: str, *details: object) -> dict[str, Any]:
    """Plotly's config for a chart drawn with widget key `key` (e.g. 'luong.chart.A'): the
    PNG is named after the key and `details` (settings such as the score; never user text)."""
    return {
        "toImageButtonOptions": {"format": "png", "filename": file_name(*key.split("."), *details)},
        "displaylogo": False,
    }


def show_chart(figure: go.Figure, key: str, *, details: tuple = (), container: Any = None) -> None:
    """st.plotly_chart (in `container`, else the current one) with the camera button's file
    name set from `key` and `details` (see `chart_config`)."""
    (container or st).plotly_chart(figure, key=key, config=chart_config(key, *details))
