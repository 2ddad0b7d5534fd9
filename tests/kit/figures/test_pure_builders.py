"""Figure builders are pure. Arrays and words go in, a `go.Figure` (or a table) comes
out; a builder never reads the session (its language, a widget), never calls `t()` and never
draws. The words it prints are the caller's, so a test (or another page) can hand it any.

Two checks read the source (no builder module imports Streamlit or the catalogs; no function
that returns a figure or a table and does not draw looks anything up in the session), and the
rest call the builders with Japanese words and find those words in what they built.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import numpy as np
import pytest

from attention_core import attention, multi_head, nadaraya_watson
from attention_core.lookup import lookup_many
from attention_ui.kit.figures.heatmap import DrawnFigure
from tests.conftest import REPO

UI = REPO / "attention_ui"
# Modules that only build: figures, tables, formulas. They may not import Streamlit, the
# catalogs (`t`, the session's language) or anything that draws.
BUILDER_MODULES = (
    "kit/figures/heatmap.py",
    "kit/figures/grid.py",
    "kit/figures/alt_text.py",
    "kit/figures/plane.py",
    "kit/figures/lookup.py",
    "exercises/figures.py",
    "regression/figures.py",
    "transformer/figures.py",
    "luong/compare.py",
    "luong/formulas.py",
    "luong/claims.py",
    "gallery/cases.py",
)
SESSION_MODULES = {
    "streamlit",
    "attention_ui.kit.text.i18n",
    "attention_ui.kit.figures.charts",
    "attention_ui.kit.state.page_state",
    "attention_ui.frame",
}
# Names that read the session's language or state, or draw.
SESSION_CALLS = {
    "t",
    "current_language",
    "step_title",
    "step_sentence",
    "error_text",
    "option_labels",
    "show_chart",
}


def imported_modules(tree: ast.Module, package: str) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against the module's package
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


@pytest.mark.parametrize("name", BUILDER_MODULES)
def test_builder_modules_import_neither_streamlit_nor_the_sessions_language(name):
    path = UI / name
    package = ".".join(("attention_ui", *Path(name).parent.parts))
    imported = imported_modules(ast.parse(path.read_text(encoding="utf-8")), package)
    assert not {m for m in imported if m.split(".")[0] == "streamlit"}, name
    assert not imported & SESSION_MODULES, (name, sorted(imported & SESSION_MODULES))


def builds(function: ast.FunctionDef) -> bool:
    returns = ast.unparse(function.returns) if function.returns else ""
    return "Figure" in returns or "DataFrame" in returns


def draws(function: ast.FunctionDef) -> bool:
    """Calls st.* (or show_chart): a view that hands on what it drew, not a builder."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and ast.unparse(func).startswith("st."):
                return True
            if isinstance(func, ast.Name) and func.id == "show_chart":
                return True
    return False


def session_lookups(function: ast.FunctionDef) -> set[str]:
    found = set()
    for node in ast.walk(function):
        call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        if call and node.func.id in SESSION_CALLS:
            found.add(node.func.id)
        if isinstance(node, ast.Attribute) and node.attr == "session_state":
            found.add("session_state")
    return found


def every_builder() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in sorted(UI.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and builds(node) and not draws(node):
                found.append((f"{path.relative_to(UI)}:{node.name}", node))
    return found


def test_no_function_that_builds_a_figure_or_table_reads_the_session():
    builders = every_builder()
    assert len(builders) >= 25  # the walk finds the builders (not an empty loop)
    impure = {name: sorted(session_lookups(f)) for name, f in builders if session_lookups(f)}
    assert impure == {}


def test_the_purity_check_catches_a_builder_that_asks_the_session_for_its_words():
    source = (
        "def chart(values) -> go.Figure:\n"
        "    return heatmap(values, [], [], title=t('luong.results.S'))\n"
    )
    function = ast.parse(source).body[0]
    assert builds(function) and not draws(function)
    assert session_lookups(function) == {"t"}


# --- Builders called with Japanese words: the words are in the figure -------------------------

WORDS = ("キーの軸", "クエリの軸", "重みの図", "値の点")


def printed(figure) -> str:
    """Everything a figure can print (titles, labels, hover), as one string."""
    plain = figure.plain if isinstance(figure, DrawnFigure) else figure.to_plotly_json()
    return json.dumps(plain, ensure_ascii=False, default=str)


def test_heatmap_and_step_figure_print_the_callers_words():
    from attention_ui.kit.figures.heatmap import Titles, heatmap
    from attention_ui.kit.teaching.steps_view import step_figure

    figure = heatmap(np.eye(2), ["k1", "k2"], ["q1", "q2"], Titles(WORDS[2], WORDS[0]))
    assert WORDS[2] in printed(figure) and WORDS[0] in printed(figure)
    result = attention(np.eye(2), np.eye(2), np.eye(2), "dot")
    step = result.step("weights_softmax")
    titles = {"key": WORDS[0], "query": WORDS[1]}
    figure = step_figure(step, "column", titles, title=WORDS[2])
    assert all(word in printed(figure) for word in WORDS[:3])


def test_luong_result_figures_print_the_callers_chart_names():
    from attention_ui.luong.view import result_figures

    result = attention(np.eye(2), np.eye(2), np.eye(2), "dot")
    names = {"S": "スコア行列", "A": "重み行列", "O": "出力行列"}
    figures = result_figures(result, {"key": WORDS[0], "query": WORDS[1]}, names)
    text = "".join(printed(f) for f in figures.values())
    assert all(word in text for word in (*names.values(), WORDS[0], WORDS[1]))


def test_grid_and_transformer_figures_print_the_callers_words():
    from attention_ui.kit.figures.grid import GridSettings, heatmap_grid
    from attention_ui.transformer.figures import head_figures

    grid = heatmap_grid(
        np.ones((1, 2, 2, 2)) / 2, WORDS[0], WORDS[1], GridSettings(titles=["頭1", "頭2"])
    )
    assert all(word in printed(grid) for word in (WORDS[0], WORDS[1], "頭1", "頭2"))
    X = np.arange(8.0).reshape(2, 4) / 8
    mh = multi_head(X, np.eye(4), np.eye(4), np.eye(4), np.eye(4), heads=2)
    figures = head_figures(mh, ["猫", "犬"], {"key": WORDS[0], "query": WORDS[1]}, ["頭1", "頭2"])
    assert all(word in printed(figures[1]) for word in ("猫", "犬", WORDS[0], "頭2"))


def test_regression_step_figures_print_the_callers_axis_titles():
    from attention_ui.regression.figures import step_figures

    result = nadaraya_watson(np.array([0.0, 1.0]), np.array([0.0, 0.5, 1.0]), np.ones(3))
    figures = step_figures(result.steps, [1, 2, 3], {"key": WORDS[0], "query": WORDS[1]})
    weights = printed(figures["nw_weights"])
    assert WORDS[0] in weights and WORDS[1] in weights and "x3" in weights


def test_lookup_figures_and_table_print_the_callers_words():
    from attention_ui.database.view import similarity_table
    from attention_ui.kit.figures.lookup import LookupCaptions, distribution_bar, weights_heatmap

    table = lookup_many([("Li", "Mu"), ("Lipton", "Zachary")], ["Li"])
    captions = LookupCaptions(weight="重み α", records="レコード", queries="問い合わせ")
    heat = weights_heatmap(table, 1.0, "softmax", title=WORDS[2], captions=captions)
    assert all(word in printed(heat) for word in ("問い合わせ", "レコード", WORDS[2]))
    bar = distribution_bar(table.results[0], title=WORDS[2], captions=captions)
    assert WORDS[2] in printed(bar)
    headers = ["行", "キー", "値", "スコア", "計算", "重み"]
    frame = similarity_table(table.results[0], [1, 2], headers)
    assert list(frame.columns) == headers


def test_plane_and_exercise_figures_print_the_callers_words():
    from attention_ui.exercises.figures import loss_figure
    from attention_ui.kit.figures.plane import PlaneCaptions, PlaneScene, plane_figure

    values = np.array([[1.0, 0.0], [0.0, 1.0]])
    captions = PlaneCaptions(cone="値の錐", hull="値の凸包", values=WORDS[3])
    scene = PlaneScene(values, values.mean(axis=0), weights=[0.5, 0.5])
    figure = plane_figure(scene, box=(-2.0, 2.0, -2.0, 2.0), captions=captions)
    assert all(word in printed(figure) for word in ("値の凸包", WORDS[3]))
    loss = loss_figure(np.array([1.0, 0.5]), x_title="ステップ", y_title="損失")
    assert "ステップ" in printed(loss) and "損失" in printed(loss)


# Caption objects carry a figure's words; their English defaults serve tests only. Every one
# the app builds names each word field (symbols such as α and a(q, k) may keep their default),
# or is a `replace` of one that does: a missing field would print English on a Japanese page.
CAPTION_WORDS = {
    "LookupCaptions": {
        "weight", "records", "queries", "best", "first_names", "total_weight", "exact_weight"
    },
    "PlaneCaptions": {"cone", "hull", "values", "output", "path", "query"},
    "EllipseCaptions": {"cov_name", "jac_name"},
    "SearchCaptions": {"x", "y", "records", "path", "loss", "step"},
    "GatesCaptions": {"sigmoid", "softmax", "channel", "weight"},
}  # fmt: skip


def test_every_caption_object_the_app_builds_names_every_word():
    """Built directly, every word field is named; built by `worded(Kind, namespace, ...)`,
    every word field not given is a key of both catalogs."""
    from attention_ui.kit.text.i18n import catalog

    built = 0
    for path in sorted(UI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            given = {keyword.arg for keyword in node.keywords}
            if node.func.id == "worded":
                kind, namespace = node.args[0].id, node.args[1].value
                read = {f"{namespace}.{word}" for word in CAPTION_WORDS[kind] - given}
                for lang in ("en", "ja"):
                    assert read <= set(catalog(lang)), (path.name, lang, sorted(read))
                built += 1
            elif (words := CAPTION_WORDS.get(node.func.id)) is not None:
                assert words <= given, (path.name, node.func.id, sorted(words - given))
                built += 1
    assert built >= 4
