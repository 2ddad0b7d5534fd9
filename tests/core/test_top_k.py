"""Top-k retrieval (d2l's third simple lookup): against a plain sort written here, with ties,
zero scores, k beyond the table, every similarity, and bad k refused with a code."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_core import AttentionInputError
from attention_core.lookup import SIMILARITIES, similarity_score, top_k
from attention_ui.kit.grids.records_editor import D2L_RECORDS

WITHOUT_LI = [r for r in D2L_RECORDS if r[0] != "Li"]


def reference(records, query, k, similarity):
    """A plain loop: score every key, keep those above 0, best first, table order on ties."""
    scored = [
        (similarity_score(query, key, similarity), i) for i, (key, *_rest) in enumerate(records)
    ]
    kept = [(s, i) for s, i in scored if s > 0]
    kept.sort(key=lambda pair: (-pair[0], pair[1]))
    return tuple(i for _, i in kept[:k]), kept


def test_lipton_is_the_top_one_for_li_without_the_li_record():
    result = top_k(WITHOUT_LI, "Li", 1)
    assert [result.records[i].key for i in result.indices] == ["Lipton"]
    assert not result.tie_at_cut


def test_an_exact_top_k_returns_only_the_matching_records():
    result = top_k([*D2L_RECORDS, ("Li", "Ann")], "Li", 3, "exact")
    assert [result.records[i].value for i in result.indices] == ["Mu", "Ann"]


def test_a_query_sharing_nothing_retrieves_nothing():
    assert top_k(D2L_RECORDS, "xyz", 3).indices == ()


def test_a_tie_at_the_cut_is_reported():
    records = [("Ann", "a"), ("Anna", "b"), ("Anne", "c")]  # Anna and Anne score alike for "Ann"
    result = top_k(records, "Anx", 1)
    assert result.tie_at_cut == (result.scores[1] == result.scores[2] == max(result.scores))
    two = top_k(records, "Ann", 2)
    assert two.indices[0] == 0 and two.tie_at_cut  # Anna and Anne tie for the second place


@pytest.mark.parametrize(
    ("query", "k", "similarity"),
    list(
        itertools.product(["Li", "Smo", "Hu", "Wernes", "Z", "xyz"], [1, 2, 3, 6, 10], SIMILARITIES)
    ),
)
def test_top_k_is_the_plain_sort(query, k, similarity):
    result = top_k(D2L_RECORDS, query, k, similarity)
    expected, kept = reference(D2L_RECORDS, query, k, similarity)
    assert result.indices == expected
    left_out = kept[k:]
    assert result.tie_at_cut == bool(expected and left_out and left_out[0][0] == kept[k - 1][0])


@given(
    st.lists(st.text("abcxyz", min_size=1, max_size=5), min_size=1, max_size=8),
    st.text("abcxyz", min_size=1, max_size=5),
    st.integers(1, 10),
)
def test_top_k_never_returns_more_than_k_and_always_the_highest_scores(keys, query, k):
    records = [(key, str(i)) for i, key in enumerate(keys)]
    result = top_k(records, query, k)
    assert len(result.indices) <= k
    taken = [result.scores[i] for i in result.indices]
    assert taken == sorted(taken, reverse=True) and all(s > 0 for s in taken)
    rest = [s for i, s in enumerate(result.scores) if i not in result.indices and s > 0]
    if len(result.indices) == k and rest:
        assert max(rest) <= min(taken)


@pytest.mark.parametrize("k", [0, -1, 1.5, True, "2", None])
def test_a_k_that_is_not_a_positive_whole_number_is_refused(k):
    with pytest.raises(AttentionInputError) as error:
        top_k(D2L_RECORDS, "Li", k)
    assert error.value.code == "bad_count"


def test_an_unknown_similarity_and_an_empty_query_are_refused_with_codes():
    with pytest.raises(AttentionInputError) as error:
        top_k(D2L_RECORDS, "Li", 2, "cosine")
    assert error.value.code == "unknown_similarity"
    with pytest.raises(AttentionInputError) as error:
        top_k(D2L_RECORDS, "  ", 2)
    assert error.value.code == "empty_query"
