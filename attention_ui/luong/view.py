"""The sections of the Luong explorer, in the order pages/luong.py draws them.

Each function draws one part of the page and returns what the next part needs. They live here
rather than in the page script because Streamlit compiles the page script on every run under
AppTest (and once per server otherwise); the page itself stays a short table of contents. The
parts an edit of a grid changes are drawn as fragments by attention_ui/luong/fragments.py, from
the functions here; each reads the grids as they are now (`run_now`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, AttentionResult, Step
from attention_core.attention import SCORES
from attention_core.formatting import fmt
from attention_core.scaling import SMALL_GRADIENT, ScalingDemo, scaling_demo
from attention_ui.kit.figures.charts import chart_numbers, show_chart
from attention_ui.kit.figures.heatmap import DrawnFigure
from attention_ui.kit.folds import fold
from attention_ui.kit.grids.trained import show_trained_note
from attention_ui.kit.grids.trained import trained_note as trained_note_text
from attention_ui.kit.state import settings as draw
from attention_ui.kit.state.page_state import open_tab
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
from attention_ui.kit.text.i18n import current_language, show_error, step_title, t
from attention_ui.luong import compute as numbers
from attention_ui.luong import formulas, state
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
    INPUTS,
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


@dataclass(frozen=True)
class Settings:
    """The settings an edit of a grid does not change, as the session holds them: a fragment
    that an edit reruns is called with them (Streamlit calls it again with what the whole run
    gave it)."""

    preset: str
    score: str
    layout: str
    temperature: float
    mask_kind: str


def settings_now() -> Settings:
    """The settings as the session holds them: drawn above the grids or, for the layout and
    the mask, under the results (Streamlit keeps a widget's value before it is drawn)."""
    return Settings(
        state.PRESET.value(),
        state.SCORE.value(),
        state.LAYOUT.value(),
        float(state.TEMPERATURE.value()),
        state.MASK_KIND.value(),
    )


@dataclass(frozen=True)
class FromTraining:
    """The grids hold numbers the training page sent (`held`: as sent; else edited since):
    the sender's words (task, score) and numbers (step, head, tokens), worded."""

    words: Mapping[str, str]
    held: bool


def trained_note() -> None:
    """What the numbers are, while the grids hold the matrices the training page sent."""
    show_trained_note("luong")


def from_training() -> FromTraining | None:
    """What the training page sent, while the grids hold it or the learner's edits of it. Read
    from kit/grids/trained's note (`Trained.words`, `Trained.numbers`), which lasts until the
    first edit, and kept by `state.from_training` until another example is loaded."""
    held = trained_note_text("luong") is not None
    if held:
        sent = st.session_state.get("luong.trained")  # kit/grids/trained.mark_trained's
        words = dict(getattr(sent, "words", {}))
        state.from_training({"words": words, "numbers": dict(getattr(sent, "numbers", {}))})
    kept = state.from_training()
    if kept is None:
        return None
    words = {name: t(key) for name, key in kept.get("words", {}).items()}
    return FromTraining({**words, **kept.get("numbers", {})}, held)


def preset_label(preset: str) -> str:
    """The example box's label of `preset` as it reads now."""
    return _preset_labels()[preset]


def _preset_labels() -> dict[str, str]:
    """The examples' names; the random one says what the numbers are when they came from the
    training page (trained, at which step; or edited since)."""
    names = labels_of("preset", PRESET_KEYS, ".name")
    sent = from_training()
    if sent is not None:
        step = sent.words.get("step", "?")
        held = t("luong.trained.example", step=step)
        names[RANDOM] = held if sent.held else t("luong.trained.edited_example")
    return names


def labels_of(group: str, options: Iterable[str], suffix: str = "") -> dict[str, str]:
    """Option labels looked up now, in this run's language: Streamlit (and AppTest) may call
    format_func later, outside the run, where the session's language is not known."""
    return {option: t(f"luong.{group}.{option}{suffix}") for option in options}


def settings() -> Settings:
    """Preset (with reset and, for random, the seed), score and temperature at the top, where
    the learner starts; the layout, the mask and the sizes are drawn under the results
    (`lower_settings`: at 1400 × 900 the grids and S, A, O then fit the first screen)."""
    # Rows are wrapping horizontal containers, not st.columns: one block each to send, instead
    # of one per column plus the row.
    row = st.container(horizontal=True, vertical_alignment="bottom")
    names = _preset_labels()
    preset = draw.selectbox(state.PRESET, row, format_func=names.get, on_change=state.choose_preset)
    state.part_shows("example", names[preset])
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
    # The preset's story is drawn with the results (`story`): whether it holds depends on the
    # numbers the engine computes from everything set below.

    # The score on this row, as wide as its longest Japanese name (the article's, 21
    # characters) needs: sharing the row's width it cut "スケールド・ドットプロダクト・…".
    draw.selectbox(state.SCORE, row, on_change=state.keep_dot_sizes, width=360)
    draw.select_slider(state.TEMPERATURE, row, format_func=fmt, width=220)
    return settings_now()


def lower_settings(settings: Settings, sizes: Sizes) -> None:
    """Under the results: the layout and the mask (with the mask's own controls under its
    selector), the sizes and the formula's notes. The page read their values before drawing
    them (`settings_now`, `state.sizes`); changing one reruns the whole page."""
    row = st.container(horizontal=True)
    draw.radio(state.LAYOUT, row, on_change=state.switch_layout)
    draw.selectbox(state.MASK_KIND, row)
    state.settings_drawn()
    mask_controls(settings.mask_kind, sizes, settings.layout)
    size_controls(settings.score)
    formula_panel(settings.score, settings.layout)


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


def inputs_heading(layout: str, switch: Callable[[], bool]) -> bool:
    """The grids' heading, the predict switch (`switch` draws it, saying whether it did) and
    how to read the grids, on one wrapping row: drawn above the grids' st.fragment, since no
    edit in there changes them (two elements fewer to send per edit). The switch comes before
    the sentence so that on a phone it shares the heading's line instead of taking one of its
    own above the grids."""
    row = st.container(horizontal=True, vertical_alignment="center")
    row.header(t("luong.inputs.title"), width="content")
    with row:
        drawn = switch()
    row.caption(t(f"luong.inputs.intro_{layout}"), width=560)
    return drawn


def grid_columns(score: str, sizes: Sizes, layout: str) -> dict[str, Any]:
    """A column for each grid of Q, K, V and of the chosen score's parameters, headed by the
    matrix's name and shape (under `inputs_heading`); the grids go in them
    (luong/fragments.grids)."""
    columns = {}
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
            columns[name] = column
    return columns


def mask_now(settings: Settings, sizes: Sizes) -> np.ndarray | None:
    """The mask in the learner's layout (True = may be attended), or None for no mask: its
    controls are drawn under the results (`mask_controls`), after the page computed with it."""
    kind, layout = settings.mask_kind, settings.layout
    if kind == "causal":
        return in_layout(causal_mask(sizes.m, sizes.n), layout)
    if kind == "padding":
        length = min(int(state.MASK_LENGTH.value()), sizes.m)
        return in_layout(padding_mask(sizes.m, sizes.n, length), layout)
    if kind == "cells":
        return state.mask_cells_now(sizes, layout)
    return None


def mask_controls(kind: str, sizes: Sizes, layout: str) -> None:
    """Under the mask's selector: what the mask hides, its length or its grid of ticks (an
    edit of either reruns the whole page)."""
    if kind == "causal":
        uneven = " " + t("luong.mask.causal_uneven") if sizes.m != sizes.n else ""
        st.caption(t("luong.mask.causal_note") + uneven)
    elif kind == "padding":
        if state.MASK_LENGTH.value() > sizes.m:
            st.session_state[state.MASK_LENGTH.key] = sizes.m  # fewer keys than before
        draw.number_input(state.MASK_LENGTH, max_value=sizes.m)
    elif kind == "cells":
        st.markdown(t("luong.mask.cells_title"))
        state.mask_cells(sizes, layout, help=t("luong.mask.cells_help"))


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


@dataclass(frozen=True)
class Run:
    """The engine's run of the page's inputs (the grids' values, the score, the layout, τ and
    the mask), at these sizes, with the learner's score parameters (None where none is valid:
    `learner_parameters`). `result` is None while a cell is bad (`problems`, one sentence
    each) or the engine refused the inputs (`error`)."""

    result: AttentionResult | None
    inputs: numbers.Inputs
    sizes: Sizes
    given: Mapping[str, np.ndarray | None] | None = None  # the learner's, when known
    problems: Sequence[str] = ()
    error: AttentionInputError | None = None

    @cached_property
    def learner(self) -> Mapping[str, np.ndarray | None]:
        """The learner's score parameters (read when the story or the comparison needs them)."""
        if self.given is not None:
            return self.given
        return learner_parameters(self.inputs.values, self.sizes)


def inputs_now(settings: Settings, sizes: Sizes) -> tuple[numbers.Inputs, list[str]]:
    """What the grids hold now, as the engine's inputs, and every bad cell (one sentence each),
    checked cell by cell."""
    layout = settings.layout
    entered = {
        name: state.entered(name, sizes, layout) for name in (*INPUTS, *PARAMETERS[settings.score])
    }
    problems = [problem for matrix in entered.values() for problem in matrix.problems]
    values = {name: matrix.values for name, matrix in entered.items()}
    mask = mask_now(settings, sizes)
    return numbers.Inputs(values, settings.score, layout, settings.temperature, mask), problems


def run_now(settings: Settings, sizes: Sizes) -> Run:
    """What the grids hold now and the engine's run of it (`compute.run`: once per set of
    inputs, for every session). The whole run and each fragment that an edit reruns call this
    (or `inputs_now`), and read the same run."""
    inputs, problems = inputs_now(settings, sizes)
    if problems:
        return Run(None, inputs, sizes, problems=problems)
    result, error = numbers.run(inputs=inputs)
    return Run(result, inputs, sizes, error=error)


def results_heading(score: str, layout: str, shown: bool) -> None:
    """The results' heading (when they are shown) beside the formula that makes them from the
    grids above: the chosen score for one pair and for whole matrices, and the attention it
    feeds (a wrapping row: on one line on a desktop, one under the other on a phone)."""
    row = st.container(horizontal=True, gap="medium", vertical_alignment="center")
    if shown:
        row.header(t("luong.results.title"), width="content")
    row.latex(formulas.PAIR[score] + r"\qquad " + formulas.MATRIX[(score, layout)], width="content")
    row.latex(formulas.ATTENTION[layout], width="content")


def why_not(run: Run) -> None:
    """Why the engine has no result for what the grids hold: every bad cell, or its error."""
    if run.problems:
        show_problems(list(run.problems))
    if run.error is not None:
        show_error(run.error)


def tabs() -> dict[str, Any]:
    """The three tabs, of which only the open one is drawn (switching tabs reruns the page)."""
    labels = [t(f"luong.tabs.{name}") for name in TAB_NAMES]
    open_tab(state.TAB, state.TAB_INDEX.key, labels)  # by position, whatever the language
    # a callback, not "rerun": a grid's edit sent in the same interaction then reruns the
    # whole page too, not only its fragments (Streamlit's escalation, see st.rerun)
    containers = st.tabs(labels, key=state.TAB, on_change=state.tab_switched)
    return dict(zip(TAB_NAMES, containers, strict=True))


def axis_titles(lang: str | None = None) -> dict[str, str]:
    return {kind: t(f"luong.axis.{kind}", lang) for kind in AXIS_KINDS}


RESULT_NAMES = ("S", "A", "O")


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=numbers.HASHED)
def _figures(*, inputs: numbers.Inputs, lang: str) -> dict[str, DrawnFigure]:
    """S, A and O of `compute.run(inputs)` by step key, in `lang`: built once per set of
    inputs, for every session (read-only, as every DrawnFigure: kit/figures/heatmap.py)."""
    result, _ = numbers.run(inputs=inputs)
    names = {name: t(f"luong.results.{name}", lang) for name in RESULT_NAMES}
    return result_figures(result, axis_titles(lang), names)


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=numbers.HASHED)
def _charts(*, inputs: numbers.Inputs, lang: str) -> dict[str, tuple[DrawnFigure, str]]:
    """S, A and O by name, each with what is written under it (A: each query's weight sum)."""
    result, _ = numbers.run(inputs=inputs)
    if result is None:  # the engine's error: the page says it instead (`why_not`)
        return {}
    figures = _figures(inputs=inputs, lang=lang)
    sums = result.weights.sum(axis=0 if result.layout == "column" else 1)
    line = " · ".join(f"q{j + 1}: {fmt(total)}" for j, total in enumerate(sums))
    under = {"A": t("luong.results.sums", lang, sums=line)}
    return {
        name: (figures[step.key], under.get(name, ""))
        for name, step in result_steps(result).items()
    }


def chart_key(name: str) -> str:
    """The key of the chart of S, A or O (its numbers' fold: charts.numbers_key of it)."""
    return f"luong.chart.{name}"


def result_chart(name: str, inputs: numbers.Inputs) -> None:
    """One of S, A and O (by name) of the engine's run of `inputs`, and under A the sum of
    each query's weights. (Its numbers' fold is the whole run's: fragments.results.)"""
    charts = _charts(inputs=inputs, lang=current_language())
    if name not in charts:
        return
    figure, under = charts[name]
    details = (inputs.score, inputs.layout)
    show_chart(figure, chart_key(name), details=details, table=False)
    if under:
        st.markdown(under)


def result_numbers(name: str, inputs: numbers.Inputs) -> None:
    """The numbers of the chart of S, A or O (by name) as a table."""
    charts = _charts(inputs=inputs, lang=current_language())
    if name in charts:
        chart_numbers(charts[name][0])


def story_text(preset: str, run: Run) -> str:
    """The story under the charts: what the training page's numbers are while the grids hold
    them (or that they were edited), else the example's (`preset_story`)."""
    sent = from_training() if preset == RANDOM else None
    if sent is None:
        return preset_story(preset, run)
    if not sent.held:
        return t("luong.trained.edited")
    words = {"task": "?", "head": "?", "step": "?", "tokens": "?", **sent.words}
    # a two-layer model's last layer reads layer 1's output as well as the embeddings
    key = "luong.trained_layers.why" if words.get("layers") == "2" else "luong.trained.why"
    return t(key, **words)


def story(preset: str, run: Run) -> None:
    """The example's story under the charts it explains, while the numbers bear it out."""
    text = story_text(preset, run)
    st.info(text, icon=":material/lightbulb:")
    state.part_shows("story", text)


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


def steps_tab(run: Run) -> None:
    """Every step of the engine, one at a time: the learner picks the step, and only that
    step's formula, sentence and chart are drawn (and its figure built) on a run."""
    result = run.result
    st.caption(t("luong.steps.intro", count=len(result.steps)))
    step_keys = [step.key for step in result.steps]
    state.open_step(step_keys)  # the radio's value before it is drawn
    names = {
        step.key: f"{number}. {step_title(step)}"
        for number, step in enumerate(result.steps, start=1)
    }
    chosen = draw.radio(state.STEP, options=step_keys, format_func=names.get, horizontal=True)
    lang = current_language()
    figures = _figures(inputs=run.inputs, lang=lang)
    figure = figures.get(chosen) or _step_figure(inputs=run.inputs, key=chosen, lang=lang)
    show_step(
        result,
        step_keys.index(chosen) + 1,
        figure,
        namespace="luong",
        key_prefix="luong.step",
    )
    state.part_shows("step", step_shown(result, chosen))


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=numbers.HASHED)
def _step_figure(*, inputs: numbers.Inputs, key: str, lang: str) -> DrawnFigure:
    """The heatmap of the step `key` of `compute.run(inputs)`, in `lang` (built once)."""
    result, _ = numbers.run(inputs=inputs)
    return step_figure(result.step(key), result.layout, axis_titles(lang))


def step_shown(result: AttentionResult, key: str) -> tuple | None:
    """What the step tab draws of the step `key` of `result` (None: it has no such step): its
    numbers, formula, sentence's numbers and the arithmetic of each entry (its hovers)."""
    try:
        step = result.step(key)
    except KeyError:
        return None
    rows, cols = step.value.shape
    return (
        key,
        step.value.shape,
        step.value.tobytes(),
        step.latex,
        repr(sorted(step.params.items())),
        tuple(step.entry(r, c) for r in range(rows) for c in range(cols)),
    )


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


def compare_tab(run: Run) -> None:
    """Every applicable score on the same inputs, three to a row, then who wins each query."""
    result, sizes = run.result, run.sizes
    st.caption(t("luong.compare.intro"))
    if not sizes.fits_dot():
        st.caption(t("luong.compare.no_dot", d_q=sizes.d_q, d_k=sizes.d_k))
    lang = current_language()
    comparisons = _comparisons(inputs=run.inputs, sizes=sizes, learner=run.learner)
    names = labels_of("score_name", SCORES)
    for start in range(0, len(comparisons), 3):
        for column, comparison in zip(st.columns(3), comparisons[start : start + 3], strict=False):
            with column:
                compared(run, comparison, names, lang)
    st.markdown(t("luong.compare.winners"))
    st.dataframe(winner_table(comparisons, result, names))
    st.caption(t("luong.compare.winners_note", chosen=names[result.score]))


@st.cache_resource(max_entries=16, show_spinner=False, hash_funcs=numbers.HASHED)
def _comparisons(
    *, inputs: numbers.Inputs, sizes: Sizes, learner: Mapping[str, np.ndarray | None]
) -> list[Comparison]:
    """Every applicable score's run on `inputs` (the chosen score's is `compute.run`'s)."""
    return compare_scores(inputs, sizes, learner, chosen=numbers.run(inputs=inputs)[0])


@st.cache_resource(max_entries=64, show_spinner=False, hash_funcs=numbers.HASHED)
def _comparison_figure(
    *,
    inputs: numbers.Inputs,
    sizes: Sizes,
    learner: Mapping[str, np.ndarray | None],
    score: str,
    lang: str,
) -> DrawnFigure:
    """The weights of `score` on `inputs` beside the chosen score's, in `lang` (built once)."""
    comparisons = _comparisons(inputs=inputs, sizes=sizes, learner=learner)
    comparison = next(c for c in comparisons if c.score == score)
    names = {name: t(f"luong.score_name.{name}", lang) for name in SCORES}
    return comparison_figure(comparison, numbers.run(inputs=inputs)[0], axis_titles(lang), names)


def compared(run: Run, comparison: Comparison, names: Mapping[str, str], lang: str) -> None:
    """One score's weights beside the chosen score's: the heatmap, where they differ most, and
    which of its parameters are the defaults."""
    result, chosen = run.result, names[run.result.score]
    if comparison.result is None:
        st.markdown(f"**{names[comparison.score]}**")
        show_error(comparison.error)
        return
    figure = _comparison_figure(
        inputs=run.inputs, sizes=run.sizes, learner=run.learner, score=comparison.score, lang=lang
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


def preset_story(preset: str, run: Run, lang: str | None = None) -> str:
    """The preset's "why" while the numbers still bear it out, else a note that the example
    has been changed (the story's claims are checked by `claims.story_holds`)."""
    params = default_parameters(run.sizes)
    params.update({name: given for name, given in run.learner.items() if given is not None})
    params.update(run.inputs.values)
    if story_holds(preset, run.result, params, run.inputs.mask):
        return t(f"luong.preset.{preset}.why", lang)
    return t("luong.preset.changed", lang, name=t(f"luong.preset.{preset}.name", lang))
