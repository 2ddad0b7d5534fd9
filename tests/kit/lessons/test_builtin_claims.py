"""Every claim a built-in lesson's question makes holds for its step's state: each is computed
here with attention_core from the state the step sets (read by the page's own schema, as the bar
sets it), not copied from the lesson. A new step with a question fails until it has a check."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from attention_core import AttentionInputError, attention, lookup, toy_task, train_attention
from attention_ui.database import state as database
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.lessons.builtin import IDS, builtin
from attention_ui.kit.share.codec import decode
from attention_ui.luong.presets import PRESETS
from attention_ui.page_list import SCHEMAS
from attention_ui.train import state as train
from tests.kit.text.test_japanese_terms import TERMS


def lesson(lesson_id: str):
    opened = builtin(lesson_id, SCHEMAS)
    assert opened.problem is None and opened.left_out == [], opened.left_out
    return opened.lesson


def values(step) -> dict:
    decoded = decode(SCHEMAS[step.page], step.params)
    assert decoded.ignored == []
    return decoded.values


def right_and_wrong(step) -> tuple[str, list[str]]:
    """The right option's English text, and the wrong ones'."""
    options = step.question.options
    assert sum(o.right for o in options) == 1
    return (
        next(o.text.get("en") for o in options if o.right),
        [o.text.get("en") for o in options if not o.right],
    )


# -- lookup: the database page ------------------------------------------------------------


def looked_up(step):
    v = values(step)
    records = v.get(database.RECORDS, D2L_RECORDS)
    return lookup(
        records,
        v[database.QUERY.key],
        v[database.SIMILARITY.key],
        v[database.TEMPERATURE.key],
        v[database.NORMALIZATION.key],
    )


def weight_of(result, key: str) -> float:
    return float(
        next(w for r, w in zip(result.records, result.weights, strict=True) if r.key == key)
    )


def lookup_1(step):
    r = looked_up(step)
    assert weight_of(r, "Li") == 1 and weight_of(r, "Lipton") == 0
    assert sorted(r.weights) == [0, 0, 0, 0, 0, 1] and r.best == ("Li", "Mu")


def lookup_2(step):
    r = looked_up(step)
    assert "Li" not in [rec.key for rec in r.records]
    assert not r.valid and r.best is None and not r.weights.any()


def lookup_3(step):
    r = looked_up(step)
    assert r.best == ("Lipton", "Zachary")
    assert round(weight_of(r, "Lipton"), 2) == 0.75
    others = [w for rec, w in zip(r.records, r.weights, strict=True) if rec.key != "Lipton"]
    assert all(round(float(w), 2) == 0.06 for w in others) and weight_of(r, "Hu") > 0


def lookup_4(step):
    r = looked_up(step)
    score = float(r.scores[[rec.key for rec in r.records].index("Lipton")])
    assert score == 0.25 and sorted(r.scores)[:-1] == [0, 0, 0, 0]
    assert round(weight_of(r, "Lipton"), 2) == 0.75 and r.scores.sum() != 1


def lookup_5(step):
    r = looked_up(step)
    assert round(weight_of(r, "Lipton"), 2) == 0.20 and np.allclose(r.weights, 0.2, atol=0.005)


def lookup_6(step):
    r = looked_up(step)
    assert len(r.records) == 5 and np.allclose(r.weights, 1 / 5, atol=0.005)
    numbers = [rec.number for rec in r.records]
    assert abs(r.pooled_number - np.mean(numbers)) < 0.5 and (r.weights > 0).all()


def lookup_7(step):
    r = looked_up(step)
    assert weight_of(r, "Lipton") == 1 and sorted(r.weights)[:-1] == [0, 0, 0, 0]
    softmax_at_1 = np.exp(0.25) / (np.exp(0.25) + 4)
    assert round(float(softmax_at_1), 2) == 0.24


def lookup_8(step):
    r = looked_up(step)
    numbers = [rec.number for rec in r.records]
    assert (min(numbers), max(numbers), np.mean(numbers)) == (10, 60, 36)
    assert (
        r.best == ("Lipton", "Zachary")
        and dict(zip([x.key for x in r.records], numbers, strict=True))["Lipton"] == 20
    )
    assert min(numbers) < r.pooled_number < np.mean(numbers) and round(r.pooled_number) == 35


# -- luong: the Luong page ------------------------------------------------------------------


def luong_result(step, score: str | None = None, **changes):
    v = values(step)
    preset = PRESETS[v["luong.preset"]]
    m = {**preset.column_matrices(), **changes}
    score = score or v["luong.score"]
    extra = {"general": {"W": m["W"]}, "concat": {"Wa": m["Wa_concat"], "va": m["va"]}}
    extra["location"] = {"Wa": m["Wa_location"]}
    return attention(m["Q"], m["K"], m["V"], score, **extra.get(score, {}))


def luong_1(step):
    r = luong_result(step)
    assert r.scores[:, 0].tolist() == [2, 0.5, -2]
    assert np.argmax(r.weights[:, 0]) == 0
    assert [round(float(w), 2) for w in r.weights[:, 0]] == [0.81, 0.18, 0.01]


def luong_2(step):
    r = luong_result(step)
    assert r.scores[:, 0].sum() == 0.5 and not np.allclose(r.scores[:, 0], r.weights[:, 0])
    assert round(float(np.exp(2) / np.exp([2, 0.5, -2]).sum()), 2) == 0.81


def luong_3(step):
    scaled, dot = luong_result(step), luong_result(step, "dot")
    assert values(step)["luong.score"] == "scaled_dot" and scaled.weights.shape[0] == 3
    assert (
        round(float(scaled.weights.max()), 2) == 0.62 and round(float(dot.weights.max()), 2) == 0.88
    )
    assert np.argmax(scaled.weights[:, 0]) == np.argmax(dot.weights[:, 0])


def luong_4(step):
    r = luong_result(step)
    assert np.argmax(r.weights[:, 0]) == 1 and r.scores[1, 0] == 3 and r.scores[0, 0] == 0
    assert round(float(r.weights[1, 0]), 2) == 0.91
    assert np.argmax(luong_result(step, "dot").scores[:, 0]) == 0  # dot: k1 · q1 = 3


def luong_5(step):
    preset = PRESETS[values(step)["luong.preset"]]
    assert (preset.sizes.d_q, preset.sizes.d_k) == (2, 3)
    assert luong_result(step).weights.shape == (3, 2)
    with pytest.raises(AttentionInputError):
        luong_result(step, "dot")


def luong_6(step):
    k = PRESETS[values(step)["luong.preset"]].column_matrices()["K"].copy()
    k[0, 0] = 3.0  # one cell of K changed
    a, b = luong_result(step), luong_result(step, K=k)
    assert np.array_equal(a.scores, b.scores) and np.array_equal(a.weights, b.weights)
    assert not np.array_equal(
        luong_result(step, "dot").weights, luong_result(step, "dot", K=k).weights
    )


def luong_7(step):
    v = values(step)
    m = PRESETS[v["luong.preset"]].column_matrices()
    assert v["luong.layout"] == "row"
    rows = attention(m["Q"].T, m["K"].T, m["V"].T, "dot", layout="row")
    columns = attention(m["Q"], m["K"], m["V"], "dot")
    np.testing.assert_allclose(rows.weights, columns.weights.T)
    assert [round(float(w), 2) for w in rows.weights[0]] == [0.81, 0.18, 0.01]
    np.testing.assert_allclose(rows.weights.sum(axis=1), 1)
    assert not np.isclose(rows.weights[:, 0].sum(), 1)


# -- learn: the training page (the run the page trains for these settings) --------------------


@functools.cache
def trained(task: str, score: str, seed: int, steps: int, heads: int, d_model: int, lr: float):
    return train_attention(
        toy_task(task, size=256, seed=seed),
        score=score,
        heads=heads,
        d_model=d_model,
        steps=steps,
        learning_rate=lr,
        seed=seed,
        record_every=max(1, steps // 100),
    ), toy_task(task, size=256, seed=seed)


def run_of(step, score: str | None = None):
    v = values(step)
    return trained(
        v[train.TASK.key],
        score or v[train.SCORE.key],
        v[train.SEED.key],
        v[train.STEPS.key],
        v[train.HEADS.key],
        v[train.D_MODEL.key],
        v[train.LEARNING_RATE.key],
    )


def snapshot(run, step: int):
    return next(s for s in run.snapshots if s.step == step)


def on_target_share(snap, task) -> float:
    """The share of probe outputs whose largest weight is on the position the task names."""
    weights = snap.weights[:, 0]  # probe × T × L
    return float(np.mean(weights.argmax(-1) == task.attend[: len(weights)]))


def learn_1(step):
    run, _ = run_of(step)
    assert values(step)[train.STEP] == 0 and snapshot(run, 0).on_target < 0.5


def learn_2(step):
    run, task = run_of(step)
    final = snapshot(run, values(step)[train.STEP])
    assert final.accuracy > 0.95 and on_target_share(final, task) > 0.95


def learn_3(step):
    run, _ = run_of(step)
    best, _ = run_of(step, "scaled_dot")
    assert values(step)[train.SCORE.key] == "location"
    assert run.accuracy[-1] < 0.5 and best.accuracy[-1] > 0.95


def learn_4(step):
    run, task = run_of(step)
    final = snapshot(run, values(step)[train.STEP])
    length = task.inputs.shape[1]
    assert (task.attend[0] == length - 1 - np.arange(task.attend.shape[1])).all()
    assert on_target_share(final, task) > 0.95


def learn_5(step):
    run, _ = run_of(step)
    first = snapshot(run, values(step)[train.STEP]).layer_weights[0][:, 0]  # probe × L × L
    length = first.shape[-1]
    back = first.argmax(-1)[:, 1:] == np.arange(length - 1)[None, :]
    assert len(snapshot(run, 600).layer_weights) == 2 and back.mean() > 0.5


def learn_6(step):
    assert values(step)[train.COMPARED] is True
    for score in ("dot", "scaled_dot", "general", "concat"):
        assert run_of(step, score)[0].accuracy[-1] > 0.95, score
    assert run_of(step, "location")[0].accuracy[-1] < 0.5


CHECKS = {
    f"{name.replace('_', '.')}": check
    for name, check in globals().items()
    if name.startswith(("lookup_", "luong_", "learn_"))
}
QUESTIONS = [
    (lesson_id, number)
    for lesson_id in IDS
    for number, step in enumerate(lesson(lesson_id).steps, start=1)
    if step.question is not None
]


@pytest.mark.parametrize(("lesson_id", "number"), QUESTIONS, ids=[f"{i}.{n}" for i, n in QUESTIONS])
def test_each_questions_claims_hold_for_its_steps_state(lesson_id, number):
    step = lesson(lesson_id).steps[number - 1]
    right_and_wrong(step)
    CHECKS[f"{lesson_id}.{number}"](step)


@pytest.mark.parametrize("lesson_id", IDS)
def test_each_built_in_lesson_has_6_to_10_steps_in_both_languages_with_questions(lesson_id):
    steps = lesson(lesson_id).steps
    assert 6 <= len(steps) <= 10
    assert sum(step.question is not None for step in steps) >= len(steps) - 1
    for step in steps:
        texts = [step.prompt, step.question.text, *(o.text for o in step.question.options)]
        texts += [o.feedback for o in step.question.options]
        for text in texts:
            assert dict(text.by_lang).keys() == {"en", "ja"}


def test_the_wrong_options_name_the_misconceptions_the_issue_lists():
    wrong = " ".join(
        w
        for lesson_id in IDS
        for step in lesson(lesson_id).steps
        if step.question
        for w in right_and_wrong(step)[1]
    )
    for misconception in (
        "the weights are the scores",
        "a larger τ sharpens",
        "attention picks one",
    ):
        assert misconception in wrong


def test_the_japanese_of_the_built_in_lessons_uses_the_apps_one_word_per_idea():
    texts = []
    for lesson_id in IDS:
        for step in lesson(lesson_id).steps:
            texts.append(step.prompt.get("ja"))
            if step.question is not None:
                texts.append(step.question.text.get("ja"))
                texts += [o.text.get("ja") for o in step.question.options]
                texts += [o.feedback.get("ja") for o in step.question.options]
    for avoided, used, _ in TERMS:
        assert not [text for text in texts if avoided in text], f"write {used!r}"
    assert not [text for text in texts if "一般アテンション" in text.replace("ルオン一般", "")]
