"""Japanese wording in every catalog: the seeds' terms, one name per thing, one typography."""

from __future__ import annotations

import re

from attention_ui.kit.text.i18n import catalog

JA = catalog("ja")
_JAPANESE = "\u3040-\u30ff\u4e00-\u9fff"


def _keys_with(pattern: str) -> list[str]:
    return sorted(key for key, text in JA.items() if re.search(pattern, text))


def test_d2ls_section_title_is_quoted_as_the_seed_writes_it():
    assert not _keys_with("「クエリ、キー、バリュー」")
    assert "「クエリ、キー、値」" in JA["exercises.intro"]
    assert "「クエリ、キー、値」" in JA["regression.intro"]


def test_exact_match_is_genkitsu_itchi_as_in_the_seed():
    assert not _keys_with("完全一致|完全に一致")
    assert JA["exercises.match.similarity_name.exact"] == JA["database.similarity.exact"]


def test_a_cone_is_always_a_convex_cone():
    assert not _keys_with("(?<!凸)錐")


def test_special_cases_are_tokushu_keesu_as_in_the_seed():
    assert not _keys_with("特殊なケース")
    assert "特殊ケース" in JA["gallery.cases.title"]


def test_a_vanishing_gradient_is_called_shoushitsu():
    assert not _keys_with("消えない|消えて|生きて")
    assert "消失" in JA["exercises.grad.gone"]
    assert "消失" in JA["exercises.grad.alive"]


def test_the_jacobian_has_one_name():
    assert not _keys_with("ヤコビアン")
    assert "ヤコビ行列" in JA["exercises.grad.jac_name"]


def test_the_gallery_page_has_one_name():
    name = JA["gallery.menu"]
    assert JA["gallery.title"] == name
    mentions = [text for text in JA.values() if "ギャラリー" in text]
    assert mentions and all(text.count("ギャラリー") == text.count(name) for text in mentions)


def test_epanechnikov_is_written_in_katakana_in_every_sentence():
    assert not [
        key for key, text in JA.items() if "Epanechnikov" in text.replace("(Epanechnikov)", "")
    ]


def test_the_two_se_weights_reduce_and_restore_the_dimension():
    assert "次元を削減" in JA["exercises.se.step.se_reduce"]
    assert "次元を C に戻す" in JA["exercises.se.step.se_expand"]


def test_japanese_lists_use_the_ideographic_comma():
    beside_japanese = rf"[{_JAPANESE}」], |, [{_JAPANESE}「]"
    assert not _keys_with(beside_japanese)
    assert not _keys_with(r"\), \{rows\}|Q, K, V|\(d2l, PyTorch\)")


def test_one_typography_for_brackets_colons_and_marks():
    assert not _keys_with("[（）：？！]")


def test_the_scaling_demos_seed_draws_other_random_numbers():
    assert "「別の乱数」" in f"「{JA['luong.scaling.seed'].split('変えると')[1].rstrip(')')}」"


def test_learning_is_named_only_where_something_is_learned():
    learned = {
        "exercises.search",  # gradient descent moves q
        "exercises.grad.gone",  # q would be moved by training
        "engine.error.bad_learning_rate",
        "engine.error.learning_rate_too_large",
        "tasks.exercise_quick_search",
        "exercises.summary",
        "transformer.heads_grid",  # a trained Transformer learns its W's
        "home.why.concise",  # d2l: a layer with not too many parameters to learn
        "database.lessons.concise",
        "train.",  # the training page trains a model
        "train_service.",  # the training service's runs train it
        "watch.",  # the training page's one screen: a model trains
        "train.summary",
        "common.trained",  # matrices the training page trained
        "luong.trained.",  # the Luong page's example box and story for them
        "luong.trained_layers.",  # the story for a two-layer model's
        "lessons.offer.learn",  # the lesson on the training page, where a model learns
        "learned.",  # what the training page's model learned, and its weights elsewhere
        "tasks.train_",  # the training page's tasks train a model
        "tasks.reason.needs_lookup",
        "tasks.reason.needs_run",  # the exercise is checked on a trained run
    }
    stray = [
        key
        for key in _keys_with("学習(?!率)")
        if not any(key.startswith(prefix) for prefix in learned)
    ]
    assert not stray


def test_self_attention_and_the_decoder_have_one_name_each():
    assert not _keys_with("自己アテンション|デコーダ(?!ー)")
    assert "セルフアテンション" in JA["luong.preset.causal.name"]
