"""The sections of the self-attention and multi-head page, in the order pages/transformer.py
draws them. Each draws one part and returns what the next part needs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention_core import AttentionInputError, MultiHeadResult, attention
from attention_core.formatting import fmt
from attention_core.multi_head import positional_encoding, positional_encoding_entry
from attention_ui.kit.figures.blocks import colour_bar_below
from attention_ui.kit.figures.charts import show_chart
from attention_ui.kit.figures.heatmap import hover_texts
from attention_ui.kit.grids.matrix_editor import MatrixInput, matrix_editor
from attention_ui.kit.grids.trained import trained_caption, trained_note
from attention_ui.kit.state import settings as draw
from attention_ui.kit.teaching.steps_view import show_steps
from attention_ui.kit.text.i18n import show_error, t
from attention_ui.kit.text.markdown import escape_markdown, stacked
from attention_ui.transformer import compute as page_compute
from attention_ui.transformer import state
from attention_ui.transformer.figures import (
    head_figures,
    key_blocks,
    matrix_figure,
    step_blocks,
    step_figure,
)
from attention_ui.transformer.model import (
    PROJECTIONS,
    Tokens,
    divisors,
    projections,
    split_sentence,
    token_labels,
)

AXIS_KINDS = ("query", "key", "dim", "sum")
# P with the page's own indices: rows i = 1 … n (position i − 1), columns 1 … d_model as the
# grid labels them, so column 2c + 1 holds the sine and column 2c + 2 the cosine.
# One line each (in half the page's width at 1400 px the one-line form was clipped).
POSITION_FORMULA = stacked(
    r"p_{i,\,2c+1} = \sin\frac{i-1}{10000^{2c/d_{\text{model}}}},",
    r"p_{i,\,2c+2} = \cos\frac{i-1}{10000^{2c/d_{\text{model}}}},",
    r"c = 0, 1, \ldots",
)
MAX_PROBLEMS_SHOWN = 8


@dataclass(frozen=True)
class Settings:
    d_model: int
    heads: int
    seed: int
    positions: bool
    causal: bool


@dataclass(frozen=True)
class Inputs:
    X: MatrixInput
    weights: dict[str, MatrixInput]

    @property
    def problems(self) -> list[str]:
        return [p for m in (self.X, *self.weights.values()) for p in m.problems]

    @property
    def weight_values(self) -> dict[str, np.ndarray]:
        """The W's values by name."""
        return {name: m.values for name, m in self.weights.items()}


def axis_titles() -> dict[str, str]:
    return {kind: t(f"transformer.axis.{kind}") for kind in AXIS_KINDS}


def formula() -> None:
    """The whole computation in four lines, and what changes from the Luong page."""
    st.latex(
        r"\mathbf{Q} = \mathbf{X}\mathbf{W}_Q,\quad \mathbf{K} = \mathbf{X}\mathbf{W}_K,"
        r"\quad \mathbf{V} = \mathbf{X}\mathbf{W}_V"
    )
    st.latex(
        stacked(
            r"\mathbf{A}_i = \operatorname{softmax}_{\text{rows}}\!\left("
            r"\frac{\mathbf{Q}_i \mathbf{K}_i^{\mathsf{T}}}{\sqrt{d_h}}\right),\quad "
            r"\mathbf{O}_i = \mathbf{A}_i \mathbf{V}_i,",
            r"\mathbf{Y} = \operatorname{concat}(\mathbf{O}_1, \ldots, \mathbf{O}_h)\,"
            r"\mathbf{W}_O",
        )
    )
    st.info(t("transformer.luong_diff"), icon=":material/compare_arrows:")


def sentence() -> Tokens:
    """The sentence box, the example buttons, and the tokens as the page split them."""
    text_col, *buttons = st.columns([4, 1, 1], vertical_alignment="bottom")
    draw.text_input(state.SENTENCE, text_col)
    for column, (lang, key) in zip(buttons, state.EXAMPLE_BUTTONS.items(), strict=True):
        column.button(
            t(f"transformer.sentence.example_{lang}"),
            key=key,
            on_click=state.load_example,
            args=(lang,),
            width="stretch",
        )
    tokens = split_sentence(st.session_state.get(state.SENTENCE.key))
    if tokens.split != "none":
        shown = " | ".join(escape_markdown(token, 20) for token in tokens.tokens[:20])
        st.caption(
            t(f"transformer.sentence.split_{tokens.split}", count=len(tokens.tokens), tokens=shown)
        )
    for problem in tokens.problems:
        params = dict(problem.params)
        if "token" in params:  # the learner's text: shown, never rendered
            params["token"] = escape_markdown(str(params["token"]), 30)
        st.error(t(f"transformer.sentence.{problem.code}", **params), icon=":material/error:")
    return tokens


def settings() -> Settings:
    """d_model, h, the seed, positions, causal mask, and the identity check's button."""
    numbers = st.columns(3, vertical_alignment="bottom")
    for setting, column in zip((state.D_MODEL, state.HEADS, state.SEED), numbers, strict=True):
        draw.number_input(setting, column)
    switches = st.columns(3, vertical_alignment="center")
    for setting, column in zip((state.POSITIONS, state.CAUSAL), switches, strict=False):
        draw.checkbox(setting, column)
    switches[2].button(
        t("transformer.identity"),
        key=state.IDENTITY,
        on_click=state.identity_weights,
        help=t("transformer.identity_help"),
    )
    # the frame's check_widgets (the schema's fields) has put back a number no box could send
    return Settings(
        d_model=int(st.session_state[state.D_MODEL.key]),
        heads=int(st.session_state[state.HEADS.key]),
        seed=int(st.session_state[state.SEED.key]),
        positions=bool(st.session_state[state.POSITIONS.key]),
        causal=bool(st.session_state[state.CAUSAL.key]),
    )


def inputs(tokens: list[str], settings: Settings) -> Inputs:
    """X (one row per token), P when positions are on, and the four W's."""
    labels = token_labels(tokens)
    d = settings.d_model
    state.sync_grids(tokens, d, settings.seed)
    entries = [str(c) for c in range(1, d + 1)]
    st.header(t("transformer.inputs.title"))
    x_col, p_col = st.columns(2)
    with x_col:
        x_caption = trained_caption("transformer", "x")  # X sent by the training page
        st.markdown(x_caption or t("transformer.inputs.x", n=len(tokens), d=d))
        st.latex(rf"\underbrace{{\mathbf{{X}}}}_{{{len(tokens)} \times {d}}}")
        x_in = matrix_editor(
            "X",
            state.MATRIX_KEYS["X"],
            np.zeros((len(tokens), d)),
            (labels, entries),
            help=t("transformer.inputs.x_help"),
        )
    if settings.positions:
        with p_col:
            st.markdown(t("transformer.inputs.p", n=len(tokens), d=d))
            st.latex(POSITION_FORMULA)
            table = positional_encoding(len(tokens), d)
            hover = hover_texts(table.shape, lambda i, c: positional_encoding_entry(i, c, d))
            show_chart(
                matrix_figure(
                    table, labels, axis_titles(), hover, title=t("transformer.inputs.p_title")
                ),
                key="transformer.chart.P",
            )
    else:
        no_positions = trained_caption("transformer", "positions")
        p_col.caption(no_positions or t("transformer.inputs.no_positions"))
    st.markdown(t("transformer.inputs.w", d=d))
    weights = {}
    # a row of columns per pair: one set of two columns filled twice put W_V under W_Q on a
    # phone, which stacks a column's contents (W_Q, W_V, W_K, W_O)
    pairs = [
        (column, name)
        for row in (PROJECTIONS[:2], PROJECTIONS[2:])
        for column, name in zip(st.columns(2), row, strict=True)
    ]
    for column, name in pairs:
        with column:
            st.latex(rf"\underbrace{{\mathbf{{W}}_{name[-1]}}}_{{{d} \times {d}}}")
            weights[name] = matrix_editor(
                name, state.MATRIX_KEYS[name], np.eye(d), (entries, entries)
            )
    return Inputs(x_in, weights)


def show_problems(problems: list[str]) -> None:
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        st.error(problem, icon=":material/error:")
    if len(problems) > MAX_PROBLEMS_SHOWN:
        st.caption(t("transformer.more_problems", count=len(problems) - MAX_PROBLEMS_SHOWN))


def engine_run(entered: Inputs, settings: Settings) -> MultiHeadResult | None:
    """The page's one `compute` for this rerun, or a message (h not dividing d_model names
    the h that do)."""
    try:
        return page_compute.compute(
            page_compute.Inputs(
                entered.X.values,
                entered.weight_values,
                settings.heads,
                causal=settings.causal,
                positions=settings.positions,
            )
        )
    except AttentionInputError as error:
        if error.code == "heads_not_dividing":
            st.error(
                t(
                    "transformer.heads_not_dividing",
                    heads=settings.heads,
                    d_model=settings.d_model,
                    choices=", ".join(str(h) for h in divisors(settings.d_model)),
                ),
                icon=":material/error:",
            )
        else:
            show_error(error)
        return None


def head_titles(heads: int, d_head: int) -> list[str]:
    return [t("transformer.heads_grid.head", number=i + 1, d_head=d_head) for i in range(heads)]


def results(mh: MultiHeadResult, tokens: list[str], entered: Inputs, seed: int) -> None:
    """The heads' weights as a grid and the identity check's sentence (the output Y is
    `output`'s, drawn under the W's it needs)."""
    labels = token_labels(tokens)
    titles = axis_titles()
    h = mh.head_count
    st.header(
        t("transformer.heads_grid.title_one" if h == 1 else "transformer.heads_grid.title", heads=h)
    )
    st.caption(
        t("transformer.heads_grid.caption", heads=h, d_head=mh.d_head, sqrt=fmt(np.sqrt(mh.d_head)))
    )

    def hover(head: int, i: int, j: int) -> str:
        return mh.heads[head].step("weights_softmax").entry(i, j)

    _head_charts(mh, labels, titles, hover)
    if mh.mask is not None:
        st.caption(t("transformer.heads_grid.causal"))
    st.caption(weights_note(entered.weight_values, seed))
    note = repeated_word_note(mh, tokens, entered.X.values)
    if note is not None:
        st.caption(note)
    _identity_check(mh, entered.weight_values)


def _head_charts(
    mh: MultiHeadResult, labels: list[str], titles: Mapping[str, str], hover: Callable
) -> None:
    """Two heads a row on a desktop while their cells stay wide enough for their numbers;
    a longer sentence's head is cut into blocks of keys ("head 1, keys 1–5", "head 1, keys
    6–10"), one row per head, the first block keeping the head's chart key. Streamlit stacks
    the columns on a phone, where every block keeps cells wide enough for its numbers."""
    blocks = key_blocks(len(labels))
    names = head_titles(mh.head_count, mh.d_head)
    drawn = []  # ((head, block), figure)
    for b, keys in enumerate(blocks):
        titled = names
        if len(blocks) > 1:
            first, last = keys.start + 1, keys.stop
            titled = [
                t("transformer.heads_grid.keys", head=x, first=first, last=last) for x in names
            ]
        figures = head_figures(mh, labels, titles, titled, hover, keys=keys)
        drawn += [((head, b), figure) for head, figure in enumerate(figures)]
    per_row = 2 if len(blocks) == 1 else len(blocks)
    drawn.sort(key=lambda item: item[0])
    for row in range(0, len(drawn), per_row):
        for column, ((head, b), figure) in zip(
            st.columns(per_row), drawn[row : row + per_row], strict=False
        ):
            key = f"transformer.chart.head.{head + 1}" + (f".keys{b + 1}" if b else "")
            show_chart(figure, key=key, container=column)


def output(mh: MultiHeadResult, tokens: list[str]) -> None:
    """The heads concatenated and mixed by W_O: the output Y."""
    labels = token_labels(tokens)
    titles = axis_titles()
    n, h = len(tokens), mh.head_count
    st.header(t("transformer.output.title"))
    st.latex(
        rf"\underbrace{{\mathbf{{Y}}}}_{{{n} \times {mh.output.shape[1]}}} = "
        rf"\operatorname{{concat}}({concat_parts(h)})\,\mathbf{{W}}_O"
    )
    output = mh.step("output_projected")
    figure = step_figure(output, labels, titles, hover_texts, title=t("transformer.output.chart"))
    colour_bar_below(figure, shown=True)  # as every other matrix of the page
    show_chart(figure, key="transformer.chart.output")


def concat_parts(heads: int) -> str:
    """O₁, …, O_h in LaTeX: each head named up to three, O₁, …, O_h beyond."""
    if heads <= 3:
        return ", ".join(rf"\mathbf{{O}}_{{{i + 1}}}" for i in range(heads))
    return rf"\mathbf{{O}}_1, \ldots, \mathbf{{O}}_{{{heads}}}"


def weights_note(weights: Mapping[str, np.ndarray], seed: int, lang: str | None = None) -> str:
    """Says the W's are the seed's random numbers only when they are (the learner may have
    typed them), not trained; or, while they are, that they were trained (kit/grids/trained)."""
    trained = trained_note("transformer")
    if trained is not None:
        return trained
    d = next(iter(weights.values())).shape[0]
    drawn = projections(d, seed)
    random = all(np.array_equal(weights[name], drawn[name]) for name in PROJECTIONS)
    key = "transformer.heads_grid.random" if random else "transformer.heads_grid.edited"
    return t(key, lang, seed=seed)


def repeated_word_note(
    mh: MultiHeadResult, tokens: list[str], X: np.ndarray, lang: str | None = None
) -> str | None:
    """For the first word that appears twice: whether its two rows of weights are the same,
    and why, said only when the engine's numbers show it (None: nothing general to say).
    `X` is the learner's X, before any positions are added."""
    positions = mh.steps[0].key == "positions_added"
    first_seen: dict[str, int] = {}
    for second, token in enumerate(tokens):
        if token not in first_seen:
            first_seen[token] = second
            continue
        first = first_seen[token]
        same_x = np.array_equal(X[first], X[second])
        same_input = np.array_equal(mh.inputs[first], mh.inputs[second])
        same_weights = np.array_equal(mh.weights[:, first], mh.weights[:, second])
        if same_x and not positions and same_weights and mh.mask is None:
            key = "same"
        elif same_input and not same_weights and mh.mask is not None:
            key = "masked"
        elif same_x and positions and not same_input and not same_weights:
            # under the causal mask the rows differ whatever the positions do
            key = "positions" if mh.mask is None else "positions_masked"
        else:
            return None  # the learner's edits made the two rows differ: nothing general to say
        return t(
            f"transformer.repeat.{key}",
            lang,
            token=escape_markdown(token, 20),
            first=first + 1,
            second=second + 1,
        )
    return None


def _identity_check(mh: MultiHeadResult, weights: Mapping[str, np.ndarray]) -> None:
    """Said only when it holds: with h = 1 and every W = I the engine's weights are those of
    plain scaled dot attention of X with itself (checked here, not assumed)."""
    identity = np.eye(mh.inputs.shape[1])
    if mh.head_count != 1 or not all(np.array_equal(w, identity) for w in weights.values()):
        return
    X = mh.inputs
    plain = attention(X, X, X, "scaled_dot", layout="row", mask=mh.mask)
    if np.array_equal(plain.weights, mh.weights[0]) and np.array_equal(plain.output, mh.output):
        st.success(identity_sentence(mh), icon=":material/check_circle:")


def identity_sentence(mh: MultiHeadResult, lang: str | None = None) -> str:
    """The call the check compares with, as it was made: X + P when positions were added,
    and the causal mask when it is on."""
    positions = mh.steps[0].key == "positions_added"
    inputs = "X + P" if positions else "X"
    name = "XP" if positions else "X"
    mask = f", mask=causal_mask({mh.inputs.shape[0]})" if mh.mask is not None else ""
    call = f'attention({name}, {name}, {name}, "scaled_dot", layout="row"{mask})'
    if positions:
        call += "  # XP = X + P"
    return t("transformer.identity_holds", lang, inputs=inputs, call=call)


def steps(mh: MultiHeadResult, tokens: list[str]) -> None:
    """Every step: the projections, one head in full detail (toggle), the concatenation and
    W_O. Each with its formula at these sizes, its matrix and hover arithmetic."""
    labels = token_labels(tokens)
    titles = axis_titles()
    st.header(t("transformer.steps.title"))
    st.caption(t("transformer.steps.intro"))
    before = [s for s in mh.steps if s.key not in ("heads_concatenated", "output_projected")]
    after = [mh.step("heads_concatenated"), mh.step("output_projected")]
    _show(_Steps(tuple(before)), labels, titles, "transformer.step")
    shown = len(before)

    if draw.toggle(state.DETAIL):
        if st.session_state.get(state.DETAIL_HEAD.key) not in range(mh.head_count):
            st.session_state[state.DETAIL_HEAD.key] = 0  # fewer heads than before
        names = head_titles(mh.head_count, mh.d_head)
        head = draw.radio(
            state.DETAIL_HEAD,
            options=range(mh.head_count),
            horizontal=True,
            format_func=names.__getitem__,
        )
        _head_detail(mh, head, labels, titles)
        _show(mh.heads[head], labels, titles, f"transformer.head{head}", start=shown + 1)
        shown += len(mh.heads[head].steps)
    else:
        st.caption(t("transformer.detail.off"))
    _show(_Steps(tuple(after)), labels, titles, "transformer.step", start=shown + 1)


def _show(run, labels: list[str], titles: Mapping[str, str], prefix: str, start: int = 1) -> None:
    """The steps of `run` (a head's result, or `_Steps`), numbered from `start`."""
    figures = {s.key: step_blocks(s, labels, titles, hover_texts) for s in run.steps}
    show_steps(
        run, titles, namespace="transformer", key_prefix=prefix, figures=figures, start=start
    )


@dataclass(frozen=True)
class _Steps:
    """What show_steps reads of a result: its steps, its layout and a name for the PNGs."""

    steps: tuple
    layout: str = "row"
    score: str = "multi_head"


def _head_detail(
    mh: MultiHeadResult, head: int, labels: list[str], titles: Mapping[str, str]
) -> None:
    """Head `head`'s columns of Q, K, V (its steps follow)."""
    columns = mh.head_columns(head)
    first, last = columns.start + 1, columns.stop
    st.markdown(
        t("transformer.detail.split", number=head + 1, first=first, last=last, d_head=mh.d_head)
    )
    for column, (name, values) in zip(
        st.columns(3), zip("QKV", mh.head_inputs(head), strict=True), strict=True
    ):
        with column:
            st.latex(
                rf"\underbrace{{\mathbf{{{name}}}_{{{head + 1}}}}}_{{{len(labels)} \times "
                rf"{mh.d_head}}} = \mathbf{{{name}}}[:, {first}..{last}]"
            )
            show_chart(
                matrix_figure(values, labels, titles, rows="query" if name == "Q" else "key"),
                key=f"transformer.chart.head{head}.{name}",
            )
