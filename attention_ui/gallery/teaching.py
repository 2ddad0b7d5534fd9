"""The weights gallery's export panel: the plane's attention as a NumPy script, the
values and weights as CSV, the steps in LaTeX. pages/gallery.py calls `export(plane)`."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention_ui.gallery import state
from attention_ui.gallery.view import Plane
from attention_ui.kit.export.latex_writer import derivation_latex
from attention_ui.kit.export.panel import Export, Table, export_panel
from attention_ui.kit.export.scripts import result_script
from attention_ui.kit.text.i18n import step_sentence, step_title

PAGE = "gallery"


def export(plane: Plane) -> None:
    """Nothing to export while the values or the engine said no."""
    result = plane.result
    if result is None or not plane.values_in.ok:
        return
    values = np.asarray(plane.values_in.values, dtype=float)  # m × 2, one value per row
    query = np.array([[float(st.session_state[q.key])] for q in (state.Q1, state.Q2)])

    def build() -> Export:
        heading = (
            f"Attention Explorer, weights gallery: keys = values, dot score, "
            f"{result.normalization}, tau = {result.temperature!r}"
        )
        return Export(
            script=result_script(
                result,
                query,
                values.T,
                values.T,
                title="Attention Explorer: weights gallery (keys = values)",
            ),
            tables=[
                Table("values", values, plane.labels, ["x", "y"]),
                Table("weights", result.weights, plane.labels, ["q"]),
                Table("output", result.output, ["x", "y"], ["q"]),
            ],
            derivation=derivation_latex(
                result.steps,
                title_of=step_title,
                sentence_of=lambda step: step_sentence(step, run_steps=result.steps),
                heading=heading,
            ),
        )

    export_panel(PAGE, build, details=(result.normalization,))
