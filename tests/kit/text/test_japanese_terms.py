"""Japanese: the sources' own words where learners meet them, one term per idea."""

from __future__ import annotations

import re

import pytest

from attention_ui.kit.text.i18n import catalog

JA = catalog("ja")
EN = catalog("en")

# One word per idea: (a word the catalog must not use, the app's word, keys allowed the other).
# The app's words follow the seeds' where a learner meets both: the home page's glossary says
# that アテンション and バリュー are d2l's 注意機構 and 値.
TERMS = [
    ("注意モデル", "アテンションのモデル", ()),
    ("注意機構", "アテンション", ("home.intro",)),
    ("attention 研究", "アテンションの研究", ()),
    ("(キー、値)", "(キー、バリュー)", ()),
    ("average pooling", "平均プーリング", ()),
    ("Vaswani et al.", "Vaswani ら", ()),
    ("文字の組", "文字ペア", ()),
    ("違いえます", "違うことがあります", ()),
    # induction head: 帰納 reads as logical induction
    ("帰納", "インダクション", ()),
    # chance accuracy; 当て推量 read oddly
    ("当て推量", "チャンスレベル", ()),
    ("見ることのできない", "キーを見ない", ()),
    ("マルチヘッド・アテンションのページ", "マルチヘッド・セルフアテンションのページ", ()),
]


def test_the_home_page_glossary_gives_d2ls_words_beside_ours():
    intro = JA["home.intro"]
    assert "注意機構" in intro and "値" in intro
    assert "アテンション" in intro and "バリュー" in intro


def test_score_functions_carry_the_articles_names():
    assert JA["luong.score_name.dot"].startswith("ドットプロダクト・アテンション")
    assert JA["luong.score_name.scaled_dot"].startswith(
        "スケールド・ドットプロダクト・アテンション"
    )
    assert JA["luong.score_name.general"].startswith("ルオン一般アテンション")


def test_the_score_before_the_softmax_is_not_called_a_score_before_a_transformation():
    assert not [key for key, text in JA.items() if "変換前のスコア" in text]


def test_the_raw_score_is_the_sum_before_any_division_by_root_dk_or_tau():
    """The Σ row is k·q itself: before √d_k and τ, not merely before the softmax."""
    assert "ソフトマックス前のスコア" not in JA["luong.steps.raw_sum"]
    assert "√d_k や τ で割る前の生のスコア" in JA["luong.steps.raw_sum"]
    assert "before any division by √d_k or τ" in EN["luong.steps.raw_sum"]


def test_letter_pairs_have_one_name():
    assert not [key for key, text in JA.items() if "2 文字の組" in text]
    assert "文字ペア" in JA["database.similarity.ngram_help"]


@pytest.mark.parametrize(("avoided", "used", "allowed"), TERMS)
def test_one_japanese_word_per_idea(avoided, used, allowed):
    stray = {key: text for key, text in JA.items() if avoided in text and key not in allowed}
    assert not stray, f"write {used!r}: {stray}"


def test_a_step_with_one_english_title_has_one_japanese_title():
    """The Luong and regression steps share titles (exponentiate, divide by the sum, subtract
    each query's largest score): the twins must read the same in Japanese."""
    titles: dict[str, set[str]] = {}
    for key, text in EN.items():
        if key.startswith("engine.step.") and key.endswith(".title"):
            titles.setdefault(text, set()).add(JA[key])
    assert {text: ja for text, ja in titles.items() if len(ja) > 1} == {}


def test_a_value_is_the_same_word_in_a_sentence_and_its_label():
    """バリュー for the value vectors, as the tables and charts name them."""
    for key in ("database.lessons.size", "exercises.grad.source_default"):
        assert "バリュー" in JA[key] and "値" not in JA[key].replace("数値", ""), key


def test_the_multi_head_page_is_called_by_its_whole_name_in_its_title_and_menu():
    """Both parts of the name, multi-head and self-attention, in the title and the menu (the
    menu once said only セルフアテンション: its box was 200 px at 1400 and the whole name 224;
    the sidebar is now wide enough, attention_ui/frame.py SIDEBAR_WIDTH)."""
    for key in ("transformer.title", "transformer.menu", "train.transfer.transformer"):
        assert "multi-head self-attention" in EN[key].lower(), key
        assert "マルチヘッド・セルフアテンション" in JA[key], key


def test_no_japanese_sentence_cites_with_et_al():
    """ "Mnih et al." stood beside "Vaswani ら": every citation says ら."""
    assert not [key for key, text in JA.items() if "et al." in text]
    assert "Mnih ら" in JA["exercises.search.hard_reinforcement"]


def test_a_pair_is_a_pea_as_in_the_seed():
    """d2l writes (キー、値) ペア; the training page said 組 where the database page says ペア."""
    pattern = re.compile("組(?![みこ])")  # 仕組み, 枠組み, 組み込み are not pairs
    assert not [key for key, text in JA.items() if pattern.search(text)]
    assert "ペア" in JA["train.settings.task_help"] and "ペア" in JA["train.input.help"]


def test_the_toy_task_and_the_exercise_are_two_words():
    """タスク is what the model learns (the select box, the engine's error, the pages its
    weights are handed to), 課題 the exercise the tasks panel checks;
    tasks.reason.needs_lookup speaks of both."""
    assert JA["train.settings.task"] == "タスク"
    assert "タスク" in JA["engine.error.unknown_task"]
    toy_task = ("train.", "learned.", "common.trained", "luong.trained.")  # the model's task
    assert not [key for key, text in JA.items() if key.startswith(toy_task) and "課題" in text]
    assert "タスク「{task}」" in JA["common.trained"]
    assert "課題" in JA["tasks.reason.needs_lookup"] and "タスク" in JA["tasks.reason.needs_lookup"]
    assert JA["tasks.title"].endswith("課題")


def test_the_value_is_a_baryu_in_the_task_help():
    help_text = JA["train.settings.task_help"]
    assert "バリュー" in help_text and "値" not in help_text.replace("数値", "")


def test_induction_is_called_as_in_induction_head():
    assert JA["train.settings.task_options.induction"].startswith("インダクション")
    assert "インダクション" in JA["train.settings.task_help"]
