"""Attention as a soft database lookup (d2l, "Queries, Keys, and Values").

A database D holds (key, value) records, e.g. surnames to first names. A classic exact query
returns the value whose key equals the query, or nothing. Attention instead returns
Attention(q, D) = Σ_i α(q, k_i) v_i: every record contributes, weighted by how well its key
matches the query. Here a key is a name, so α comes from a string similarity a(q, k):
softmax over the records, exp(a(q, k_i)/τ) / Σ_j exp(a(q, k_j)/τ), or divide by the sum.
"""

from __future__ import annotations

import functools
import math
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np
from rapidfuzz.distance import Levenshtein

from .errors import AttentionInputError
from .formatting import fmt
from .normalize import normalize_by_sum, softmax
from .validation import as_temperature

SIMILARITIES = ("exact", "ngram", "edit")
DEFAULT_SIMILARITY = "ngram"

# How each similarity is written on screen.
SIMILARITY_LATEX: dict[str, str] = {
    "exact": r"a(q, k) = \begin{cases} 1 & q = k \\ 0 & q \neq k \end{cases}",
    "ngram": r"a(q, k) = \frac{|G(q) \cap G(k)|}{|G(q) \cup G(k)|},\quad "
    r"G(s) = \{\, x_i x_{i+1} : x = \langle s \rangle \,\}",  # pure math: no language
    "edit": r"a(q, k) = 1 - \frac{\operatorname{lev}(q, k)}{\max(|q|, |k|)}",
}

_START, _END = "⟨", "⟩"  # word boundaries, so that 'Li' and 'Lipton' share the pair '⟨l'


@dataclass(frozen=True)
class Record:
    """One row of the database: a key to match, the value it stores, and an optional number."""

    key: str
    value: str
    number: float | None = None


@dataclass(frozen=True)
class LookupResult:
    """The answer to one query: a weight per record, the best record, and the pooled output."""

    query: str
    records: tuple[Record, ...]
    similarity: str
    scores: np.ndarray  # a(q, k_i), one per record
    weights: np.ndarray  # α(q, k_i), one per record; sum 1 (all 0 when an exact query misses)

    @property
    def valid(self) -> bool:
        """False when no record answers: an exact query with no matching key, or an
        approximate one that every key scores 0 against."""
        return bool(self.scores.max() > 0)

    @property
    def best_index(self) -> int | None:
        return int(np.argmax(self.weights)) if self.valid else None

    @property
    def best(self) -> tuple[str, str] | None:
        """The (key, value) pair with the largest weight; None when there is no valid answer."""
        index = self.best_index
        return None if index is None else (self.records[index].key, self.records[index].value)

    @property
    def value_distribution(self) -> tuple[tuple[str, float], ...]:
        """Pooling with one-hot values: the total weight of each distinct value, in table order."""
        totals: dict[str, float] = {}
        for record, weight in zip(self.records, self.weights, strict=True):
            totals[record.value] = totals.get(record.value, 0.0) + float(weight)
        return tuple(totals.items())

    @property
    def pooled_number(self) -> float | None:
        """Σ α_i x_i over the records' numbers; None unless every record has a number."""
        if not self.valid or any(r.number is None for r in self.records):
            return None
        return float(self.weights @ np.array([r.number for r in self.records]))


@dataclass(frozen=True)
class LookupTable:
    """Several queries against one database: a queries × records weight matrix."""

    queries: tuple[str, ...]
    records: tuple[Record, ...]
    results: tuple[LookupResult, ...]

    @property
    def scores(self) -> np.ndarray:
        return np.stack([r.scores for r in self.results])

    @property
    def weights(self) -> np.ndarray:
        return np.stack([r.weights for r in self.results])


def lookup(
    records: Iterable[Any],
    query: str,
    similarity: str = DEFAULT_SIMILARITY,
    temperature: float = 1.0,
    normalization: str = "softmax",
) -> LookupResult:
    """Attention over a database of (key, value[, number]) records for one query.

    Parameters
    ----------
    records : iterable of (key, value) or (key, value, number); keys and values are text
    query : the key to look up
    similarity : 'exact' (the classic lookup), 'ngram' (default) or 'edit'
    temperature : τ > 0; small τ concentrates the weight on the best match, large τ averages
    normalization : 'softmax' or 'sum' (divide by the sum of the similarities)

    'exact' ignores τ: its weights are 1 on the matching record (shared equally between
    duplicates) and all 0 when no key matches, in which case `best` is None.
    """
    table = _parse_records(records)
    return _lookup_one(
        table, _parse_query(query, 1), similarity, as_temperature(temperature), normalization, 1
    )


@dataclass(frozen=True)
class TopK:
    """Top-k retrieval, the third simple lookup d2l names beside exact and approximate
    matching: the k records whose keys score highest against the query, best first.

    Only records that score above 0 are retrieved (a key sharing nothing with the query is no
    match), so fewer than k may come back. `tie_at_cut` is True when a record left out scores
    exactly as high as the last one taken: which of them is in is then arbitrary (table order
    decides). The records come back as they are; nothing is averaged.
    """

    query: str
    records: tuple[Record, ...]
    similarity: str
    k: int
    scores: np.ndarray  # a(q, k_i), one per record
    indices: tuple[int, ...]  # the retrieved records, highest score first (table order on ties)
    tie_at_cut: bool


def top_k(records: Iterable[Any], query: str, k: int, similarity: str = DEFAULT_SIMILARITY) -> TopK:
    """The k records of largest a(q, kᵢ) > 0, best first; ties keep the table's order.

    Parameters
    ----------
    records : iterable of (key, value) or (key, value, number), as for `lookup`
    query : the key to look up
    k : int ≥ 1, how many records to return at most
    similarity : 'exact', 'ngram' (default) or 'edit'
    """
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        raise AttentionInputError("bad_count", parameter="k", value=k)
    if similarity not in SIMILARITIES:
        raise AttentionInputError(
            "unknown_similarity", similarity=similarity, choices=", ".join(SIMILARITIES)
        )
    table = _parse_records(records)
    text = _parse_query(query, 1)
    scores = _scores(text, tuple(r.key for r in table), similarity).copy()
    order = sorted(range(len(table)), key=lambda i: (-scores[i], i))  # stable on ties
    matching = [i for i in order if scores[i] > 0]
    chosen = tuple(matching[: int(k)])
    left_out = matching[int(k) :]
    tie = bool(chosen and left_out and scores[left_out[0]] == scores[chosen[-1]])
    return TopK(text, table, similarity, int(k), scores, chosen, tie)


def lookup_many(
    records: Iterable[Any],
    queries: Sequence[str],
    similarity: str = DEFAULT_SIMILARITY,
    temperature: float = 1.0,
    normalization: str = "softmax",
) -> LookupTable:
    """`lookup` for several queries at once."""
    table = _parse_records(records)
    tau = as_temperature(temperature)
    if isinstance(queries, str) or not queries:
        raise AttentionInputError("empty_query")
    parsed = tuple(_parse_query(q, i + 1) for i, q in enumerate(queries))
    results = tuple(
        _lookup_one(table, q, similarity, tau, normalization, i + 1) for i, q in enumerate(parsed)
    )
    return LookupTable(parsed, table, results)


# A page shows each a(q, k) several times (the lookup, a hover, the table, the heatmap, each
# τ column of the gallery): the similarities are pure functions of their text, so each is
# computed once and remembered (bounded caches, shared by every session). functools caches, not
# Streamlit's: the engine imports no Streamlit (docs/ARCHITECTURE.md).
@functools.lru_cache(maxsize=8192)
def similarity_score(query: str, key: str, similarity: str = DEFAULT_SIMILARITY) -> float:
    """a(q, k) in [0, 1] for one query and one key."""
    if similarity == "exact":
        return float(_exact_form(query) == _exact_form(key))
    if similarity == "ngram":
        grams_q, grams_k = _bigrams(query), _bigrams(key)
        return len(grams_q & grams_k) / len(grams_q | grams_k)
    if similarity == "edit":
        q, k = _fuzzy_form(query), _fuzzy_form(key)
        return 1.0 - _levenshtein(q, k) / max(len(q), len(k), 1)
    raise AttentionInputError(
        "unknown_similarity", similarity=similarity, choices=", ".join(SIMILARITIES)
    )


@functools.lru_cache(maxsize=8192)
def explain_similarity(query: str, key: str, similarity: str = DEFAULT_SIMILARITY) -> str:
    """The arithmetic of a(q, k) in symbols, e.g. "|{⟨l, li}| / |P(q) ∪ P(k)| = 2 / 8 = 0.25"."""
    score = similarity_score(query, key, similarity)
    if similarity == "exact":
        relation = "=" if score else "≠"
        return f"{_exact_form(query)!r} {relation} {_exact_form(key)!r} → {fmt(score)}"
    if similarity == "ngram":
        grams_q, grams_k = _bigrams(query), _bigrams(key)
        reading_order = _START + _fuzzy_form(query) + _END  # list pairs as the query spells them
        shared = sorted(grams_q & grams_k, key=reading_order.find)
        # |P(q) ∩ P(k)| / |P(q) ∪ P(k)| over the letter pairs P, the shared ones listed
        return (
            f"|{{{', '.join(shared)}}}| / |P(q) ∪ P(k)| = {len(shared)} / "
            f"{len(grams_q | grams_k)} = {fmt(score)}"
        )
    q, k = _fuzzy_form(query), _fuzzy_form(key)
    distance = _levenshtein(q, k)
    return f"1 − lev = 1 − {distance}/{max(len(q), len(k), 1)} = {fmt(score)}"


def duplicate_keys(records: Iterable[Any]) -> list[str]:
    """Keys that occur more than once (as exact lookup compares them), in table order."""
    seen: dict[str, int] = {}
    for record in _parse_records(records):
        form = _exact_form(record.key)
        seen[form] = seen.get(form, 0) + 1
    return [key for key, count in seen.items() if count > 1]


# ---------------------------------------------------------------------------------------------


def _lookup_one(
    table: tuple[Record, ...],
    query: str,
    similarity: str,
    tau: float,
    normalization: str,
    query_number: int,
) -> LookupResult:
    if similarity not in SIMILARITIES:
        raise AttentionInputError(
            "unknown_similarity", similarity=similarity, choices=", ".join(SIMILARITIES)
        )
    if normalization not in ("softmax", "sum"):
        raise AttentionInputError("unknown_normalization", normalization=normalization)
    scores = _scores(query, tuple(r.key for r in table), similarity).copy()
    if similarity == "exact":  # the classic lookup: all of the weight on the match, or none
        total = scores.sum()
        weights = scores / total if total > 0 else np.zeros_like(scores)
    elif normalization == "softmax":
        weights = softmax(scores[:, None] / tau, axis=0)[:, 0]
    else:
        try:
            weights = normalize_by_sum(scores[:, None], axis=0, temperature=tau)[:, 0]
        except AttentionInputError as error:  # name this query, not "query 1" of one column
            params = {**error.params, "query": f"{query_number} (“{query}”)"}
            raise AttentionInputError(error.code, **params) from None
    return LookupResult(query, table, similarity, scores, weights)


@functools.lru_cache(maxsize=512)
def _scores(query: str, keys: tuple[str, ...], similarity: str) -> np.ndarray:
    """a(q, kᵢ) for every key, computed once per (query, keys, similarity)."""
    return np.array([similarity_score(query, key, similarity) for key in keys])


def _parse_records(records: Iterable[Any]) -> tuple[Record, ...]:
    parsed = []
    for index, record in enumerate(records, start=1):
        if isinstance(record, Record):
            parsed.append(record)
            continue
        if isinstance(record, str) or not isinstance(record, Sequence) or len(record) not in (2, 3):
            raise AttentionInputError("bad_record", index=index, value=record)
        key, value = record[0], record[1]
        if not isinstance(key, str) or not isinstance(value, str):
            raise AttentionInputError("bad_record", index=index, value=tuple(record))
        if not key.strip():
            raise AttentionInputError("empty_key", index=index)
        number = record[2] if len(record) == 3 else None
        if number is not None and (isinstance(number, bool) or not isinstance(number, Real)):
            raise AttentionInputError("bad_record", index=index, value=tuple(record))
        if number is not None and not math.isfinite(number):
            number = None  # a blank number cell: this record has no number
        parsed.append(Record(key, value, None if number is None else float(number)))
    if not parsed:
        raise AttentionInputError("empty_database")
    return tuple(parsed)


def _parse_query(query: Any, number: int) -> str:
    if not isinstance(query, str) or not query.strip():
        raise AttentionInputError("empty_query", query=number)
    return query


@functools.lru_cache(maxsize=4096)
def _exact_form(text: str) -> str:
    """Exact matching ignores only surrounding spaces and Unicode encoding differences."""
    return unicodedata.normalize("NFC", text).strip()


@functools.lru_cache(maxsize=4096)
def _fuzzy_form(text: str) -> str:
    """Approximate matching also folds case and width (Ｌｉ = Li = li)."""
    return unicodedata.normalize("NFKC", text).casefold().strip()


@functools.lru_cache(maxsize=4096)
def _bigrams(text: str) -> frozenset[str]:
    padded = _START + _fuzzy_form(text) + _END
    return frozenset(padded[i : i + 2] for i in range(len(padded) - 1))


def _levenshtein(a: str, b: str) -> int:
    """Edits (insert, delete, substitute one character) that turn a into b: RapidFuzz's
    compiled Levenshtein distance (unit costs, by Unicode code point)."""
    return Levenshtein.distance(a, b)
