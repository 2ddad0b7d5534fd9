"""The database page's claim walk: each sentence the answers show about the numbers, built by the
page's own functions from the page's `compute`, must hold for those numbers where it is shown and
be absent where it does not hold, in both languages: the best match, ties, no valid answer, the
pooled number."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attention_core import AttentionInputError
from attention_core.formatting import fmt
from attention_core.lookup import top_k
from attention_ui.database.compute import Inputs, compute
from attention_ui.database.view import answer_notes, pooled_formula, pooled_note, top_k_lines
from attention_ui.kit.grids.records_editor import D2L_RECORDS
from attention_ui.kit.text.i18n import LANGUAGES, t
from attention_ui.kit.text.markdown import escape_markdown

D2L = D2L_RECORDS  # the page's own table, with its score column
TABLES = {
    "d2l": D2L,
    "no Li": [r for r in D2L if r[0] != "Li"],
    "Li twice": [*D2L, ("Li", "Mu", 35.0)],
    "a missing number": [("Zhang", "Aston", 10.0), ("Li", "Mu", None), ("Hu", "Rachel", 50.0)],
    "twins": [("Ab", "x", 1.0), ("Ba", "y", 2.0), ("Cd", "z", 3.0)],
    "japanese": [("田中", "太郎", 1.0), ("中田", "花子", 2.0), ("山田", "一郎", 3.0)],
}
QUERIES = ["Li", "Smola", "Lipton", "Hu", "Zh", "xyz", "Lii", "ab", "田中", "中"]


def lookups():
    for (name, records), similarity, tau, normalization in itertools.product(
        TABLES.items(), ("exact", "ngram", "edit"), (0.1, 1.0, 10.0), ("softmax", "sum")
    ):
        if similarity == "exact" and (tau != 1.0 or normalization != "softmax"):
            continue  # exact ignores both
        for query in QUERIES:
            try:
                table = compute(Inputs(records, [query], similarity, tau, normalization))
            except AttentionInputError as error:  # divide by a sum of 0: the page says so
                assert error.code == "zero_sum" and normalization == "sum"
                continue
            yield name, records, table.results[0]


def test_every_database_answer_sentence_holds_for_the_engines_numbers():
    seen: set[str] = set()
    for name, records, result in lookups():
        rows = list(range(1, len(records) + 1))
        scores, weights = result.scores, result.weights
        top_scores = np.flatnonzero(scores == scores.max())  # ties in a(q, k): ties in α
        for lang in LANGUAGES:
            notes = dict(answer_notes(result, rows, lang))
            seen |= set(notes)
            state = (name, result.query, result.similarity, lang)
            # "No valid answer": every similarity 0; exact: every weight 0, else all equal.
            assert ("none" in notes) == (scores.max() == 0), state
            if "none" in notes:
                assert set(notes) == {"none"}
                if result.similarity == "exact":
                    assert (weights == 0).all()
                    assert all(key != result.query for key, *_ in records)
                else:
                    np.testing.assert_allclose(weights, weights[0], rtol=1e-12)
                continue
            # "Best match: key → value (row r) with weight w": the record of largest weight.
            best = int(top_scores[0])
            assert weights[best] == weights.max(), state
            assert f"{records[best][0]}" in notes["best"] and f"{records[best][1]}" in notes["best"]
            assert str(rows[best]) in notes["best"] and fmt(weights[best]) in notes["best"]
            # "N records share the largest weight": shown exactly when N ≥ 2 scores tie.
            assert ("tie" in notes) == (top_scores.size > 1), state
            if "tie" in notes:
                assert str(top_scores.size) in notes["tie"]
                np.testing.assert_allclose(weights[top_scores], weights.max(), rtol=1e-12)
            # The pooled number: Σ αᵢ xᵢ when every record has one, else why there is none.
            numbers = [r[2] for r in records]
            note = pooled_note(result, rows, lang)
            assert (note is None) == (None not in numbers), state
            if note is None:
                total = float(np.dot(weights, numbers))
                assert result.pooled_number == pytest.approx(total, rel=1e-12, abs=1e-12)
                assert fmt(total) in pooled_formula(weights, numbers, result.pooled_number)
            else:
                assert str(rows[numbers.index(None)]) in note
    assert seen == {"none", "best", "tie"}  # the walk reached every sentence


def test_every_top_k_sentence_holds_for_the_engines_scores():
    """Top-k's lines: the records taken (best first, each scoring above 0, none left out that
    scores more), "nothing" only when no key scores above 0, "only n" when fewer than k do
    (this page's convention: a key scoring 0 is left out), a tie only where the cut falls on
    one."""
    seen = set()
    for (name, records), query, similarity, k, lang in itertools.product(
        TABLES.items(), QUERIES, ("exact", "ngram", "edit"), (1, 2, 4), LANGUAGES
    ):
        result = top_k([r[:2] for r in records], query, k, similarity)
        rows = list(range(1, len(records) + 1))
        lines = top_k_lines(result, rows, lang)
        state = (name, query, similarity, k, lang)
        scores = np.asarray(result.scores)
        positive = int((scores > 0).sum())
        taken = list(result.indices)
        assert len(taken) == min(k, positive), state
        assert all(scores[i] > 0 for i in taken), state
        assert list(scores[taken]) == sorted(scores[taken], reverse=True), state
        left = [i for i in range(len(scores)) if i not in taken and scores[i] > 0]
        assert all(scores[i] <= scores[taken[-1]] for i in left) if taken else not left, state
        q = escape_markdown(query, 40)
        none = t("database.topk.none", lang, query=q)
        assert (none in lines) == (positive == 0), state
        if 0 < positive < k:
            key = "database.topk.fewer_one" if positive == 1 else "database.topk.fewer"
            assert t(key, lang, query=q, found=positive, k=k) in lines, state
            seen.add("fewer")
        tie = any(line.startswith(t("database.topk.tie", lang, score="")[:12]) for line in lines)
        cut_on_tie = bool(taken and left and scores[left].max() == scores[taken[-1]])
        assert tie == cut_on_tie, state
        seen |= {"none"} if positive == 0 else set()
        seen |= {"tie"} if tie else set()
    assert seen == {"none", "fewer", "tie"}
