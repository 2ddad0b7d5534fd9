"""The database page's sentences hold for its numbers, in English and Japanese, and
d2l's lessons: top-k retrieval, what the example teaches, the caution that a large weight is
only an intuition."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attention_core import lookup
from attention_core.formatting import fmt
from attention_core.lookup import SIMILARITIES, similarity_score, top_k
from attention_ui.database import state
from attention_ui.database.tasks import TASKS as DATABASE_TASKS
from attention_ui.database.view import lesson_lines, top_k_lines
from attention_ui.exercises.tasks import TASKS as EXERCISE_TASKS
from attention_ui.gallery.tasks import TASKS as GALLERY_TASKS
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.teaching.predict import NO_WINNER
from attention_ui.kit.text.i18n import LANGUAGES, catalog, t
from attention_ui.kit.text.markdown import escape_markdown
from attention_ui.luong.tasks import TASKS as LUONG_TASKS
from tests.support.pages import open_page, shown

# --- 13 · no record is the right guess where there is no valid answer ------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_guessing_no_record_for_a_query_sharing_nothing_is_right(lang):
    at = open_page("database", lang)
    at.text_input(key=state.QUERY.key).set_value("xyz")
    at.radio(key=state.SIMILARITY.key).set_value("ngram").run()
    result = lookup(D2L_RECORDS, "xyz", "ngram", temperature=0.1)
    assert not result.valid and np.allclose(result.weights, 1 / 6)  # uniform, yet no answer
    at.toggle(key="database.predict").set_value(True).run()
    (question,) = [w for w in at.selectbox if w.key.startswith("database.predict.guess.0.")]
    question.set_value(NO_WINNER)
    at.button(key="database.predict.reveal").click().run()
    assert not at.exception
    text = shown(at)
    assert t("predict.score", lang, right=1, total=1) in text
    assert t("database.answer.none_approximate", lang, query="xyz") in text  # the same screen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_guessing_a_record_for_a_query_sharing_nothing_is_wrong(lang):
    at = open_page("database", lang)
    at.text_input(key=state.QUERY.key).set_value("xyz")
    at.radio(key=state.SIMILARITY.key).set_value("ngram").run()
    at.toggle(key="database.predict").set_value(True).run()
    (question,) = [w for w in at.selectbox if w.key.startswith("database.predict.guess.0.")]
    question.set_value(2)
    at.button(key="database.predict.reveal").click().run()
    text = shown(at)
    assert t("predict.score", lang, right=0, total=1) in text
    chosen_weight = t("predict.chosen_weight", lang, weight=fmt(1 / 6))  # the weight shown
    assert chosen_weight in text


# --- 29 · every task's words are complete ----------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_task_shows_an_unfilled_placeholder(lang):
    for task in (*LUONG_TASKS, *DATABASE_TASKS, *GALLERY_TASKS, *EXERCISE_TASKS):
        for part in ("name", "goal"):  # shown as they are, with no parameters
            text = t(f"tasks.{task.id}.{part}", lang)
            assert "{" not in text and "}" not in text, (task.id, part, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_average_pooling_task_reads_without_braces_on_the_page(lang):
    at = open_page("database", lang)
    goal = t("tasks.database_uniform.goal", lang)
    assert goal in shown(at) and "{m}" not in shown(at)


# --- 30 · the pooled number names the column it averages ----------------------------------------


@pytest.mark.parametrize(("lang", "column"), [("en", "Number"), ("ja", "数値")])
def test_the_pooled_number_names_the_number_column(lang, column):
    words = catalog(lang)
    assert words["database.table.number"].startswith(column)
    assert f"{column} column" in words["database.pooled.number_title"] or (
        f"{column}列" in words["database.pooled.number_title"]
    )
    assert "score column" not in words["database.pooled.number_title"]
    assert "点数列" not in words["database.pooled.number_title"]


# --- top-k retrieval ----------------------------------------------------------------------------


TABLES = {
    "d2l": D2L_RECORDS,
    "no Li": [r for r in D2L_RECORDS if r[0] != "Li"],
    "Li twice": [*D2L_RECORDS, ("Li", "Ann", 1.0)],
    "equal keys": [("Ann", "a"), ("Anna", "b"), ("Anne", "c")],
}


def test_every_top_k_sentence_holds_for_the_engines_numbers():
    seen = set()
    for (name, records), query, k, similarity, lang in itertools.product(
        TABLES.items(), ("Li", "xyz", "Ann", "Smola"), (1, 2, 3, 10), SIMILARITIES, LANGUAGES
    ):
        result = top_k(records, query, k, similarity)
        rows = list(range(1, len(records) + 1))
        lines = top_k_lines(result, rows, lang)
        state_ = (name, query, k, similarity, lang)
        found = len(result.indices)
        items = lines[:found]
        for rank, (line, i) in enumerate(zip(items, result.indices, strict=True), start=1):
            assert line == t(
                "database.topk.item", lang, rank=rank, name=escape_markdown(records[i][0], 40),
                value=escape_markdown(records[i][1], 40), row=i + 1, score=fmt(result.scores[i]),
            ), state_  # fmt: skip
        rest = lines[found:]
        none = t("database.topk.none", lang, query=query)
        fewer_key = "database.topk.fewer_one" if found == 1 else "database.topk.fewer"
        fewer = t(fewer_key, lang, query=query, found=found, k=k)
        assert (none in rest) == (found == 0), state_
        assert (fewer in rest) == (0 < found < k), state_
        positive = int((result.scores > 0).sum())
        assert found == min(k, positive), state_
        cut = result.scores[result.indices[-1]] if found else None
        tie_line = t("database.topk.tie", lang, score=fmt(cut)) if found else None
        tied = found and any(
            result.scores[i] == cut for i in range(len(records)) if i not in result.indices
        )
        assert (tie_line in rest) == bool(tied), state_
        assert rest[-1] == t("database.topk.contrast", lang)
        seen |= {"none"} if found == 0 else {"fewer"} if found < k else {"full"}
        seen |= {"tie"} if tied else set()
        seen |= {"one"} if 0 < found == 1 < k else set()
    assert seen == {"none", "fewer", "full", "tie", "one"}


def test_one_key_is_one_key():
    assert "Only 1 key scores above 0" in t("database.topk.fewer_one", "en", query="x", k=3)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_lists_the_top_k_records_for_each_query(lang):
    at = open_page("database", lang)
    at.button(key="database.story.3").click().run()  # no (Li, Mu), letter pairs
    at.number_input(key=state.TOP_K.key).set_value(1).run()
    text = shown(at)
    zero = t("database.topk_zero.ngram", lang)
    assert t("database.topk.title", lang, k=1, zero=zero) in text
    row = [r[0] for r in state.WITHOUT_LI].index("Lipton") + 1
    score = fmt(top_k(state.WITHOUT_LI, "Li", 1).scores[row - 1])
    item = t(
        "database.topk.item", lang, rank=1, name="Lipton", value="Zachary", row=row, score=score
    )
    assert item in text


# A pair of names that scores 0 under each similarity although they share letters (exact: any
# two different names), as the top-k title's sentence for that similarity says.
ZERO_EXAMPLES = {"exact": ("Li", "Lipton"), "ngram": ("Li", "Il"), "edit": ("Ab", "Ba")}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("similarity", SIMILARITIES)
def test_the_top_k_title_says_what_a_zero_score_means_under_the_chosen_similarity(lang, similarity):
    """ "A key that scores 0 shares nothing with the query" was false under edit distance:
    "Ab" scores 0 against "Ba" although they share both letters."""
    query, key = ZERO_EXAMPLES[similarity]
    assert similarity_score(query, key, similarity) == 0
    assert set(query.lower()) & set(key.lower())  # they share letters, and still score 0
    sentence = t(f"database.topk_zero.{similarity}", lang)
    if similarity != "exact":
        assert query in sentence and key in sentence
    at = open_page("database", lang)
    at.radio(key=state.SIMILARITY.key).set_value(similarity).run()
    text = shown(at)
    assert t("database.topk.title", lang, k=state.TOP_K.default, zero=sentence) in text
    others = [t(f"database.topk_zero.{s}", lang) for s in SIMILARITIES if s != similarity]
    assert not any(other in text for other in others)


# --- d2l's lessons and caution --------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lessons_of_the_example_are_shown_with_the_engines_answers(lang):
    first = lookup(D2L_RECORDS, "Li", "exact")
    second = lookup(state.WITHOUT_LI, "Li", "ngram", temperature=0.1)
    assert first.best == ("Li", "Mu") and second.best == ("Lipton", "Zachary")
    assert not lookup(state.WITHOUT_LI, "Li", "exact").valid
    contents = t("database.lessons.contents", lang, first="Mu", name="Lipton", second="Zachary")
    assert contents in lesson_lines(6, lang)
    assert t("database.lessons.size", lang, m=6) in lesson_lines(6, lang)
    assert t("database.lessons.size", lang, m=6) not in lesson_lines(0, lang)
    at = open_page("database", lang)
    assert t("database.lessons.title", lang) in [e.label for e in at.expander]
    assert not any(line in shown(at) for line in lesson_lines(6, lang))  # folded: not built
    at.session_state["database.lessons"] = True
    text = shown(at.run())
    for line in lesson_lines(6, lang):
        assert line in text


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "only an intuition"), ("ja", "あくまで直感にすぎません")]
)
def test_the_page_says_a_large_weight_is_only_an_intuition(lang, words):
    at = open_page("database", lang)
    caution = t("database.answer.intuition", lang)
    assert words in caution and caution in shown(at)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("query", "k"), [("xyz", 3), ("Li", 6)])
def test_top_k_leaving_out_zero_scores_is_said_to_be_this_pages_convention(lang, query, k):
    """d2l names top-k and no more; that a key scoring 0 is left out is the app's rule, and the
    page says so where it shows (nothing found, or fewer than k)."""
    records = [record[:2] for record in D2L_RECORDS]
    result = top_k(records, query, k)
    assert len(result.indices) < k and (result.scores[list(result.indices)] > 0).all()
    said = " ".join(top_k_lines(result, list(range(1, len(records) + 1)), lang))
    convention = "this page's top-k leaves out" if lang == "en" else "このページの top-k はスコア 0"
    assert convention in said
    title = catalog(lang)["database.topk.title"]
    assert ("This page's convention" if lang == "en" else "このページの約束") in title


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lessons_end_with_d2ls_few_parameters_and_differentiable_selection(lang):
    """d2l after the example: the query can be concise however large the space ("not too many
    parameters to learn"), and its summary: a differentiable means to select from a set."""
    lines = lesson_lines(6, lang)
    assert lines[-2:] == [t("database.lessons.concise", lang), t("database.lessons.select", lang)]
    assert lesson_lines(6, lang, answers=False)[-2:] == lines[-2:]
    concise, select = lines[-2:]
    if lang == "en":
        assert "too many parameters to learn" in concise and "*differentiable*" in select
    else:
        assert "学習すべきパラメータは多すぎず" in concise and "*微分可能*" in select


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("in jumps", "whatever τ", "shared equally")),
        ("ja", ("飛び飛び", "τ によらず", "等分")),
    ],
)
def test_the_selection_sentence_says_a_typed_query_jumps_and_exact_matching_ignores_tau(
    lang, words
):
    """It said the weights "move smoothly" when the query or τ changes: a typed query is text
    (the weights jump from one query to the next) and exact matching ignores τ."""
    records = [record[:2] for record in D2L_RECORDS]
    near_tau = [lookup(records, "Li", "ngram", temperature=tau).weights for tau in (1.0, 1.01)]
    assert np.abs(near_tau[0] - near_tau[1]).max() < 0.01  # a small change of τ: a small move
    one_letter = [lookup(records, query, "ngram").weights for query in ("Li", "Hi")]
    assert np.abs(one_letter[0] - one_letter[1]).max() > 0.1  # one letter typed: a jump
    exact = [lookup(records, "Li", "exact", temperature=tau).weights for tau in (0.1, 10.0)]
    assert np.array_equal(*exact)
    # "each key 1 or 0" was false for a key stored twice: the two share the weight equally
    twice = lookup([*records, ("Li", "Wei")], "Li", "exact", temperature=0.1).weights
    assert sorted(twice[twice > 0]) == [0.5, 0.5] and twice.sum() == 1
    select = t("database.lessons.select", lang)
    assert all(word in select for word in words), select
