"""Start here: what attention is, one live example, and the way to every page."""

import numpy as np
import streamlit as st

from attention_core import AttentionInputError
from attention_core.formatting import fmt
from attention_ui.frame import page_footer, page_header
from attention_ui.home import state
from attention_ui.home.compute import compute
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import WEIGHTS, Titles, step_heatmap
from attention_ui.kit.folds import fold
from attention_ui.kit.lessons.bar import offer
from attention_ui.kit.state import settings as draw
from attention_ui.kit.state.navigation import link_params
from attention_ui.kit.text.i18n import show_error, t
from attention_ui.page_list import PAGES, SCHEMAS

page_header("home")
offer(SCHEMAS)  # the built-in lessons, on the first screen: a path through the app
draw.start(state.SETTINGS)
st.header(t("home.example.title"))
st.markdown(t("home.example.intro"))
controls, chart = st.columns([1, 2])
with controls:
    q1, q2 = (draw.slider(q, step=0.1) for q in (state.Q1, state.Q2))
    # One formula each: side by side they do not fit the narrow column.
    st.latex(r"\mathbf{K} = \begin{bmatrix} 1 & 0 & -1 \\ 0 & 1 & 0 \end{bmatrix}")
    st.latex(r"\mathbf{V} = \begin{bmatrix} 10 & 20 & 30 \end{bmatrix}")
try:
    result = compute(q1, q2)
except AttentionInputError as error:
    show_error(error)
else:
    with chart:
        weights = result.step("weights_softmax")
        show_chart(
            step_heatmap(
                weights,
                ["q"],
                ["k1", "k2", "k3"],
                Titles(t("home.example.weights"), t("home.query"), t("home.keys")),
                looks=WEIGHTS,
            ),
            "home.chart.weights",
        )
        st.markdown(
            t(
                "home.example.output",
                output=fmt(result.output[0, 0]),
                best=int(np.argmax(result.weights[:, 0])) + 1,
            )
        )

# The picture in words under the example, which the first screen shows (touch, then read)
st.markdown(t("home.analogy"))
st.latex(
    r"\operatorname{Attention}(\mathbf{q}, \mathcal{D}) = \sum_{i=1}^{m} "
    r"\alpha(\mathbf{q}, \mathbf{k}_i)\, \mathbf{v}_i"
)

with fold(t("home.why.title"), key="home.why") as open_:
    if open_:  # built only once opened
        for part in ("fixed", "concise", "select"):
            st.markdown(t(f"home.why.{part}"))

st.header(t("home.pages.title"))
for listed in PAGES[1:]:  # every page but this one, in menu order
    st.page_link(
        listed.path,
        label=t(f"{listed.name}.menu"),
        icon=listed.icon,
        query_params=link_params(listed.name),
    )
    st.caption(t(f"{listed.name}.summary"))

page_footer("home")  # the address follows the page: a reload or a copied link shows it
