"""Japanese: the sources' own words where learners meet them, one term per idea."""

from __future__ import annotations

from attention_ui.kit.text.i18n import catalog

JA = catalog("ja")


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
    assert "ソフトマックス前のスコア" in JA["luong.steps.raw_sum"]


def test_letter_pairs_have_one_name():
    assert not [key for key, text in JA.items() if "2 文字の組" in text]
    assert "文字ペア" in JA["database.similarity.ngram_help"]
