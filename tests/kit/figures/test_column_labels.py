"""A heatmap's column labels never run into each other on a phone: level on one line while
they fit side by side (about 260 px of a phone's chart), a token's label as its number over its
word when that fits (the Japanese sentence's '3 · マット' crowded its neighbours in a head's
block of 5 keys), else upright; the columns themselves stay the labels (hover, table)."""

from __future__ import annotations

import numpy as np

from attention_ui.kit.figures.heatmap import column_labels, heatmap, label_px
from attention_ui.transformer.model import EXAMPLES, split_sentence, token_labels

JA = token_labels(split_sentence(EXAMPLES["ja"]).tokens)  # 10 tokens: blocks of 5 keys


def test_a_japanese_block_of_five_tokens_writes_each_number_over_its_word():
    block = JA[:5]
    assert len(block) * label_px(max(block, key=label_px)) > 260  # one line each: crowded
    settings, band = column_labels(block)
    assert settings["ticktext"][2] == "3<br>マット" and settings["tickvals"] == block
    assert band >= 32  # room for the two lines above the cells


def test_the_heatmap_keeps_its_columns_and_shows_the_two_line_text():
    figure = heatmap(np.eye(5), JA[:5], JA[:5]).figure.to_dict()
    xaxis = figure["layout"]["xaxis"]
    assert list(figure["data"][0]["x"]) == JA[:5]  # what hover and the table read
    assert xaxis["tickvals"] == JA[:5] and "<br>" in xaxis["ticktext"][0]
    assert "tickangle" not in xaxis


def test_short_labels_stay_level_and_long_ones_that_crowd_stand_upright():
    assert column_labels(["k1", "k2", "k3"]) == ({}, 18)
    assert column_labels(["1", "2", "3", "4"]) == ({}, 18)
    settings, band = column_labels([f"x{i} = 1.23" for i in range(1, 7)])  # 6 of 70 px
    assert settings == {"tickangle": -90} and band >= 60
    # a token too long for two lines either: upright
    assert column_labels([f"{i} · sentence" for i in range(1, 6)])[0] == {"tickangle": -90}
