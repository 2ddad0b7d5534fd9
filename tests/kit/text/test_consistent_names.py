"""One name for one thing across the catalogs: the transformer page's menu entry is its
title, the Japanese catalog names the (scaled) dot-product attention as the seed does, names
every score function in Japanese (an English name only as a gloss in brackets or quotes), and
writes a numeric range one way ("2 から 12 まで")."""

from __future__ import annotations

import re

import pytest

from attention_ui.kit.text.i18n import catalog

JA = catalog("ja")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_transformer_pages_menu_name_is_its_title(lang):
    words = catalog(lang)
    assert words["transformer.menu"] == words["transformer.title"]


def test_japanese_calls_dot_product_attention_by_the_seeds_name_only():
    said = {key: text for key, text in JA.items() if "ドット積" in text}
    assert not said, said  # the seed: ドットプロダクト・アテンション
    assert "スケールド・ドットプロダクト・アテンション" in JA["luong.preset.large_d.why"]


def test_japanese_writes_numeric_ranges_as_kara_made():
    number = r"(?:[0-9.−]+|\{[a-z_]+\})"
    other_forms = re.compile(rf"{number} ?[〜～~] ?{number}|{number} から {number} の間")
    said = {key: text for key, text in JA.items() if other_forms.search(text)}
    assert not said, said


# An English score function's name, as a word of its own (not inside a key such as scaled_dot).
ENGLISH_SCORE = re.compile(
    r"(?<![A-Za-z_])(general|concat|location|dot|scaled|additive|multiplicative)(?![A-Za-z_])",
    re.IGNORECASE,
)
GLOSS = re.compile(r"\([^()]*\)|「[^」]*」|\{[^}]*\}|`[^`]*`")  # (concat), 「concat」, {names}


def test_japanese_names_every_score_function_in_japanese():
    """「general スコア」 left the Luong score's name in English where the select box offers
    「ルオン一般アテンション」; an English name is kept only as a gloss, 「連結 (concat)」."""
    said = {key: text for key, text in JA.items() if ENGLISH_SCORE.search(GLOSS.sub("", text))}
    assert not said, said


def test_the_task_that_needs_the_general_score_names_the_select_boxs_option():
    assert f"「{JA['luong.score_name.general']}」" in JA["tasks.reason.needs_general"]


# The grid editor's buttons as it draws them (static/cell_grid.js): the add-row button's label
# from the catalog, and "−" on each row's delete button. The sentences telling a learner how to
# add and delete rows name those buttons (they spoke of a tick and a bin: st.data_editor's).
GRID_HELPS = ("database.table.help", "regression.data.table_help")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("key", GRID_HELPS)
def test_the_grids_help_names_its_add_and_delete_buttons(lang, key):
    words = catalog(lang)
    add = words["editor.grid.add_row"]
    shown = words[key].format(add=add, limit=50)
    assert add in shown and "−" in shown, shown
    assert not re.search(r"\b(tick|bin|select)|チェック|ごみ箱|選択|選ん", shown), shown


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_worked_solution_opens_with_the_same_words(lang):
    """Two solutions opened with 「**解答。**」 where every other said 「**解答例.**」."""
    opening = {"en": "**Solution.** ", "ja": "**解答例.** "}[lang]
    solutions = {
        k: v for k, v in catalog(lang).items() if k.startswith("tasks.") and k.endswith(".solution")
    }
    assert solutions
    assert {k: v[:12] for k, v in solutions.items() if not v.startswith(opening)} == {}


# The training page's words that name a score function by a short name: each must say the
# select box's label (engine.value.score.*), not スケールド・ドット, 一般 or 連結 alone.
SHORT_SCORE_NAMES = re.compile(
    "スケールド・ドット(?!プロダクト)|(?<!ルオン)一般(?!的)|連結(?!アテンション)|(?<![ドルド])ドット(?!プロダクト)"
)


def test_the_training_pages_sentences_name_score_functions_as_the_select_box_does():
    labels = [
        JA[f"engine.value.score.{name}"] for name in ("dot", "scaled_dot", "general", "concat")
    ]
    assert all(label in JA["train.settings.score_help"] for label in labels)
    said = {
        key: text
        for key, text in JA.items()
        if key.startswith(("train.", "tasks.train_", "learned.")) and SHORT_SCORE_NAMES.search(text)
    }
    assert not said, said
