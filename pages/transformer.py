"""Self-attention and multi-head attention: a sentence's tokens attend to each other.

The learner types a short sentence; each token gets an embedding row of X (seeded, editable),
optionally plus sinusoidal positional encodings; Q, K, V are three projections of the same X
(editable W_Q, W_K, W_V); h heads each run scaled dot attention on their own columns, with an
optional causal mask; the heads' outputs are concatenated and mixed by W_O. Every number comes
from `attention_core.multi_head`. Each section is drawn by attention_ui/transformer/view.py;
attention_ui/transformer/state.py declares each setting once (its key, default, values, label).

Keys (for tests and tours): the settings, the example and identity buttons and the grids are
declared in state.py (a grid's widget key is "<state key>.editor.<version>"); the charts are
transformer.chart.head.<n> (.keys<b> for a head's further blocks of keys), .output, .P,
.head<h>.<Q, K or V> and one per step; transformer.export is the export expander.
"""

import streamlit as st

from attention_ui.frame import page_footer, page_header
from attention_ui.transformer import state, teaching, view

page_header("transformer")
state.start()
tokens = view.sentence()
settings = view.settings()
# The heads' weights (the result) right under the sentence and the settings that make them,
# on the first screen; the formula, X, P and the W's that they come from follow.
results_place = st.container()
view.formula()
if tokens.ok:
    entered = view.inputs(tokens.tokens, settings)
    with results_place:
        if entered.problems:
            view.show_problems(entered.problems)
            result = None
        else:
            result = view.engine_run(entered, settings)
        if result is not None:
            view.results(result, tokens.tokens, entered, settings.seed)
    if result is not None:
        view.output(result, tokens.tokens)
        view.steps(result, tokens.tokens)
        teaching.export(
            result,
            tokens.tokens,
            entered.X.values,
            entered.weight_values,
            positions=settings.positions,
            causal=settings.causal,
        )

page_footer("transformer")  # the address follows the page: a reload or a copied link shows it
