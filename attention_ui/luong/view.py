"""The sections of the Luong explorer, in the order pages/luong.py draws them.

Each function draws one part of the page and returns what the next part needs. They live here
rather than in the page script because Streamlit compiles the page script on every run under
AppTest (and once per server otherwise); the page itself stays a short table of contents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, AttentionResult, Step
from attention_core.attention import SCORES
from attention_core.formatting import fmt
from attention_core.scaling import SMALL_GRADIENT, ScalingDemo, scaling_demo
from attention_ui.kit.figures.charts import TABLE_SUFFIX, show_chart
from attention_ui.kit.figures.heatmap import DrawnFigure, hover_texts
from attention_ui.kit.folds import fold, folded
from attention_ui.kit.grids.matrix_editor import MatrixInput
from attention_ui.kit.state import settings as draw
from attention_ui.kit.state.page_state import drawn, open_tab
from attention_ui.kit.teaching.steps_view import (
    score_hover,
    score_step,
    show_entry_trace,
    show_step,
    step_figure,
    trace_entry,
    weight_hover,
    weight_step,
)
from attention_ui.kit.teaching.task_panel import TaskSlots, panel_frame
from attention_ui.kit.teaching.tasks import Task
from attention_ui.kit.text.i18n import current_language, show_error, step_title, t
from attention_ui.luong import compute as numbers
from attention_ui.luong import formulas, reruns, state
from attention_ui.luong.claims import story_holds
from attention_ui.luong.compare import (
    Comparison,
    compare_scores,
    comparison_figure,
    largest_change,
    winner_table,
)
from attention_ui.luong.model import (
    ALL_PARAMETERS,
    DOT_SCORES,
    PARAMETERS,
    Sizes,
    causal_mask,
    default_parameters,
    engine_parameters,
    in_layout,
    keys,
    labels,
    padding_mask,
    queries,
)
from attention_ui.luong.presets import PRESET_KEYS, RANDOM

MAX_PROBLEMS_SHOWN = 8
AXIS_KINDS = ("key", "query", "dim", "hidden", "sum")
TAB_NAMES = state.TAB_NAMES
T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    preset: str
    score: str
    layout: str
    temperature: float
    mask_kind: str


def labels_of(group: str, options: Iterable[str], suffix: str = "") -> dict[str, str]:
    """Option labels looked up now, in this run's language: Streamlit (and AppTest) may call
    format_func later, outside the run, where the session's language is not known."""
    return {option: t(f"luong.{group}.{option}{suffix}") for option in options}


def settings(more: Any) -> Settings:
    """Preset (with reset and, for random, the seed), score and temperature at the top, where
    the learner starts; layout and mask into `more`, a place under the results (at 1400 × 900
    the grids and S, A, O then fit the first screen)."""
    # Rows are wrapping horizontal containers, not st.columns: one block each to send on every
    # edit instead of one per column plus the row (bench/load.py counts messages per edit).
    row = st.container(horizontal=True, vertical_alignment="bottom")
    preset = draw.selectbox(
        state.PRESET,
        row,
        format_func=labels_of("preset", PRESET_KEYS, ".name").get,
        on_change=state.choose_preset,
    )
    row.button(
        t("luong.reset"),
        key=state.RESET,
        on_click=state.load_preset,
        help=t("luong.reset_help"),
        icon=":material/restart_alt:",
    )
    if preset == RANDOM:
        draw.number_input(state.SEED, row, on_change=state.choose_preset)
        row.button(
            t("luong.redraw"), key=state.REDRAW, on_click=state.redraw, icon=":material/casino:"
        )
    # The preset's story is drawn with the results (`preset_story`): whether it holds depends
    # on the numbers the engine computes from everything set below.

    # The score on this row, as wide as its longest Japanese name (the article's, 21
    # characters) needs: sharing the row's width it cut "スケールド・ドットプロダクト・…".
    score = draw.selectbox(state.SCORE, row, on_change=state.keep_dot_sizes, width=360)
    lower = more.container(horizontal=True)
    layout = draw.radio(state.LAYOUT, lower, on_change=state.switch_layout)
    mask_kind = draw.selectbox(state.MASK_KIND, lower)
    tau = draw.select_slider(state.TEMPERATURE, row, format_func=fmt, width=220)
    state.settings_drawn()
    return Settings(preset, score, layout, float(tau), mask_kind)


def size_controls(score: str) -> Sizes:
    """d_q, d_k, d_v, n, m (and h for concat), 1 to MAX_SIZE; d_q follows d_k for dot scores."""
    st.markdown(f"**{t('luong.sizes.title')}**")
    dot_like = score in DOT_SCORES
    # One wrapping row block, not six columns (seven blocks to send on every edit).
    row = st.container(horizontal=True)
    for name, size in state.SIZES.items():
        if name == "h" and score != "concat":
            continue
        draw.number_input(
            size,
            row,
            disabled=name == "d_q" and dot_like,
            on_change=state.keep_dot_sizes if name == "d_k" else None,
        )
    if dot_like:
        st.caption(t("luong.sizes.dot_equal"))
    return state.sizes()


def results_heading(score: str, layout: str, shown: bool) -> None:
    """The results' heading (when they are shown) beside the formula that makes them from the
    grids above: the chosen score for one pair and for whole matrices, and the attention it
    feeds (a wrapping row: on one line on a desktop, one under the other on a phone)."""
    row = st.container(horizontal=True, gap="medium", vertical_alignment="center")
    if shown:
        row.header(t("luong.results.title"), width="content")
    row.latex(formulas.PAIR[score] + r"\qquad " + formulas.MATRIX[(score, layout)], width="content")
    row.latex(formulas.ATTENTION[layout], width="content")


def formula_panel(score: str, layout: str) -> None:
    """The notes learners trip on (Luong's query-first general score, d2l's additive form),
    the scaling demo, and the layouts' transpose relation, folded: the formula itself is on
    results' heading (`results_heading`)."""
    title = t("luong.formula.title", score=t(f"luong.score_name.{score}"))
    with fold(title, key=state.FORMULA_BOX) as open_:
        if not open_:  # built only once opened
            return
        if score == "general":
            st.caption(t("luong.formula.general_note"))
            st.latex(formulas.LUONG_GENERAL)
        elif score == "concat":
            st.caption(t("luong.formula.concat_note"))
            st.latex(formulas.D2L_ADDITIVE)
        elif score == "location":
            st.caption(t("luong.formula.location_note"))
        elif score == "scaled_dot":
            scaling_demo_panel()
        st.caption(t(f"luong.formula.layout_{layout}"))
        st.latex(formulas.LAYOUT_RELATION)


def scaling_demo_panel() -> None:
    """The argument for 1/√d_k, seen on random vectors the learner draws."""
    st.caption(t("luong.scaling.why"))
    size, seed = st.columns(2)
    d_k = draw.number_input(state.SCALING_D_K, size)
    chosen_seed = draw.number_input(state.SCALING_SEED, seed)
    try:
        demo = scaling_demo(int(d_k), int(chosen_seed))
    except AttentionInputError as error:
        show_error(error)
        return
    st.markdown(scaling_demo_text(demo))
    st.markdown(scaling_gradient_text(demo))


def scaling_demo_text(demo: ScalingDemo, lang: str | None = None) -> str:
    """The demo's numbers in a sentence; the claim is only the measured numbers."""
    return t(
        "luong.scaling.result",
        lang,
        n=demo.queries,
        m=demo.keys,
        d_k=demo.d_k,
        std=fmt(demo.std_unscaled),
        root=fmt(np.sqrt(demo.d_k)),
        std_scaled=fmt(demo.std_scaled),
        top=fmt(demo.top_weight_unscaled),
        top_scaled=fmt(demo.top_weight_scaled),
    )


def scaling_gradient_text(demo: ScalingDemo, lang: str | None = None) -> str:
    """‖∂o/∂q‖ with and without the scaling, the engine's measured numbers in a sentence."""
    return t(
        "luong.scaling.gradient",
        lang,
        grad=fmt(demo.gradient_unscaled, 3),
        grad_scaled=fmt(demo.gradient_scaled, 3),
        small=fmt(SMALL_GRADIENT),
        share=f"{fmt(100 * demo.small_unscaled, 3)} %",
        share_scaled=f"{fmt(100 * demo.small_scaled, 3)} %",
    )


def inputs_heading(layout: str) -> Any:
    """The grids' heading and how to read them, on one row that it returns (the predict switch
    goes at its end): drawn above the grids' st.fragment, since no edit in there changes them
    (two elements fewer to send per edit)."""
    row = st.container(horizontal=True, vertical_alignment="center")
    row.header(t("luong.inputs.title"), width="content")
    row.caption(t(f"luong.inputs.intro_{layout}"), width=560)
    return row


def grid_places(score: str, sizes: Sizes, layout: str) -> dict[str, Any]:
    """A column for each grid of Q, K, V and of the chosen score's parameters, headed by the
    matrix's name and shape (under `inputs_heading`). Drawn by the whole run: the grids'
    fragment writes only the grids into them (`input_grids`), so an edit does not re-send
    the columns and their headings."""
    places = {}
    width = {name: len(labels(name, sizes, layout)[1]) + 1 for name in ("Q", "K", "V")}
    total = sum(width.values())
    for row in (("Q", "K", "V"), PARAMETERS[score]):
        if not row:
            continue
        # Each grid as wide as its columns need (W_a of concat has d_q + d_k of them); a
        # spacer keeps a lone small parameter from stretching across the page.
        widths = [width.get(name, len(labels(name, sizes, layout)[1]) + 1) for name in row]
        spacer = [max(total - sum(widths), 0)] if sum(widths) < total else []
        for column, name in zip(st.columns(widths + spacer), row, strict=False):
            rows, cols = labels(name, sizes, layout)
            column.markdown(t(f"luong.inputs.{name}", rows=len(rows), cols=len(cols)))
            places[name] = column
    return places


def _grid(name: str, sizes: Sizes, layout: str) -> None:
    state.matrix(
        name, sizes, layout, help=t(f"luong.inputs.{name}_help"), after_edit=reruns.after_edit
    )


# Each grid a fragment of its own: an edit of Q reruns Q's grid and the results, not K's and
# V's (their draws were a third of an edit's work each; reruns.after_edit names the fragments).
_GRID_FRAGMENTS = {name: st.fragment(key=reruns.grid_key(name))(_grid) for name in reruns.GRIDS}


def input_grids(places: Mapping[str, Any], sizes: Sizes, layout: str) -> None:
    """The grids, each in its place of `grid_places` (drawn by the whole run)."""
    for name, place in places.items():
        with place:
            _GRID_FRAGMENTS[name](name, sizes, layout)


def entered_grids(places: Mapping[str, Any], sizes: Sizes, layout: str) -> dict[str, MatrixInput]:
    """What the grids of `places` hold, edits included, checked cell by cell."""
    return {name: state.entered(name, sizes, layout) for name in places}


def mask_input(kind: str, sizes: Sizes, layout: str) -> np.ndarray | None:
    """The mask in the learner's layout (True = may be attended), or None for no mask."""
    if kind == "causal":
        uneven = " " + t("luong.mask.causal_uneven") if sizes.m != sizes.n else ""
        st.caption(t("luong.mask.causal_note") + uneven)
        return in_layout(causal_mask(sizes.m, sizes.n), layout)
    if kind == "padding":
        if state.MASK_LENGTH.value() > sizes.m:
            st.session_state[state.MASK_LENGTH.key] = sizes.m  # fewer keys than before
        length = draw.number_input(
            state.MASK_LENGTH, max_value=sizes.m, on_change=reruns.follow_edit, args=("mask",)
        )
        return in_layout(padding_mask(sizes.m, sizes.n, int(length)), layout)
    if kind == "cells":
        st.markdown(t("luong.mask.cells_title"))
        return state.mask_cells(
            sizes, layout, help=t("luong.mask.cells_help"), after_edit=reruns.after_edit
        )
    return None


def show_problems(problems: list[str]) -> None:
    """Every bad cell, named by matrix and cell (the first few, then how many more)."""
    shown = "\n".join(f"- {problem}" for problem in problems[:MAX_PROBLEMS_SHOWN])
    more = len(problems) - MAX_PROBLEMS_SHOWN
    if more > 0:
        shown += f"\n- {t('luong.problems.more', count=more)}"
    st.error(t("luong.problems.title") + "\n\n" + shown, icon=":material/error:")


def learner_parameters(
    values: Mapping[str, np.ndarray], sizes: Sizes
) -> dict[str, np.ndarray | None]:
    """Every score parameter as the learner left it (the grid on screen, else the hidden one),
    for the comparison of score functions."""
    return {
        name: values[name] if name in values else state.learner_parameter(name, sizes)
        for name in ALL_PARAMETERS
    }


def fingerprint(inputs: numbers.Inputs, learner: Mapping[str, np.ndarray | None]) -> tuple:
    """Everything the result and its figures depend on (the language too: titles, hovers)."""

    def arrays(named: Mapping[str, np.ndarray | None]) -> tuple:
        return tuple(
            (name, None if a is None else (a.shape, a.tobytes()))
            for name, a in sorted(named.items())
        )

    mask = inputs.mask
    return (
        inputs.score,
        inputs.layout,
        inputs.temperature,
        current_language(),
        arrays(inputs.values),
        arrays(learner),
        None if mask is None else (mask.shape, mask.tobytes()),
    )


def memo(cache: dict, key: Any, build: Callable[[], T]) -> T:
    """`build()` once per set of inputs (see state.run_cache)."""
    if key not in cache:
        cache[key] = build()
    return cache[key]


def compute(
    cache: dict, inputs: numbers.Inputs
) -> tuple[AttentionResult | None, AttentionInputError | None]:
    """The one engine run every chart and table reads, or the engine's error."""

    def run() -> tuple[AttentionResult | None, AttentionInputError | None]:
        try:
            return numbers.compute(inputs), None
        except AttentionInputError as error:
            return None, error

    return memo(cache, "outcome", run)


@dataclass(frozen=True)
class Run:
    """The engine's run of the page's inputs (the grids' values, the score, the layout, τ and
    the mask), at these sizes, with the learner's score parameters (None where none is valid:
    `learner_parameters`) and the cache of what is built from them (`state.run_cache`)."""

    result: AttentionResult
    inputs: numbers.Inputs
    sizes: Sizes
    learner: Mapping[str, np.ndarray | None]
    cache: dict


def tabs() -> dict[str, Any]:
    """The three tabs, of which only the open one is drawn (switching tabs reruns the page)."""
    labels = [t(f"luong.tabs.{name}") for name in TAB_NAMES]
    open_tab(state.TAB, state.TAB_INDEX.key, labels)  # by position, whatever the language
    # a callback, not "rerun": a grid's edit sent in the same interaction then reruns the
    # whole page too, not only its fragments (attention_ui/luong/reruns.py)
    containers = st.tabs(labels, key=state.TAB, on_change=state.tab_switched)
    return dict(zip(TAB_NAMES, containers, strict=True))


@dataclass(frozen=True)
class Below:
    """What the whole run draws under the grids' fragment, for the fragment to write into:
    the tabs (none while the results are hidden) and the task panel's placeholders."""

    shown: bool
    tabs: dict[str, Any]
    tasks: TaskSlots


def below_results(shown: bool, tasks: Sequence[Task]) -> Below:
    """The tabs, when the last run showed the results (`shown`), and the task panel's frame:
    no edit changes them, so the whole run draws them and the fragment fills in the open tab
    and the verdicts (an edit then sends neither the tabs nor the panel again)."""
    return Below(shown, tabs() if shown else {}, panel_frame(tasks))


def axis_titles() -> dict[str, str]:
    return {kind: t(f"luong.axis.{kind}") for kind in AXIS_KINDS}


RESULT_NAMES = ("S", "A", "O")


@dataclass(frozen=True)
class ResultsFrame:
    """What the whole run draws of S, A and O under the grids' fragment, for the fragment to
    write into: a place for each chart (by name, "S", "A", "O"), each chart's "numbers as a
    table" expander, the weight sums as drawn (`sums`, one printed number per query) and a
    place for the example's story under them."""

    charts: dict[str, Any]
    tables: dict[str, Any]
    sums: tuple[str, ...]
    story: Any


def results_frame(sizes: Sizes) -> ResultsFrame:
    """The results' three columns, each chart's table expander and the weight sums under A
    (their heading is `results_heading`'s): no edit changes them, so the whole run draws them
    and the grids' fragment writes only the charts (and an open expander's table) into them;
    an edit then does not send the columns, the expanders and the sums again
    (tests/pages/luong/test_edit_messages.py). The sums are drawn as the fragment last measured
    them, or as 1 for each query before it has; the fragment reruns the page when it measures
    other ones."""
    charts, tables = {}, {}
    columns = st.columns(3)
    for column, name in zip(columns, RESULT_NAMES, strict=True):
        with column:
            charts[name] = st.empty()
            # as kit/figures/charts.show_chart draws it, which `results` hands it to (_Placed)
            tables[name] = folded(
                t("figures.table.label"), key=f"luong.chart.{name}{TABLE_SUFFIX}", compact=True
            ).box
    measured = state.sums_measured()
    sums = measured if measured and len(measured) == sizes.n else (fmt(1.0),) * sizes.n
    columns[1].markdown(
        t("luong.results.sums", sums=" · ".join(f"q{j + 1}: {s}" for j, s in enumerate(sums)))
    )
    return ResultsFrame(charts, tables, sums, st.container())


class _Placed:
    """show_chart's `container` for a chart whose place and table expander the whole run drew
    (`results_frame`): the chart goes into its place, the table (while open) into that
    expander, so the chart's text alternative and table stay show_chart's."""

    def __init__(self, place: Any, table: Any) -> None:
        self._place, self._table = place, table

    def __getattr__(self, name: str) -> Any:  # the chart itself: into its place
        return getattr(self._place, name)

    def expander(self, *_args: Any, **_kwargs: Any) -> Any:
        return self._table

    def __enter__(self) -> Any:  # `with`: the chart itself, into its place
        return self._place.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self._place.__exit__(*exc)


def results(
    result: AttentionResult, titles: Mapping[str, str], cache: dict, frame: ResultsFrame
) -> dict[str, DrawnFigure]:
    """S, A and O into the places of `results_frame`; returns the figures by step key so that
    the steps tab draws them without building them again. When the weight sums differ from
    the line the frame drew, the page reruns with the measured ones."""
    layout = result.layout
    sums = tuple(map(fmt, result.weights.sum(axis=0 if layout == "column" else 1)))
    if sums != frame.sums:
        state.sums_measured(sums)
        st.rerun()
    names = {name: t(f"luong.results.{name}") for name in RESULT_NAMES}
    figures = memo(cache, "results", lambda: result_figures(result, titles, names))
    for name, step in result_steps(result).items():
        show_chart(
            figures[step.key],
            f"luong.chart.{name}",
            details=(result.score, layout),
            container=_Placed(frame.charts[name], frame.tables[name]),
        )
    return figures


def result_figures(
    result: AttentionResult, titles: Mapping[str, str], names: Mapping[str, str]
) -> dict[str, DrawnFigure]:
    """S, A and O as heatmaps by step key; `titles` word the axes' kinds and `names` has the
    three charts' titles ("S", "A", "O" → the learner's words)."""
    hovers = {"S": score_hover(result), "A": weight_hover(result)}  # O: the engine's arithmetic
    return {
        step.key: step_figure(
            step, result.layout, titles, title=names[name], hover=hovers.get(name)
        )
        for name, step in result_steps(result).items()
    }


def result_steps(result: AttentionResult) -> dict[str, Step]:
    """The engine's steps the three charts show, by chart ("S", "A", "O")."""
    return {"S": score_step(result), "A": weight_step(result), "O": result.step("output")}


def steps_tab(
    result: AttentionResult,
    titles: Mapping[str, str],
    figures: Mapping[str, DrawnFigure],
    cache: dict,
) -> None:
    """Every step of the engine, one at a time: the learner picks the step, and only that
    step's formula, sentence and chart are drawn (and its figure built) on a run."""
    st.caption(t("luong.steps.intro", count=len(result.steps)))
    step_keys = [step.key for step in result.steps]
    state.open_step(step_keys)  # the radio's value before it is drawn
    names = {
        step.key: f"{number}. {step_title(step)}"
        for number, step in enumerate(result.steps, start=1)
    }
    chosen = draw.radio(state.STEP, options=step_keys, format_func=names.get, horizontal=True)
    drawn(state.STEP.key)  # for the step picked next (fragments.steps_tab)
    step = result.step(chosen)
    figure = figures.get(chosen) or open_step_figure(step, result.layout, titles)
    show_step(
        result,
        step_keys.index(chosen) + 1,
        figure,
        namespace="luong",
        key_prefix="luong.step",
    )


def open_step_figure(step: Step, layout: str, titles: Mapping[str, str]) -> DrawnFigure:
    """The open step's heatmap, the same figure as long as what it shows is the same: its
    spec and text alternative are then not made again (kit/figures/heatmap.DrawnFigure)."""
    hover = hover_texts(step.value.shape, step.entry)
    content = (
        step.key,
        layout,
        tuple(titles.items()),
        step.value.shape,
        step.value.dtype.str,
        step.value.tobytes(),
        tuple(map(tuple, hover)),
    )
    return state.kept_figure(content, lambda: step_figure(step, layout, titles, hover=hover))


def follow_tab(run: Run) -> None:
    """Pick a key and a query; follow that one score to its weight and its share of O."""
    result, values, sizes = run.result, run.inputs.values, run.sizes
    st.caption(t("luong.follow.intro"))
    for setting, count in ((state.FOLLOW_KEY, sizes.m), (state.FOLLOW_QUERY, sizes.n)):
        if setting.value() >= count:
            st.session_state[setting.key] = 0  # the grid shrank under the choice
    key_col, query_col = st.columns(2)
    key_names, query_names = keys(sizes.m), queries(sizes.n)
    i = draw.selectbox(
        state.FOLLOW_KEY, key_col, options=range(sizes.m), format_func=key_names.__getitem__
    )
    j = draw.selectbox(
        state.FOLLOW_QUERY, query_col, options=range(sizes.n), format_func=query_names.__getitem__
    )
    params = engine_parameters(result.score, values)
    show_entry_trace(
        trace_entry(result, values["Q"], values["V"], i, j, params),
        namespace="luong",
    )


def compare_tab(run: Run, titles: Mapping[str, str]) -> None:
    """Every applicable score on the same inputs, three to a row, then who wins each query."""
    result, sizes = run.result, run.sizes
    st.caption(t("luong.compare.intro"))
    if not sizes.fits_dot():
        st.caption(t("luong.compare.no_dot", d_q=sizes.d_q, d_k=sizes.d_k))
    comparisons = memo(
        run.cache,
        "comparisons",
        lambda: compare_scores(run.inputs, sizes, run.learner, chosen=result),
    )
    names = labels_of("score_name", SCORES)
    for start in range(0, len(comparisons), 3):
        for column, comparison in zip(st.columns(3), comparisons[start : start + 3], strict=False):
            with column:
                compared(run, comparison, names, titles)
    st.markdown(t("luong.compare.winners"))
    st.dataframe(memo(run.cache, "winners", lambda: winner_table(comparisons, result, names)))
    st.caption(t("luong.compare.winners_note", chosen=names[result.score]))


def compared(
    run: Run, comparison: Comparison, names: Mapping[str, str], titles: Mapping[str, str]
) -> None:
    """One score's weights beside the chosen score's: the heatmap, where they differ most, and
    which of its parameters are the defaults."""
    result, chosen = run.result, names[run.result.score]
    if comparison.result is None:
        st.markdown(f"**{names[comparison.score]}**")
        show_error(comparison.error)
        return
    figure = memo(
        run.cache,
        ("compare", comparison.score),
        lambda: comparison_figure(comparison, result, titles, names),
    )
    show_chart(figure, f"luong.compare.{comparison.score}", details=(result.layout,))
    delta, r, c = largest_change(comparison.result.weights, result.weights)
    rows, cols = labels("mask", run.sizes, result.layout)  # shaped like the weights
    if comparison.score == result.score:
        st.caption(t("luong.compare.chosen"))
    elif abs(delta) < 5e-4:
        st.caption(t("luong.compare.same", chosen=chosen))
    else:
        st.caption(
            t("luong.compare.largest", delta=fmt(delta), row=rows[r], col=cols[c], chosen=chosen)
        )
    for parameter in comparison.defaults:
        st.caption(t(f"luong.compare.default_{parameter}"))


def settings_above() -> tuple:
    """The values of the settings drawn above the grids, as the session holds them now."""
    return tuple(st.session_state.get(s.key) for s in state.ABOVE_THE_GRIDS)


def preset_story(preset: str, run: Run, lang: str | None = None) -> str:
    """The preset's "why" while the numbers still bear it out, else a note that the example
    has been changed (the story's claims are checked by `claims.story_holds`)."""
    params = default_parameters(run.sizes)
    params.update({name: given for name, given in run.learner.items() if given is not None})
    params.update(run.inputs.values)
    if story_holds(preset, run.result, params, run.inputs.mask):
        return t(f"luong.preset.{preset}.why", lang)
    return t("luong.preset.changed", lang, name=t(f"luong.preset.{preset}.name", lang))
