"""What the model learned, in the task's tokens and positions, induction's two heads, your own
input checked by the task's rule, and the hand-over at the default sizes, through AppTest:
every table and curve is the engine's (attention_core/learned.py) for the run on the page."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core.learned import concat_table, induction_curves, score_parts
from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, runs, state
from attention_ui.train.state import settings_of
from tests.conftest import APP
from tests.plotly_json import chart
from tests.plotly_json import charts as charts_of
from tests.support.pages import open_fold, shown
from tests.support.train import choose_step, players, press_train

EN, JA = catalog("en"), catalog("ja")


def trained(lang="en", folds=(), **values) -> AppTest:
    """The training page after Train with these settings, once the run has finished, with
    these of its folds (train.fold.<name>) opened (a long timeout: the machine's other work
    may slow a run down)."""
    at = AppTest.from_file(str(APP), default_timeout=240)
    at.session_state["lang"] = lang
    at.run()
    at.switch_page("pages/train.py").run()
    settings = {f"train.{key}": value for key, value in values.items()}
    for key, value in settings.items():
        at.session_state[key] = value
    press_train(at, settings)
    assert not at.exception, [e.value for e in at.exception]
    assert "train.player" in players(at), "the finished run is drawn"
    for name in folds:
        open_fold(at, f"train.fold.{name}")
    return at


def the_run(**values):
    return runs.kept(settings_of({f"train.{k}": v for k, v in values.items()})).seen().result


def drawn(at, key):
    figure = chart(at, key)["data"][0]
    return np.asarray(figure["z"], dtype=float), list(figure["x"]), list(figure["y"])


def test_key_lookup_is_drawn_as_query_tokens_against_key_letters_and_values():
    values = {"task": "lookup", "steps": 60, "d_model": 8}
    at = trained(folds=("learned",), **values)
    run = the_run(**values)
    parts = score_parts(run.params, run.score, run.heads, 0)
    task = compute.task_of("lookup", 0)
    names = task.feature_names
    z, x, y = drawn(at, "train.chart.tokens.0")
    assert y == [f"{k}?" for k in "ABCDEF"]
    assert x == [*"ABCDEF", *"012345"]
    rows = [names.index(label) for label in y]
    cols = [names.index(label) for label in x]
    np.testing.assert_allclose(z, parts.token_token[np.ix_(rows, cols)], atol=1e-12)
    z, x, y = drawn(at, "train.chart.positions.0")
    assert y == ["5"] and x == ["1", "2", "3", "4", "5"]  # the query at 5, the keys at 1 … 5
    np.testing.assert_allclose(z, parts.position_position[[4]], atol=1e-12)
    assert EN["learned.bilinear"].split("**")[0] in shown(at)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_previous_tokens_position_table_is_masked_above_the_diagonal(lang):
    values = {"task": "previous", "steps": 60, "d_model": 8}
    at = trained(lang, ("learned",), **values)
    z, x, y = drawn(at, "train.chart.positions.0")
    assert y == [str(p) for p in range(2, 9)]  # outputs at positions 2 … 8
    assert x == [str(p) for p in range(1, 9)]
    for row, query in enumerate(range(1, 8)):
        assert np.isnan(z[row, query + 1 :]).all() and np.isfinite(z[row, : query + 1]).all()
    words = catalog(lang)
    said = words["learned.claim.positions.previous"].split("{")[0]
    assert said in shown(at)


def test_location_has_no_key_token_table_and_concat_its_exact_scores_at_two_positions():
    at = trained(folds=("learned",), task="reverse", score="location", steps=30, d_model=8)
    z, x, y = drawn(at, "train.chart.tokens.0")
    assert x == [str(p) for p in range(1, 7)] and y == [str(d) for d in range(10)]
    values = {"task": "reverse", "score": "concat", "steps": 30, "d_model": 8, "heads": 2}
    at = trained(folds=("learned",), **values)
    at.selectbox(key="train.learned.query.reverse").set_value(2).run()
    at.selectbox(key="train.learned.key.reverse").set_value(3).run()
    run = the_run(**values)
    table = concat_table(run.params, 2, 1, (2, 3), None)
    z, x, y = drawn(at, "train.chart.tokens.1")
    np.testing.assert_allclose(z, table, atol=1e-12)  # every digit at both positions
    assert EN["learned.concat"].split("**")[1] in shown(at)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_induction_draws_both_heads_scores_over_training_and_layer_one(lang):
    values = {"task": "induction", "steps": 200, "learning_rate": 0.01}
    at = trained(lang, ("learned",), **values)
    run = the_run(**values)
    found = induction_curves(run)
    figure = chart(at, "train.chart.induction")
    words = catalog(lang)
    names = [trace["name"] for trace in figure["data"]]
    assert names == [
        words["learned.induction.previous"].format(head=1),
        words["learned.induction.prefix"].format(head=1),
    ]
    np.testing.assert_allclose(
        np.asarray(figure["data"][0]["y"], dtype=float), found.previous_token[:, 0]
    )
    np.testing.assert_allclose(
        np.asarray(figure["data"][1]["y"], dtype=float), found.prefix_matching[:, 0]
    )
    z, _, _ = drawn(at, "train.chart.layer1.0")
    np.testing.assert_allclose(z, run.snapshots[-1].layer_weights[0][0, 0], atol=1e-12)
    assert words["learned.first_layer"][:12] in shown(at)


# ---------------------------------------------------------------------------------------------
# Your own input


def typed(at: AppTest, task: str, text: str) -> AppTest:
    at.text_input(key=f"{state.PROBE}.{task}").input(text).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_row_the_dataset_does_not_hold_gets_the_rules_verdict():
    values = {"task": "lookup", "steps": 60, "d_model": 8}
    at = trained(folds=("input",), **values)
    task = compute.task_of("lookup", 0)
    row = "A→5 B→4 C→3 D→2 C?"
    ids = compute.parse_tokens(row, task).tokens
    for examples in (task, task.held_out):
        assert not (examples.inputs == ids).all(axis=1).any()
    typed(at, "lookup", row)
    answer = compute.answer(the_run(**values), task, ids)
    said = "right" if answer.predictions[0] == answer.expected[0] else "wrong"
    sentence = EN[f"learned.input.{said}"].format(expected="3", right=0, total=1)
    assert sentence in shown(at)


@pytest.mark.parametrize(
    ("row", "key", "numbers"),
    [
        ("A→5 B→4 C→3 D→2 F?", "lookup.absent", {"token": "F?", "letter": "F"}),
        ("A→5 A→4 C→3 D→2 C?", "lookup.duplicate", {"letter": "A", "first": 1, "second": 2}),
        ("A→5 3 C→3 D→2 C?", "lookup.misplaced_pair", {"position": 2, "token": "3"}),
    ],
)
def test_a_row_the_rule_cannot_answer_is_named_in_one_sentence(row, key, numbers):
    at = trained(folds=("input",), task="lookup", steps=20, d_model=8)
    typed(at, "lookup", row)
    assert EN[f"learned.input.{key}"].format(**numbers) in [str(w.value) for w in at.warning]


def test_the_step_by_step_has_outputs_on_rows_and_input_tokens_on_columns():
    at = trained(folds=("input",), task="previous", steps=20, d_model=8)
    typed(at, "previous", "3 1 4 1 5 9 2 6")
    z, x, y = drawn(at, "train.chart.step.weights_softmax")
    assert z.shape == (7, 8)  # 7 outputs × 8 input positions, as the snapshot heatmap
    assert x == ["1 · 3", "2 · 1", "3 · 4", "4 · 1", "5 · 5", "6 · 9", "7 · 2", "8 · 6"]
    assert y == x[1:]  # each output's query is read at positions 2 … 8


# ---------------------------------------------------------------------------------------------
# The hand-over at the default sizes


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_default_model_opens_on_the_multi_head_page_which_says_what_it_holds(lang):
    at = trained(
        lang, ("transfer",), task="reverse", steps=20
    )  # d_model 16, one head: the defaults
    assert not at.button(key="train.transfer.transformer").disabled
    at.button(key="train.transfer.transformer").click().run()
    assert not at.exception, [e.value for e in at.exception]
    words = catalog(lang)
    text = shown(at)
    assert words["learned.handover.note"].split("**")[1] in text
    assert words["learned.handover.x"].split("**")[2][:20] in text
    assert words["learned.handover.positions"] in text
    assert words["transformer.inputs.no_positions"] not in text
    luong_only = words["common.trained"].split("{step}")[1].split("{head}")[0]  # " (head "
    assert luong_only not in text  # the Luong page's sentence: one head, not the whole layer
    assert words["learned.handover.note_one"].split("{step}")[1][:12] in text


def test_the_fold_builds_the_cross_parts_and_the_d_by_d_matrix_only_when_opened():
    values = {"task": "reverse", "steps": 20, "d_model": 8}
    at = trained(folds=("learned",), **values)
    keys = {c.proto.id.rsplit("-", 1)[-1] for c in charts_of(at)}
    assert "train.chart.learned.0" not in keys and "train.chart.token_position.0" not in keys
    open_fold(at, "train.learned.fold")
    run = the_run(**values)
    parts = score_parts(run.params, run.score, run.heads, 0)
    z, _, _ = drawn(at, "train.chart.token_position.0")
    np.testing.assert_allclose(z, parts.token_position, atol=1e-12)  # digits × positions
    z, _, _ = drawn(at, "train.chart.position_token.0")
    np.testing.assert_allclose(z, parts.position_token, atol=1e-12)
    assert chart(at, "train.chart.learned.0")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_induction_row_whose_repeated_token_never_came_first_is_named(lang):
    at = trained(lang, ("input",), task="induction", steps=20)
    typed(at, "induction", "a b c d e f a b c d e p")
    sentence = catalog(lang)["learned.input.induction.absent"].format(token="p", position=12)
    assert sentence in [str(w.value) for w in at.warning]
    typed(at, "induction", "a b c d e f b c d e f a")  # a rotation the dataset may not hold
    assert not at.warning
    # after f (position 6) stands b, the first repeated token: the rule answers c d e f b b
    verdicts = [str(e.value) for e in (*at.success, *at.error)]
    assert len(verdicts) == 1 and "c d e f b b" in verdicts[0]


def test_the_learned_tables_follow_the_players_step():
    values = {"task": "reverse", "steps": 20, "d_model": 8}
    at = trained(folds=("learned",), **values)
    run = the_run(**values)
    step = int(run.snapshot_steps[1])  # an early snapshot, not the last
    choose_step(at, step)
    assert not at.exception, [e.value for e in at.exception]
    parts = score_parts(run.snapshot_at(step).params, run.score, run.heads, 0)
    final = score_parts(run.params, run.score, run.heads, 0)
    assert not np.allclose(parts.position_position, final.position_position)
    z, _, _ = drawn(at, "train.chart.positions.0")
    np.testing.assert_allclose(z, parts.position_position[compute.task_of("reverse", 0).read_at])
    assert EN["learned.title"].format(step=step) in [str(h.value) for h in at.header]
