"""The claim walk of the exercises' sentences that the older walk (tests/ui/
test_claim_walk_pages.py: the gradient's size, the search's outcome) does not cover: exercise 1's
answer over tables, queries, similarities and τ (ties, identical keys, queries sharing nothing),
the SE gates over feature maps (sums, saturated gates). Each sentence is built by the page's
pure function and must hold for the engine's numbers where it is shown."""

from __future__ import annotations

import itertools

import numpy as np

from attention_core import SIMILARITIES, fmt, lookup, squeeze_excitation
from attention_ui.exercises.matching import match_notes
from attention_ui.exercises.squeeze import gate_notes
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.teaching.predict import winners_of
from attention_ui.kit.text.i18n import LANGUAGES, t
from attention_ui.kit.text.markdown import escape_markdown

TABLES = {
    "d2l": D2L_RECORDS,
    "no Li": [r for r in D2L_RECORDS if r[0] != "Li"],
    "Li twice": [*D2L_RECORDS, ("Li", "Mu")],
    "all keys equal": [("Li", "Mu"), ("Li", "Ann"), ("Li", "Bo")],
    "Japanese": [("山田", "太郎"), ("山本", "花子"), ("田中", "一郎")],
}
QUERIES = ("Li", "xyz", "Lipton", "li", "山", "Smola ")


def test_every_matching_sentence_holds_for_the_engines_numbers():
    seen = set()
    for (name, records), query, similarity, tau, lang in itertools.product(
        TABLES.items(), QUERIES, SIMILARITIES, (0.05, 0.25, 5.0), LANGUAGES
    ):
        result = lookup(records, query, similarity, temperature=tau)
        notes = [text for _, text in match_notes(result, lang)]
        q, m = query, len(records)
        state = (name, query, similarity, tau, lang)
        miss = t("exercises.match.no_answer", lang, query=q)
        uniform = t("exercises.match.no_answer_uniform", lang, query=q, m=m, weight=fmt(1 / m, 3))
        if miss in notes:  # the exact lookup: no key matches, every weight 0
            assert similarity == "exact" and not result.weights.any(), state
            seen.add("miss")
        elif uniform in notes:  # nothing shared: every score 0, the softmax uniform
            assert similarity != "exact" and not result.scores.any(), state
            np.testing.assert_allclose(result.weights, 1 / m)
            seen.add("uniform")
        else:
            best = result.best_index
            assert result.valid and result.weights[best] == result.weights.max(), state
            record = result.records[best]
            said = t(
                "exercises.match.best", lang, record=escape_markdown(record.key),
                value=escape_markdown(record.value), weight=fmt(result.weights[best], 3),
            )  # fmt: skip
            assert notes[0] == said, state
            tied = len(winners_of(result.weights))
            tie = t("exercises.match.tie", lang, count=tied)
            assert (tie in notes) == (tied > 1), state
            seen.add("tie" if tied > 1 else "best")
    assert seen == {"miss", "uniform", "best", "tie"}


FEATURE_MAPS = {
    "the page's": (
        [[1.0, 2.0, 3.0, 2.0], [0.0, -1.0, 1.0, 0.0], [4.0, 4.0, 0.0, 0.0]],
        [[1.0, 0.5, -0.5], [0.0, 1.0, 1.0]],
        [[1.0, -1.0], [0.5, 0.5], [-1.0, 2.0]],
    ),
    "a huge score": ([[40.0, 40.0], [1.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 0], [0, 1.0]]),
    "a hugely negative score": ([[800.0], [0.0]], [[1.0, 0.0]], [[-1.0], [0.0]]),
    "gates summing to one": ([[0.0], [0.0]], [[0.0, 0.0]], [[0.0], [0.0]]),  # σ(0) + σ(0) = 1
    "all zero input": ([[0.0, 0.0, 0.0]], [[1.0]], [[1.0]]),
}


def test_every_gate_sentence_holds_for_the_engines_numbers():
    seen = set()
    for (name, (X, W1, W2)), lang in itertools.product(FEATURE_MAPS.items(), LANGUAGES):
        se = squeeze_excitation(X, W1, W2)
        soft = squeeze_excitation(X, W1, W2, gate="softmax")
        labels = [f"c{i + 1}" for i in range(len(X))]
        notes = [text for _, text in gate_notes(se, soft, labels, lang)]
        ones = ", ".join(label for label, g in zip(labels, se.gates, strict=True) if g == 1.0)
        zeros = ", ".join(label for label, g in zip(labels, se.gates, strict=True) if g == 0.0)
        assert (t("exercises.se.gate_one", lang, channels=ones) in notes) == bool(ones), name
        assert (t("exercises.se.gate_zero", lang, channels=zeros) in notes) == bool(zeros), name
        by_chance = t("exercises.se.sum_one_by_chance", lang) in notes
        assert by_chance == (abs(se.gate_sum - 1) <= 1e-9), name
        assert (t("exercises.se.no_sum", lang) in notes) == (not by_chance), name
        assert t("exercises.se.softmax_sum", lang, total=fmt(soft.gate_sum)) in notes
        assert abs(soft.gate_sum - 1) < 1e-12
        seen |= {"one"} if ones else set()
        seen |= {"zero"} if zeros else set()
        seen.add("chance" if by_chance else "no_sum")
    assert seen == {"one", "zero", "chance", "no_sum"}
