"""One name for one thing across the catalogs: the transformer page's menu entry is its
title, the Japanese catalog names the (scaled) dot-product attention as the seed does, and
writes a numeric range one way ("2 から 12 まで")."""

from __future__ import annotations

import re

import pytest

from attention_ui.kit.text.i18n import catalog

JA = catalog("ja")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_transformer_pages_menu_name_is_its_title(lang):
    words = catalog(lang)
    assert words["nav.transformer"] == words["transformer.title"]


def test_japanese_calls_dot_product_attention_by_the_seeds_name_only():
    said = {key: text for key, text in JA.items() if "ドット積" in text}
    assert not said, said  # the seed: ドットプロダクト・アテンション
    assert "スケールド・ドットプロダクト・アテンション" in JA["luong.preset.large_d.why"]


def test_japanese_writes_numeric_ranges_as_kara_made():
    number = r"(?:[0-9.−]+|\{[a-z_]+\})"
    other_forms = re.compile(rf"{number} ?[〜～~] ?{number}|{number} から {number} の間")
    said = {key: text for key, text in JA.items() if other_forms.search(text)}
    assert not said, said
