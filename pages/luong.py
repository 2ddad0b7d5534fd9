"""Luong explorer: edit Q, K, V (and W, W_a, v_a) and see every step of attention, live.

Top to bottom: a preset (each tells one story) or a seeded random fill; the score function,
layout, temperature and mask; the sizes; the chosen score's formula; the grids; then S, A, O
as heatmaps and three tabs: every step of the engine, one entry followed through all of them,
and all applicable score functions side by side. Every number comes from `attention_core`.

Widget keys (for tests and tours)
---------------------------------
luong.preset           selectbox of presets (loads on change); luong.reset reloads it
luong.seed, luong.redraw   the random preset's seed (number input) and "next seed" button
luong.score            selectbox: dot, scaled_dot, general, concat, location
luong.layout           radio: column (one query per column) or row (one query per row)
luong.tau              select_slider of temperatures from 0.05 to 20
luong.mask.kind        selectbox: none, causal, padding, cells; luong.mask.length (padding L)
luong.size.<s>         number inputs for s in d_q, d_k, d_v, n, m, h (h: concat only)
luong.follow.key, luong.follow.query   the pair followed in the "follow one entry" tab
Grids: state key luong.<M> for M in Q, K, V, W, Wa_concat, va, Wa_location, and
luong.mask.cells for the per-cell mask; each grid's widget key is
"<state key>.editor.<version>" with the version in session_state["<state key>.version"].
In column layout Q's columns are q1…qn and its rows 1…d_q; in row layout the reverse.
"""

import streamlit as st

from attention_core import LAYOUTS, SCORES, AttentionInputError, attention, fmt
from attention_ui.frame import page_header, show_error
from attention_ui.i18n import t
from attention_ui.luong import formulas, state
from attention_ui.luong.compare import (
    compare_scores,
    comparison_figure,
    largest_change,
    winner_table,
)
from attention_ui.luong.model import (
    DOT_SCORES,
    MASK_KINDS,
    MAX_SIZE,
    PARAMETERS,
    TEMPERATURES,
    causal_mask,
    engine_parameters,
    in_layout,
    keys,
    labels,
    padding_mask,
    queries,
)
from attention_ui.luong.presets import PRESET_KEYS, RANDOM
from attention_ui.steps_view import (
    score_hover,
    score_step,
    show_entry_trace,
    show_steps,
    step_figure,
    trace_entry,
    weight_hover,
    weight_step,
)

MAX_PROBLEMS_SHOWN = 8


def labels_of(group: str, options, suffix: str = "") -> dict:
    """Option labels looked up now, in this run's language: Streamlit (and AppTest) may call
    format_func later, outside the run, where the session's language is not known."""
    return {option: t(f"luong.{group}.{option}{suffix}") for option in options}


page_header("luong")
state.restore()

# --- Preset, settings, sizes ------------------------------------------------------------------
preset_col, reset_col, seed_col = st.columns([3, 1, 2], vertical_alignment="bottom")
preset = preset_col.selectbox(t("luong.preset.label"), PRESET_KEYS, key=state.PRESET,
                              format_func=labels_of("preset", PRESET_KEYS, ".name").get,
                              on_change=state.load_preset)
reset_col.button(t("luong.reset"), key=state.RESET, on_click=state.load_preset,
                 help=t("luong.reset_help"), icon=":material/restart_alt:")
if preset == RANDOM:
    seed_col.number_input(t("luong.seed"), min_value=0, max_value=2**31 - 1, step=1,
                          key=state.SEED, on_change=state.load_preset, help=t("luong.seed_help"))
    seed_col.button(t("luong.redraw"), key=state.REDRAW, on_click=state.redraw,
                    icon=":material/casino:")
st.info(t(f"luong.preset.{preset}.why"), icon=":material/lightbulb:")

score_col, layout_col, tau_col, mask_col = st.columns([2, 2, 3, 2])
score = score_col.selectbox(t("luong.score.label"), SCORES, key=state.SCORE,
                            format_func=labels_of("score_name", SCORES).get,
                            on_change=state.keep_dot_sizes, help=t("luong.score.help"))
layout = layout_col.radio(t("luong.layout.label"), LAYOUTS, key=state.LAYOUT,
                          format_func=labels_of("layout", LAYOUTS).get,
                          on_change=state.switch_layout, help=t("luong.layout.help"))
tau = tau_col.select_slider(t("luong.tau.label"), TEMPERATURES, key=state.TEMPERATURE,
                            format_func=fmt, help=t("luong.tau.help"))
mask_kind = mask_col.selectbox(t("luong.mask.label"), MASK_KINDS, key=state.MASK_KIND,
                               format_func=labels_of("mask.kind", MASK_KINDS).get,
                               help=t("luong.mask.help"))

st.markdown(f"**{t('luong.sizes.title')}**")
size_cols = st.columns(6)
dot_like = score in DOT_SCORES
for column, name in zip(size_cols, state.SIZE_KEYS, strict=True):
    if name == "h" and score != "concat":
        continue
    column.number_input(t(f"luong.sizes.{name}"), min_value=1, max_value=MAX_SIZE, step=1,
                        key=state.SIZE_KEYS[name], help=t(f"luong.sizes.{name}_help"),
                        disabled=name == "d_q" and dot_like,
                        on_change=state.keep_dot_sizes if name == "d_k" else None)
sizes = state.sizes()
if dot_like:
    st.caption(t("luong.sizes.dot_equal"))

# --- The formula ------------------------------------------------------------------------------
with st.expander(t("luong.formula.title", score=t(f"luong.score_name.{score}")), expanded=True):
    st.latex(formulas.PAIR[score] + r"\qquad " + formulas.MATRIX[(score, layout)])
    st.latex(formulas.ATTENTION[layout])
    if score == "general":
        st.caption(t("luong.formula.general_note"))
        st.latex(formulas.LUONG_GENERAL)
    elif score == "concat":
        st.caption(t("luong.formula.concat_note"))
        st.latex(formulas.D2L_ADDITIVE)
    elif score == "location":
        st.caption(t("luong.formula.location_note"))
    st.caption(t(f"luong.formula.layout_{layout}"))
    st.latex(formulas.LAYOUT_RELATION)

# --- The grids --------------------------------------------------------------------------------
st.subheader(t("luong.inputs.title"))
st.caption(t(f"luong.inputs.intro_{layout}"))
grid_cols = st.columns(3)
entered = {}
for column, name in zip(grid_cols, ("Q", "K", "V"), strict=True):
    with column:
        st.markdown(t(f"luong.inputs.{name}", rows=len(labels(name, sizes, layout)[0]),
                      cols=len(labels(name, sizes, layout)[1])))
        entered[name] = state.matrix(name, sizes, layout, help=t(f"luong.inputs.{name}_help"))
if PARAMETERS[score]:
    param_cols = st.columns(len(PARAMETERS[score]))
    for column, name in zip(param_cols, PARAMETERS[score], strict=True):
        with column:
            rows, cols = labels(name, sizes, layout)
            st.markdown(t(f"luong.inputs.{name}", rows=len(rows), cols=len(cols)))
            entered[name] = state.matrix(name, sizes, layout, help=t(f"luong.inputs.{name}_help"))

mask = None
if mask_kind == "causal":
    mask = in_layout(causal_mask(sizes.m, sizes.n), layout)
    st.caption(t("luong.mask.causal_note") + (" " + t("luong.mask.causal_uneven")
                                              if sizes.m != sizes.n else ""))
elif mask_kind == "padding":
    if st.session_state.get(state.MASK_LENGTH, 1) > sizes.m:
        st.session_state[state.MASK_LENGTH] = sizes.m
    length = st.number_input(t("luong.mask.length"), min_value=1, max_value=sizes.m, step=1,
                             key=state.MASK_LENGTH, help=t("luong.mask.length_help"))
    mask = in_layout(padding_mask(sizes.m, sizes.n, int(length)), layout)
elif mask_kind == "cells":
    st.markdown(t("luong.mask.cells_title"))
    mask_rows, mask_cols = labels("mask", sizes, layout)
    mask = state.mask_cells(sizes, layout, mask_rows, mask_cols, help=t("luong.mask.cells_help"))

# --- Compute once -----------------------------------------------------------------------------
problems = [problem for matrix in entered.values() for problem in matrix.problems]
result = None
if problems:
    shown = "\n".join(f"- {problem}" for problem in problems[:MAX_PROBLEMS_SHOWN])
    more = len(problems) - MAX_PROBLEMS_SHOWN
    st.error(t("luong.problems.title") + "\n\n" + shown
             + (f"\n- {t('luong.problems.more', count=more)}" if more > 0 else ""), icon="⚠️")
else:
    values = {name: matrix.values for name, matrix in entered.items()}
    try:
        result = attention(values["Q"], values["K"], values["V"], score, temperature=tau,
                           mask=mask, layout=layout, **engine_parameters(score, values))
    except AttentionInputError as error:
        show_error(error)

if result is not None:
    titles = {kind: t(f"luong.axis.{kind}") for kind in ("key", "query", "dim", "hidden", "sum")}
    s_step, a_step, o_step = score_step(result), weight_step(result), result.step("output")
    # Built once, drawn both here and in the steps tab.
    figures = {
        s_step.key: step_figure(s_step, layout, titles, title=t("luong.results.S"),
                                hover=score_hover(result)),
        a_step.key: step_figure(a_step, layout, titles, title=t("luong.results.A"),
                                hover=weight_hover(result)),
        o_step.key: step_figure(o_step, layout, titles, title=t("luong.results.O")),
    }
    st.subheader(t("luong.results.title"))
    s_col, a_col, o_col = st.columns(3)
    s_col.plotly_chart(figures[s_step.key], key="luong.chart.S")
    a_col.plotly_chart(figures[a_step.key], key="luong.chart.A")
    o_col.plotly_chart(figures[o_step.key], key="luong.chart.O")
    sums = result.weights.sum(axis=0 if layout == "column" else 1)
    a_col.markdown(t("luong.results.sums", sums=" · ".join(
        f"q{j + 1}: {fmt(total)}" for j, total in enumerate(sums))))

    steps_tab, follow_tab, compare_tab = st.tabs(
        [t("luong.tabs.steps"), t("luong.tabs.follow"), t("luong.tabs.compare")])

    with steps_tab:
        st.caption(t("luong.steps.intro", count=len(result.steps)))
        show_steps(result, titles, namespace="luong", key_prefix="luong.step", figures=figures)

    with follow_tab:
        st.caption(t("luong.follow.intro"))
        for key, count in ((state.FOLLOW_KEY, sizes.m), (state.FOLLOW_QUERY, sizes.n)):
            if st.session_state.get(key, 0) >= count:
                st.session_state[key] = 0
        key_col, query_col = st.columns(2)
        i = key_col.selectbox(t("luong.follow.key"), range(sizes.m), key=state.FOLLOW_KEY,
                              format_func=lambda i: keys(sizes.m)[i])
        j = query_col.selectbox(t("luong.follow.query"), range(sizes.n), key=state.FOLLOW_QUERY,
                                format_func=lambda j: queries(sizes.n)[j])
        params = engine_parameters(score, values)
        show_entry_trace(trace_entry(result, values["Q"], values["V"], i, j,
                                     va=params.get("va"), Wa=params.get("Wa")),
                         namespace="luong")

    with compare_tab:
        st.caption(t("luong.compare.intro"))
        if not sizes.fits_dot():
            st.caption(t("luong.compare.no_dot", d_q=sizes.d_q, d_k=sizes.d_k))
        learner = {name: (values[name] if name in values else state.learner_parameter(name, sizes))
                   for name in ("W", "Wa_concat", "va", "Wa_location")}
        comparisons = compare_scores(values["Q"], values["K"], values["V"], sizes, learner,
                                     temperature=tau, mask=mask, layout=layout, chosen=result)
        names = {name: t(f"luong.score_name.{name}") for name in SCORES}
        for start in range(0, len(comparisons), 3):
            for column, comparison in zip(st.columns(3), comparisons[start:start + 3],
                                          strict=False):
                with column:
                    if comparison.result is None:
                        st.markdown(f"**{names[comparison.score]}**")
                        show_error(comparison.error)
                        continue
                    is_chosen = comparison.score == score
                    weights = comparison.result.weights
                    st.plotly_chart(comparison_figure(
                        weights, result.weights, layout, titles, name=names[comparison.score],
                        reference_name=names[score],
                        title=names[comparison.score] + (" ◀" if is_chosen else "")),
                        key=f"luong.compare.{comparison.score}")
                    delta, r, c = largest_change(weights, result.weights)
                    row_names, col_names = labels("mask", sizes, layout)  # shaped like A
                    if is_chosen:
                        st.caption(t("luong.compare.chosen"))
                    elif abs(delta) < 5e-4:
                        st.caption(t("luong.compare.same", chosen=names[score]))
                    else:
                        st.caption(t("luong.compare.largest", delta=fmt(delta, 3),
                                     row=row_names[r], col=col_names[c], chosen=names[score]))
                    for parameter in comparison.defaults:
                        st.caption(t(f"luong.compare.default_{parameter}"))
        st.markdown(t("luong.compare.winners"))
        st.dataframe(winner_table(comparisons, result, names))
        st.caption(t("luong.compare.winners_note", chosen=names[score]))

state.remember()
