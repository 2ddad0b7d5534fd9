"""Every chart saves a named PNG; the export panel hands out a script
that reproduces the page's numbers, CSVs and the LaTeX derivation; predict-then-reveal hides
the answers until the learner reveals them, then grades each guess, in both languages."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import attention
from attention_core.formatting import fmt
from attention_core.lookup import lookup_many
from attention_ui.kit.export import panel as export_view
from attention_ui.kit.export.latex_writer import latex_text
from attention_ui.kit.export.scripts import result_script, table_script
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.teaching.predict import typo_queries
from attention_ui.kit.teaching.predict_view import RIGHT, WRONG
from attention_ui.kit.text.i18n import catalog
from attention_ui.luong.presets import PRESETS
from tests.plotly_json import charts
from tests.support.grids import edit_grid
from tests.support.pages import open_page
from tests.support.train import SETTINGS as TRAIN_SETTINGS
from tests.support.train import press_train

FIRST = PRESETS["first"].column_matrices()


def run_script(script: str) -> None:
    exec(compile(script, "<export>", "exec"), {"__name__": "__main__"})


def open_export(at: AppTest, page: str) -> dict[str, str]:
    """Open the export panel; its code blocks by language (python, latex)."""
    at.session_state[f"{page}.export"] = True
    at.run()
    assert not at.exception
    return {code.language: code.value for code in at.main.code}


def texts(elements) -> str:
    return "\n".join(str(e.value) for e in elements)


# Every page with an export panel: the database's and the training page's hold no derivation.
EXPORTING_PAGES = [
    "luong",
    "database",
    "gallery",
    "transformer",
    "regression",
    "exercises",
    "train",
]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("page", EXPORTING_PAGES)
def test_the_export_title_names_latex_only_where_the_export_holds_a_derivation(page, lang):
    at = open_page(page, lang)
    if page == "train":  # the export comes with a finished run
        for key, value in TRAIN_SETTINGS.items():
            at.session_state[key] = value
        press_train(at, TRAIN_SETTINGS)
    code = open_export(at, page)
    words = catalog(lang)
    titles = (words["export.title"], words["export.title_no_latex"])
    drawn = [fold.label for fold in at.main.expander if fold.label in titles]
    assert drawn == [titles[0] if "latex" in code else titles[1]], (drawn, sorted(code))
    assert "python" in code, "every export holds a script"


@pytest.mark.parametrize("page", ["home", "luong", "database", "gallery", "transformer"])
def test_every_chart_saves_a_png_named_after_the_page_and_chart(page):
    import json

    at = open_page(page)
    if page == "database":  # two queries: the heatmap and both tabs' charts
        at.text_input(key="database.query").set_value("Li, Smola").run()
    drawn = charts(at)
    assert drawn
    names = []
    for chart in drawn:
        options = json.loads(chart.proto.config)["toImageButtonOptions"]
        assert options["format"] == "png"
        assert options["filename"].startswith(f"attention-explorer_{page}_")
        names.append(options["filename"])
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("layout", ["column", "row"])
def test_the_luong_script_is_the_engines_result_and_runs(layout):
    at = open_page("luong")
    at.radio(key="luong.layout").set_value(layout).run()
    code = open_export(at, "luong")
    tr = (lambda a: a) if layout == "column" else (lambda a: a.T)
    r = attention(tr(FIRST["Q"]), tr(FIRST["K"]), tr(FIRST["V"]), "dot", layout=layout)
    assert code["python"] == result_script(
        r,
        tr(FIRST["Q"]),
        tr(FIRST["K"]),
        tr(FIRST["V"]),
        title="Attention Explorer: Luong explorer",
    ).rstrip("\n")  # st.code drops the final newline
    run_script(code["python"])
    for step in r.steps:
        assert step.latex in code["latex"]
    labels = [b.label for b in at.main.get("download_button")]
    assert {
        "Python script (.py)",
        "LaTeX (.tex)",
        "S (.csv)",
        "A (.csv)",
        "O (.csv)",
        "Q (.csv)",
    } <= set(labels)


def test_the_luong_export_follows_score_temperature_and_mask_in_japanese():
    at = open_page("luong", "ja")
    at.selectbox(key="luong.score").set_value("general").run()
    at.select_slider(key="luong.tau").set_value(0.5).run()
    at.selectbox(key="luong.mask.kind").set_value("causal").run()
    code = open_export(at, "luong")
    assert "score: general" in code["python"] and "mask = np.array(" in code["python"]
    run_script(code["python"])
    assert catalog("ja")["engine.step.temperature_softmax.title"] in code["latex"]
    labels = [b.label for b in at.main.get("download_button")]
    assert (
        catalog("ja")["export.script"] in labels
        and catalog("ja")["export.csv"].format(name="W") in labels
    )


def test_the_database_script_is_the_engines_lookup_and_runs():
    at = open_page("database")
    at.radio(key="database.similarity").set_value("ngram").run()
    # last: a query edit reruns the answers' fragment alone, and AppTest's tree then holds only
    # what that run drew (a browser keeps the rest of the page)
    at.text_input(key="database.query").set_value("Li, Smol").run()
    code = open_export(at, "database")
    tau = at.session_state["database.temperature"]
    table = lookup_many(D2L_RECORDS, ["Li", "Smol"], "ngram", tau, "softmax")
    script = table_script(table, temperature=tau, normalization="softmax")
    assert code["python"] == script.rstrip("\n")
    run_script(code["python"])


def test_the_gallery_script_runs():
    at = open_page("gallery")
    code = open_export(at, "gallery")
    assert "keys = values" in code["python"]
    run_script(code["python"])


# ---------------------------------------------------------------------------------------------
# Predict, then reveal


def switch_on(at: AppTest, page: str) -> AppTest:
    at.toggle(key=f"{page}.predict").set_value(True).run()
    assert not at.exception
    return at


def guess(at: AppTest, page: str, number: int, value) -> None:
    for widget in (*at.radio, *at.selectbox):
        if widget.key and widget.key.startswith(f"{page}.predict.guess.{number}."):
            widget.set_value(value)
            return
    raise AssertionError(f"no question {number}")


def reveal(at: AppTest, page: str) -> None:
    at.button(key=f"{page}.predict.reveal").click().run()
    assert not at.exception


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_luong_hides_every_answer_then_grades_each_query(lang):
    words = catalog(lang)
    at = switch_on(open_page("luong", lang), "luong")
    assert not charts(at)  # S, A, O and every tab's chart are hidden
    assert not at.main.get("download_button") and not at.main.code  # the sidebar shares inputs only
    assert words["predict.hidden"] in texts(at.info)
    # first preset: q1 = (2, 0.5) attends to k1, q2 = (0, 1.5) to k2
    guess(at, "luong", 0, 0)
    guess(at, "luong", 1, 0)
    reveal(at, "luong")
    assert words["predict.score"].format(right=1, total=2) in texts(at.info)
    feedback = texts(at.markdown)
    weights = attention(FIRST["Q"], FIRST["K"], FIRST["V"], "dot").weights
    best = [
        words["predict.one_winner"].format(name=f"k{i + 1}", weight=fmt(weights[i, j]))
        for j, i in enumerate(weights.argmax(axis=0))
    ]
    assert words["predict.right"].format(question="q1", chosen="k1", best=best[0]) in feedback
    chosen_weight = words["predict.chosen_weight"].format(weight=fmt(weights[0, 1]))
    wrong = dict(question="q2", chosen="k1", chosen_weight=chosen_weight, best=best[1])
    assert words["predict.wrong"].format(**wrong) in feedback
    assert WRONG in feedback and feedback.count(RIGHT) == 1
    assert len(charts(at)) >= 3  # revealed: the charts are back
    at.button(key="luong.predict.again").click().run()
    assert not charts(at)


def test_luong_a_tie_counts_any_tied_key_as_right():
    at = open_page("luong")
    edit_grid(at, "luong.Q", {0: {"q1": 0}, 1: {"q1": 0}})  # q1 = 0: all three keys tie
    at.run()
    switch_on(at, "luong")
    guess(at, "luong", 0, 2)
    guess(at, "luong", 1, 1)
    reveal(at, "luong")
    assert catalog("en")["predict.score"].format(right=2, total=2) in texts(at.success)
    assert "k1, k2 and k3" not in texts(at.markdown)  # names are joined with "and"
    assert "k1 and k2 and k3, tied (0.333 each)" in texts(at.markdown)


def test_an_edit_after_the_reveal_is_a_new_puzzle_with_the_answers_hidden():
    at = switch_on(open_page("luong"), "luong")
    reveal(at, "luong")
    assert charts(at)
    at.selectbox(key="luong.score").set_value("scaled_dot").run()
    assert not charts(at)


def test_luong_new_random_puzzle_uses_the_seeded_random_preset():
    at = switch_on(open_page("luong"), "luong")
    at.button(key="luong.predict.new").click().run()
    assert at.session_state["luong.preset"] == "random"
    seed = at.session_state["luong.seed"]
    assert catalog("en")["predict.luong.seed"].format(seed=seed) in texts(at.caption)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_database_hides_the_answers_then_grades_which_record_wins(lang):
    words = catalog(lang)
    at = switch_on(open_page("database", lang), "database")  # "Li", exact: row 3 (Li → Mu)
    assert not charts(at) and not at.success
    guess(at, "database", 0, 2)
    reveal(at, "database")
    assert words["predict.score"].format(right=1, total=1) in texts(at.success)
    assert charts(at)


def test_database_no_record_is_the_right_guess_when_no_key_matches():
    at = open_page("database")
    at.button(key="database.story.2").click().run()  # Li is gone, exact lookup: no answer
    switch_on(at, "database")
    guess(at, "database", 0, -1)
    reveal(at, "database")
    assert RIGHT in texts(at.markdown)


def test_database_a_seed_makes_the_same_misspelt_queries_on_every_screen():
    screens = []
    for _ in range(2):
        at = switch_on(open_page("database"), "database")
        at.number_input(key="database.predict.seed").set_value(11).run()
        at.button(key="database.predict.make").click().run()
        screens.append(at.session_state["database.query"])
    keys = [row[0] for row in D2L_RECORDS]
    assert screens == [", ".join(typo_queries(keys, 11, 3))] * 2
    assert at.session_state["database.similarity"] == "ngram"


def test_crafted_puzzle_state_is_no_guess_and_seed_zero_never_a_traceback():
    at = switch_on(open_page("database"), "database")
    at.session_state["database.predict.seed"] = -5
    at.button(key="database.predict.make").click().run()
    assert not at.exception
    keys = [row[0] for row in D2L_RECORDS]
    assert at.session_state["database.query"] == ", ".join(typo_queries(keys, 0, 3))


# ---------------------------------------------------------------------------------------------
# The regression, transformer and exercises pages


def exported_files(at: AppTest, page: str, monkeypatch) -> tuple[dict[str, str], dict[str, str]]:
    """Open the export panel; (its code blocks by language, the CSV text of every download
    button by table name, in the page's order). The CSVs are caught as the panel hands them to
    its buttons (AppTest gives a download button's label, not its data)."""
    handed: dict[str, str] = {}
    original = export_view.table_csv

    def caught(table):
        handed[table.name] = original(table)
        return handed[table.name]

    monkeypatch.setattr(export_view, "table_csv", caught)
    code = open_export(at, page)
    buttons = [b for b in at.main.get("download_button") if b.key.startswith(f"{page}.export.csv")]
    assert {b.key.removeprefix(f"{page}.export.csv.") for b in buttons} == set(handed)
    return code, handed


def parsed_csv(text: str) -> pd.DataFrame:
    """A CSV as a spreadsheet reads it: labels in the first column, numbers in the rest."""
    frame = pd.read_csv(io.StringIO(text), index_col=0)
    assert frame.size and all(dtype.kind == "f" for dtype in frame.dtypes), frame.dtypes
    return frame


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_regression_export_is_the_pages_run_as_script_csv_and_latex(lang, monkeypatch):
    at = open_page("regression", lang)
    at.radio(key="regression.kernel").set_value("boxcar").run()
    at.number_input(key="regression.sigma").set_value(0.2).run()
    code, tables = exported_files(at, "regression", monkeypatch)
    assert "kernel: boxcar, sigma: 0.2" in code["python"] and "np.nan" in code["python"]
    run_script(code["python"])
    assert set(tables) == {"points", "weights", "predictions"}
    points, weights, predictions = (
        parsed_csv(tables[n]) for n in ("points", "weights", "predictions")
    )
    assert list(points.columns) == ["x", "y"] and len(points) == 40
    assert weights.shape == (12, 40) and predictions.shape == (12, 2)
    assert predictions["ŷ"].isna().any()  # boxcar with a small σ: queries no point reaches
    assert np.allclose(weights.sum(axis=1)[predictions["ŷ"].notna()], 1)
    assert catalog(lang)["engine.step.nw_weights.title"] in code["latex"]
    assert r"\mathrm{NaN}" in code["latex"]
    labels = {b.label for b in at.main.get("download_button")}
    assert {catalog(lang)["export.script"], catalog(lang)["export.latex"]} <= labels


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_transformer_export_is_the_pages_run_as_script_csv_and_latex(lang, monkeypatch):
    at = open_page("transformer", lang)
    at.text_input(key="transformer.sentence").input("the cat sat on the mat").run()
    at.checkbox(key="transformer.positions").check().run()
    at.checkbox(key="transformer.causal").check().run()
    code, tables = exported_files(at, "transformer", monkeypatch)
    assert "heads: 2, positional encodings: on, causal mask: on" in code["python"]
    assert "mask = np.tril(" in code["python"] and "P_app = " in code["python"]
    run_script(code["python"])
    assert list(tables) == ["X", "P", "W_Q", "W_K", "W_V", "W_O", "A1", "A2", "Y"]
    frames = {name: parsed_csv(text) for name, text in tables.items()}
    assert frames["X"].shape == (6, 4) and frames["W_O"].shape == (4, 4)
    assert (
        list(frames["A1"].index)
        == list(frames["A1"].columns)
        == [f"{i} · {w}" for i, w in enumerate(["the", "cat", "sat", "on", "the", "mat"], start=1)]
    )
    for head in ("A1", "A2"):  # causal: each row sums to 1, nothing above the diagonal
        weights = frames[head].to_numpy()
        assert np.allclose(weights.sum(axis=1), 1) and not np.triu(weights, 1).any()
    words = catalog(lang)
    head_two = words["transformer.heads_grid.head"].format(number=2, d_head=2)
    title = f"{head_two}: {words['engine.step.weights_softmax.title']}"
    assert latex_text(title) in code["latex"]
    assert words["engine.step.positions_added.title"] in code["latex"]
    assert r"-\infty" in code["latex"]  # the masked scores


EXERCISE_TABLES = {
    "match": ["scores", "weights"],
    "grad": ["keys", "weights", "jacobian", "covariance"],
    "search": ["keys", "queries", "weights", "losses"],
    "se": ["X", "W1", "W2", "gates", "Y"],
}
EXERCISE_TITLES = {  # a title the LaTeX must carry, from the catalog of the page's language
    "match": "exercises.export.match_weights",
    "grad": "exercises.export.grad_covariance",
    "search": "exercises.export.search_losses",
    "se": "exercises.se.step.se_gate_sigmoid",
}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("section", list(EXERCISE_TABLES))
def test_each_exercise_exports_what_it_computes_as_script_csv_and_latex(section, lang, monkeypatch):
    at = open_page("exercises", lang)
    at.radio(key="exercises.section").set_value(section).run()
    if section == "search" and lang == "ja":  # the database's names as letter-pair keys
        at.radio(key="exercises.search.source").set_value("names").run()
    if section == "grad" and lang == "ja":  # "One huge score": a gradient of 7.2e-17
        at.button(key="exercises.grad.huge").click().run()
    code, tables = exported_files(at, "exercises", monkeypatch)
    run_script(code["python"])
    assert list(tables) == EXERCISE_TABLES[section]
    frames = {name: parsed_csv(text) for name, text in tables.items()}
    words = catalog(lang)
    assert latex_text(words[EXERCISE_TITLES[section]]) in code["latex"]
    if section == "match":
        assert "similarity: ngram" in code["python"] and "'Li'" in code["python"]
        assert np.isclose(frames["weights"].to_numpy().sum(), 1)
    elif section == "grad":
        assert np.allclose(frames["jacobian"].to_numpy(), frames["covariance"].to_numpy())
    elif section == "search":
        assert "final_query_app = " in code["python"] and "final_loss_app = " in code["python"]
        assert ("letter_pairs(name)" in code["python"]) == (lang == "ja")
        assert len(frames["losses"]) == 31 and frames["losses"]["L"].is_monotonic_decreasing
    else:
        assert list(frames["gates"].columns) == ["sigmoid", "softmax"]
        assert np.isclose(frames["gates"]["softmax"].sum(), 1)
