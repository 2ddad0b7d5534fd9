"""Attention as a soft database lookup: the story of d2l's "Queries, Keys, and Values".

The database maps surnames to first names. An exact query "Li" returns "Mu"; without the
record ("Li", "Mu") the classic lookup has no answer, while attention with an approximate
similarity still answers, with ("Lipton", "Zachary") ranked first. It must do the same for
names in any script, Japanese included.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import lookup
from attention_core.formatting import fmt
from attention_core.lookup import (
    DEFAULT_SIMILARITY,
    SIMILARITIES,
    SIMILARITY_LATEX,
    Record,
    duplicate_keys,
    explain_similarity,
    lookup_many,
    similarity_score,
)

D2L = [
    ("Zhang", "Aston"),
    ("Lipton", "Zachary"),
    ("Li", "Mu"),
    ("Smola", "Alex"),
    ("Hu", "Rachel"),
    ("Werness", "Brent"),
]
WITHOUT_LI = [record for record in D2L if record != ("Li", "Mu")]
JAPANESE = [("佐藤", "健"), ("佐々木", "希"), ("鈴木", "一郎")]
APPROXIMATE = [s for s in SIMILARITIES if s != "exact"]


def ranking(result) -> list[str]:
    """Keys from the largest weight down (ties keep table order)."""
    order = sorted(range(len(result.records)), key=lambda i: -result.weights[i])
    return [result.records[i].key for i in order]


# ------------------------------------------------------------------------------------------
# The d2l story


def test_exact_query_li_returns_mu():
    result = lookup(D2L, "Li", similarity="exact")
    assert result.best == ("Li", "Mu")
    assert result.valid
    assert result.weights.tolist() == [0, 0, 1, 0, 0, 0]  # a classic query: one-hot


def test_exact_query_without_the_record_has_no_valid_answer():
    result = lookup(WITHOUT_LI, "Li", similarity="exact")
    assert result.best is None
    assert result.best_index is None
    assert not result.valid
    assert result.weights.tolist() == [0.0] * len(WITHOUT_LI)


def test_default_similarity_is_approximate():
    assert DEFAULT_SIMILARITY in APPROXIMATE
    assert set(SIMILARITY_LATEX) == set(SIMILARITIES)


@pytest.mark.parametrize("similarity", [None, *APPROXIMATE])
def test_approximate_query_li_retrieves_lipton_when_li_is_absent(similarity):
    options = {} if similarity is None else {"similarity": similarity}
    result = lookup(WITHOUT_LI, "Li", **options)
    assert result.valid
    assert result.best == ("Lipton", "Zachary")
    assert ranking(result)[0] == "Lipton"
    assert result.weights[1] > max(np.delete(result.weights, 1))  # strictly first
    assert result.weights.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("similarity", SIMILARITIES)
def test_query_li_returns_mu_when_li_is_present(similarity):
    assert lookup(D2L, "Li", similarity=similarity).best == ("Li", "Mu")


# ------------------------------------------------------------------------------------------
# Names in any script


@pytest.mark.parametrize("similarity", SIMILARITIES)
def test_japanese_exact_name_finds_its_record(similarity):
    assert lookup(JAPANESE, "佐藤", similarity=similarity).best == ("佐藤", "健")
    assert lookup(JAPANESE, "鈴木", similarity=similarity).best == ("鈴木", "一郎")


@pytest.mark.parametrize("similarity", APPROXIMATE)
def test_japanese_name_with_honorific_ranks_sato_then_sasaki_then_suzuki(similarity):
    result = lookup(JAPANESE, "佐藤さん", similarity=similarity)
    assert result.best == ("佐藤", "健")
    assert ranking(result) == ["佐藤", "佐々木", "鈴木"]  # 佐々木 shares 佐 with the query
    assert result.weights[0] > result.weights[1] > result.weights[2]


def test_japanese_name_with_honorific_is_not_an_exact_match():
    result = lookup(JAPANESE, "佐藤さん", similarity="exact")
    assert result.best is None and not result.valid


@pytest.mark.parametrize("similarity", APPROXIMATE)
def test_full_width_latin_folds_to_ascii_for_approximate_matching(similarity):
    assert similarity_score("Ｌｉ", "Li", similarity) == 1.0
    wide, narrow = lookup(WITHOUT_LI, "Ｌｉ", similarity), lookup(WITHOUT_LI, "Li", similarity)
    np.testing.assert_array_equal(wide.weights, narrow.weights)
    assert wide.best == ("Lipton", "Zachary")


def test_case_is_folded_for_approximate_but_not_for_exact():
    assert similarity_score("li", "LI") == 1.0
    assert similarity_score("li", "LI", "exact") == 0.0
    assert similarity_score(" Li ", "Li", "exact") == 1.0  # surrounding spaces do not count


# ------------------------------------------------------------------------------------------
# Temperature and normalization


@pytest.mark.parametrize("similarity", APPROXIMATE)
def test_small_temperature_concentrates_and_large_temperature_averages(similarity):
    sharp = lookup(WITHOUT_LI, "Li", similarity, temperature=0.01)
    plain = lookup(WITHOUT_LI, "Li", similarity, temperature=1.0)
    flat = lookup(WITHOUT_LI, "Li", similarity, temperature=1000.0)
    assert sharp.weights[1] > 0.999
    assert sharp.weights[1] > plain.weights[1] > flat.weights[1]
    np.testing.assert_allclose(flat.weights, 1 / len(WITHOUT_LI), rtol=1e-3)
    assert sharp.best == plain.best == flat.best == ("Lipton", "Zachary")


def test_softmax_weights_are_exp_of_score_over_temperature():
    tau = 0.2
    result = lookup(WITHOUT_LI, "Li", temperature=tau)
    numerators = [math.exp(s / tau) for s in result.scores]
    expected = [x / sum(numerators) for x in numerators]
    np.testing.assert_allclose(result.weights, expected, rtol=1e-12)


def test_exact_similarity_ignores_the_temperature():
    for tau in (0.01, 1.0, 100.0):
        assert lookup(D2L, "Li", "exact", temperature=tau).weights.tolist() == [0, 0, 1, 0, 0, 0]


def test_divide_by_sum_normalization_is_score_over_total():
    result = lookup(WITHOUT_LI, "Li", "edit", normalization="sum")
    # edit similarity: Lipton 1 − 4/6, Smola 1 − 4/5, every other key 0
    scores = [0.0, 1 - 4 / 6, 1 - 4 / 5, 0.0, 0.0]
    np.testing.assert_allclose(result.scores, scores, rtol=1e-12)
    np.testing.assert_allclose(result.weights, np.array(scores) / sum(scores), rtol=1e-12)
    assert result.weights[0] == 0.0  # a key with nothing in common gets nothing


def test_divide_by_sum_with_temperature_raises_scores_to_one_over_tau():
    result = lookup(WITHOUT_LI, "Li", "edit", temperature=0.5, normalization="sum")
    powered = np.array([0.0, (1 - 4 / 6) ** 2, (1 - 4 / 5) ** 2, 0.0, 0.0])
    np.testing.assert_allclose(result.weights, powered / powered.sum(), rtol=1e-12)


# ------------------------------------------------------------------------------------------
# Several queries, pooling, duplicates


def test_lookup_many_is_a_queries_by_records_matrix_of_single_lookups():
    queries = ["Li", "Smola", "Ｈｕ", "佐藤"]
    table = lookup_many(WITHOUT_LI, queries, temperature=0.5)
    assert table.weights.shape == (len(queries), len(WITHOUT_LI))
    assert table.scores.shape == (len(queries), len(WITHOUT_LI))
    assert table.queries == tuple(queries)
    for row, query in zip(table.weights, queries, strict=True):
        np.testing.assert_array_equal(row, lookup(WITHOUT_LI, query, temperature=0.5).weights)
    np.testing.assert_allclose(table.weights.sum(axis=1), 1.0, atol=1e-12)


def test_value_distribution_sums_to_one_and_merges_duplicate_values():
    records = [("Li", "Mu"), ("Lipton", "Zachary"), ("Lin", "Mu"), ("Hu", "Rachel")]
    result = lookup(records, "Li", temperature=0.5)
    distribution = dict(result.value_distribution)
    assert list(distribution) == ["Mu", "Zachary", "Rachel"]  # table order, each value once
    assert sum(distribution.values()) == pytest.approx(1.0, abs=1e-12)
    assert distribution["Mu"] == pytest.approx(result.weights[0] + result.weights[2], abs=1e-15)


def test_pooled_number_is_the_weighted_average_of_the_numbers():
    records = [("Li", "Mu", 10.0), ("Lipton", "Zachary", 20.0), ("Hu", "Rachel", 40)]
    result = lookup(records, "Li", similarity="edit", temperature=0.5)
    # scores 1, 1 − 4/6, 0; softmax of score / 0.5 by hand
    e = [math.exp(1 / 0.5), math.exp((1 - 4 / 6) / 0.5), math.exp(0.0)]
    expected = (10 * e[0] + 20 * e[1] + 40 * e[2]) / sum(e)
    assert result.pooled_number == pytest.approx(expected, rel=1e-12)


def test_pooled_number_is_none_when_a_number_is_missing():
    records = [("Li", "Mu", 10.0), ("Lipton", "Zachary"), ("Hu", "Rachel", float("nan"))]
    assert lookup(records, "Li").pooled_number is None
    assert lookup(records[:1], "Li").pooled_number == 10.0


def test_pooled_number_is_none_when_there_is_no_valid_answer():
    records = [("Lipton", "Zachary", 20.0), ("Hu", "Rachel", 40.0)]
    assert lookup(records, "Li", "exact").pooled_number is None


def test_records_may_be_record_objects():
    records = [Record("Li", "Mu", 1.0), Record("Hu", "Rachel")]
    assert lookup(records, "Li", "exact").best == ("Li", "Mu")


def test_duplicate_keys_lists_keys_that_occur_twice_in_table_order():
    records = [("Hu", "Rachel"), ("Li", "Mu"), (" Li", "Xin"), ("Smola", "Alex"), ("Hu", "Ada")]
    assert duplicate_keys(records) == ["Hu", "Li"]
    assert duplicate_keys(D2L) == []


def test_exact_lookup_splits_the_weight_between_duplicate_keys():
    records = [("Li", "Mu"), ("Hu", "Rachel"), ("Li", "Xin")]
    result = lookup(records, "Li", similarity="exact")
    assert result.weights.tolist() == [0.5, 0.0, 0.5]
    assert result.best == ("Li", "Mu")  # the first of the tied records
    assert dict(result.value_distribution) == {"Mu": 0.5, "Rachel": 0.0, "Xin": 0.5}


# ------------------------------------------------------------------------------------------
# The similarity itself


def test_explain_similarity_spells_out_the_arithmetic_for_li_and_lipton():
    assert (
        explain_similarity("Li", "Lipton", "ngram") == "|{⟨l, li}| / |P(q) ∪ P(k)| = 2 / 8 = 0.25"
    )
    assert explain_similarity("Li", "Lipton", "edit") == "1 − lev = 1 − 4/6 = 0.333"
    assert explain_similarity("Li", "Lipton", "exact") == "'Li' ≠ 'Lipton' → 0"
    assert explain_similarity("Li", "Li", "exact") == "'Li' = 'Li' → 1"
    assert explain_similarity("佐藤さん", "佐藤") == "|{⟨佐, 佐藤}| / |P(q) ∪ P(k)| = 2 / 6 = 0.333"


@pytest.mark.parametrize("similarity", SIMILARITIES)
def test_explanation_ends_with_the_score(similarity):
    for key, _ in D2L + JAPANESE:
        text = explain_similarity("Li", key, similarity)
        score = similarity_score("Li", key, similarity)
        assert text.endswith(f" {fmt(score)}"), text


# modest example counts keep the file fast; deadline off for slow CI machines
PROPERTY = settings(max_examples=50, deadline=None)

names = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8", exclude_categories=("Cs",)),
        st.sampled_from("佐藤々木鈴一郎さんＬｉLipton ⟨⟩"),
    ),
    max_size=12,
)


@PROPERTY
@given(names, names, st.sampled_from(SIMILARITIES))
def test_similarity_is_symmetric_and_between_zero_and_one(a, b, similarity):
    score = similarity_score(a, b, similarity)
    assert 0.0 <= score <= 1.0
    assert score == similarity_score(b, a, similarity)


@PROPERTY
@given(names.filter(str.strip), st.sampled_from(SIMILARITIES))
def test_a_name_is_fully_similar_to_itself(a, similarity):
    assert similarity_score(a, a, similarity) == 1.0


# ------------------------------------------------------------------------------------------
# The edit distance: RapidFuzz's compiled one, checked against the two-row dynamic program the
# first version computed in pure Python (an independent reference).


def reference_levenshtein(a: str, b: str) -> int:
    """Edits (insert, delete, substitute one character) that turn a into b; two-row DP."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b))
            )
        previous = current
    return previous[-1]


def reference_edit_similarity(query: str, key: str) -> float:
    """a(q, k) = 1 − lev(q, k) / max(|q|, |k|) over the folded forms, as in version 1."""
    import unicodedata

    q, k = (unicodedata.normalize("NFKC", s).casefold().strip() for s in (query, key))
    return 1.0 - reference_levenshtein(q, k) / max(len(q), len(k), 1)


NAMES = st.text(alphabet=st.sampled_from("abcLiptonﷺ佐藤々木 Ｌｉßẞ\u0301é"), max_size=12)


@given(NAMES, NAMES)
def test_edit_similarity_equals_the_pure_python_definition(query, key):
    assert similarity_score(query, key, "edit") == reference_edit_similarity(query, key)
    assert explain_similarity(query, key, "edit").endswith(
        fmt(reference_edit_similarity(query, key))
    )


@given(st.text(max_size=30), st.text(max_size=30))
def test_edit_similarity_equals_the_pure_python_definition_for_any_text(query, key):
    assert similarity_score(query, key, "edit") == reference_edit_similarity(query, key)


def test_lookup_many_reuses_each_similarity_but_gives_the_same_numbers():
    keys = [("Zhang", "A"), ("Lipton", "Z"), ("Li", "M")]
    first = lookup_many(keys, ["Li", "Lip"], "edit", 0.5)
    again = lookup_many(keys, ["Li", "Lip"], "edit", 2.0)  # the same scores, other weights
    np.testing.assert_array_equal(first.scores, again.scores)
    expected = [[reference_edit_similarity(q, k) for k, _ in keys] for q in ["Li", "Lip"]]
    np.testing.assert_array_equal(first.scores, expected)
    first.results[0].scores[0] = -1.0  # a caller changing its copy changes nothing remembered
    assert lookup_many(keys, ["Li"], "edit").scores[0, 0] == expected[0][0]
