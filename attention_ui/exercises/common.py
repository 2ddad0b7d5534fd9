"""What the four exercise modules share: labels, a heatmap, an exercise's opening."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import SIGNED, Looks, Titles, heatmap
from attention_ui.kit.text.i18n import t
from attention_ui.kit.text.markdown import stacked


def labels(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i + 1}" for i in range(count)]


def matrix_chart(
    values: np.ndarray,
    rows: list[str],
    cols: list[str],
    title: str,
    chart_key: str,
    looks: Looks = SIGNED,
) -> None:
    """A matrix as a heatmap: signed (centred on 0) unless the caller says it holds weights."""
    show_chart(heatmap(values, cols, rows, Titles(title), looks=looks), key=chart_key)


def opening(name: str, *formula: str) -> list:
    """An exercise's title and question (`exercises.<name>.*`), its formula one line at a
    time (so that it fits a phone), and the two columns under it: controls, then charts."""
    st.header(t(f"exercises.{name}.title"))
    st.markdown(t(f"exercises.{name}.question"))
    st.latex(stacked(*formula))
    return st.columns([2, 3], gap="large")
