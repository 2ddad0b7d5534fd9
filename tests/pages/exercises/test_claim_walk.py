"""The exercises' claim walk: exercise 1's answer over tables, queries, similarities and τ (ties,
identical keys, queries sharing nothing), exercise 2's size of ∂o/∂q, exercise 3's search
outcome, the SE gates over feature maps (sums, saturated gates). Each sentence is built by the
page's own functions from the exercise's `compute` and must hold for its numbers where it is
shown, in both languages."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from attention_core.formatting import fmt
from attention_core.lookup import SIMILARITIES
from attention_core.search import letter_pair_vectors, outranking_mix
from attention_ui.exercises import compute
from attention_ui.exercises.gradient import NUMERICALLY_GONE, gradient_notes
from attention_ui.exercises.matching import match_notes
from attention_ui.exercises.search import search_notes
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
        result = compute.match(compute.MatchInputs(records, query, similarity, tau))
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
        numbers = compute.squeeze(compute.SqueezeInputs(X, W1, W2))
        se, soft = numbers.sigmoid, numbers.softmax
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


# Exercise 2: the size of ∂o/∂q (exactly 0, numerically gone, alive).

KEY_SETS = {
    "huge": [[5.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
    "gallery": [[1.0, 0.5], [0.5, 2.0], [2.0, 1.5]],
    "one point": [[1.0, 1.0], [1.0, 1.0]],
    "five identical": [[0.1, 0.7]] * 5,  # their mean is off by rounding: a 1e-34 residue
    "almost one point": [[1.0, 1.0], [1.0, 1.0 + 1e-7], [1.0 - 1e-7, 1.0]],
    "two equal, one apart": [[3.0, 0.0], [3.0, 0.0], [-3.0, 0.0]],
}


def test_every_gradient_sentence_holds_for_the_engines_numbers():
    seen: set[str] = set()
    sentences = (
        "exactly_zero",
        "identical_rounding",
        "exactly_zero_underflow",
        "gone",
        "gone_close_keys",
        "faint",
        "alive",
    )
    for (name, points), q, tau in itertools.product(
        KEY_SETS.items(), itertools.product((-12.0, 0.0, 1.0, 12.0), repeat=2), (0.05, 1.0, 5.0)
    ):
        keys = np.array(points)
        labels = [f"k{i + 1}" for i in range(len(keys))]
        result = compute.gradient(compute.GradientInputs(keys, q, tau)).result
        p = result.weights
        largest = np.abs(result.jacobian).max()  # the norm of the Jacobian, without underflow
        norm = 0.0 if largest == 0 else largest * np.sqrt(((result.jacobian / largest) ** 2).sum())
        for lang in LANGUAGES:
            texts = [text for _, text in gradient_notes(result.jacobian, p, keys, labels, lang)]
            assert fmt(norm, 3) in texts[0] and f"= {fmt(p.max())};" in texts[0].replace(
                "。", ";"
            ).replace("、", ";")
            best = labels[int(np.argmax(p))]
            # One step (0.1) of the slider that moves the output most, to first order, against
            # a thousandth of the keys' size.
            move = 0.1 * max(np.hypot(*result.jacobian[:, i]) for i in range(2))
            scale = np.abs(keys).max()
            params = {"norm": fmt(norm, 3), "limit": fmt(NUMERICALLY_GONE), "best": best,
                      "step": "0.1", "move": fmt(move, 3), "scale": fmt(scale)}  # fmt: skip
            shown = {
                key for key in sentences if t(f"exercises.grad.{key}", lang, **params) in texts
            }
            assert len(shown) == 1, (name, q, tau, lang, texts)
            (said,) = shown
            state = (name, q, tau, lang, said)
            away = (keys != keys[int(np.argmax(p))]).any(axis=1)  # keys off the best's point
            if said == "exactly_zero":  # exactly 0 because every key is the same point
                assert norm == 0 and (keys == keys[0]).all(), state
            if said == "identical_rounding":  # every key the same point: 0 but for rounding
                assert 0 < norm < 1e-30 and (keys == keys[0]).all(), state
            if said == "exactly_zero_underflow":  # the keys differ; the weighted ones do not
                assert not result.jacobian.any() and away.any(), state
                assert not (keys == keys[0]).all(), state
                assert (p[away] < 1e-290).all(), state  # their covariance terms underflow
            if said == "gone":  # not 0, below the limit, one weight next to 1
                assert 0 < norm < NUMERICALLY_GONE and p.max() > 1 - 1e-6, state
            if said == "gone_close_keys":  # not 0, below the limit, the keys nearly one point
                assert not (keys == keys[0]).all(), state  # identical keys are said first
                spread = np.ptp(keys[p > 1e-3], axis=0).max()
                assert 0 < norm < NUMERICALLY_GONE and spread < 1e-5, state
            if said == "alive":
                assert norm >= NUMERICALLY_GONE and move >= 1e-3 * scale, state
            if said == "faint":  # not gone, but a slider's step barely moves the output
                assert norm >= NUMERICALLY_GONE and move < 1e-3 * scale, state
            seen.add(said)
    assert seen == set(sentences)


# Exercise 3: the search (the loss fell, rose or stayed; the target first, tied, never first,
# or not yet).

SEARCH_KEYS = {
    "the page's keys": [[2.0, 0.0], [0.0, 2.0], [-2.0, 0.0], [1.0, 1.0]],  # r4 inside the hull
    "a repeated key": [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
    "a repeated key behind another": [[1.0, 0.0], [1.0, 0.0], [2.0, 0.0], [0.0, 1.0]],
    "a line": [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]],
}


NAME_TABLES = {  # the database's names as letter-pair vectors: more dimensions than the plane
    "Lili between Li and Lilili": ["Li", "Lilili", "Lili", "Hu"],  # Lili = ½ Li + ½ Lilili
    "d2l": [record[0] for record in D2L_RECORDS],
    "a repeated name": ["Hu", "Li", "Hu"],
}


def wins_somewhere(points: np.ndarray, target: int) -> bool:
    """Whether some direction q gives the target the largest score alone: in the plane, 3,600
    directions; beyond it, the target's own key, its difference from the others' mean and
    20,000 random directions."""
    d = points.shape[1]
    if d == 2:
        angles = np.linspace(0, 2 * np.pi, 3600, endpoint=False)
        directions = np.vstack([np.cos(angles), np.sin(angles)])
    else:
        rest = np.delete(points, target, axis=0)
        tried = [points[target], points[target] - rest.mean(axis=0)]
        directions = np.hstack(
            [np.array(tried).T, np.random.default_rng(0).standard_normal((d, 20_000))]
        )
    scores = points @ directions  # m × directions
    others = np.delete(scores, target, axis=0).max(axis=0)
    return bool((scores[target] > others + 1e-12).any())


def is_mix_of_others(points: np.ndarray, target: int, mix: np.ndarray) -> bool:
    """Whether `mix` is a convex combination of the other keys that rebuilds the target's key:
    then q·k_t is a weighted average of the others' scores for every q."""
    return bool(
        mix[target] == 0
        and (mix >= 0).all()
        and abs(mix.sum() - 1) < 1e-12
        and np.allclose(mix @ points, points[target], atol=1e-9)
    )


def search_cases():
    """(name, keys d × m, labels, start) for the plane's tables and the names' vectors."""
    for name, points in SEARCH_KEYS.items():
        points = np.array(points)
        labels = [f"r{i + 1}" for i in range(len(points))]
        for start in ((-1.0, -1.0), (0.0, 0.0), (3.0, 3.0)):
            yield name, points.T, labels, np.array(start)
    for name, names in NAME_TABLES.items():
        keys, _ = letter_pair_vectors(names)
        yield name, keys, names, np.zeros(keys.shape[0])


def test_every_search_sentence_holds_for_the_engines_numbers():
    seen: set[str] = set()
    for (name, keys, labels, start), rate, steps in itertools.product(
        search_cases(), (0.05, 0.5, 2.0, 5.0, 50.0), (1, 30)
    ):
        points = keys.T
        for target, lang in itertools.product(range(len(points)), LANGUAGES):
            inputs = compute.SearchInputs(keys, start, target, rate, steps)
            path = compute.search(inputs).path
            texts = [text for _, text in search_notes(path, keys, target, labels, lang)]
            state = (name, tuple(start[:2]), rate, steps, target, lang)
            first, last = path.losses[0], path.losses[-1]
            # the loss is −log p_target of the engine's own weights
            assert last == pytest.approx(-np.log(path.weights[-1, target]), rel=1e-9, abs=1e-12)
            verb = "summary" if last < first else "summary_rose" if last > first else "summary_same"
            assert texts[0].split("**")[0] == t(
                f"exercises.search.{verb}", lang, steps=path.steps, first=fmt(first, 3),
                last=fmt(last, 3), target="", p0="", p="",
            ).split("**")[0], state  # fmt: skip
            final = path.weights[-1]
            top = np.flatnonzero(final == final.max())
            target_name = escape_markdown(labels[target])
            others = ", ".join(escape_markdown(labels[i]) for i in top if i != target)
            mix = outranking_mix(keys, target)
            used = [] if mix is None else [int(i) for i in np.flatnonzero(mix > 0)]
            terms = " + ".join(f"{fmt(mix[i], 3)} × **{escape_markdown(labels[i])}**" for i in used)
            other = escape_markdown(labels[used[0]]) if used else ""
            said = {
                key
                for key in ("found", "found_tied", "cannot_win", "cannot_win_same", "not_yet")
                if texts[1]
                == t(f"exercises.search.{key}", lang, target=target_name, others=others,
                     best=escape_markdown(labels[top[0]]), mix=terms, other=other)
            }  # fmt: skip
            assert len(said) == 1, (state, texts[1])
            (said,) = said
            if said == "found":
                assert list(top) == [target], state
            if said == "found_tied":
                assert target in top and len(top) > 1, state
            if said in ("cannot_win", "cannot_win_same"):  # no direction of q makes it first alone
                assert target not in top and not wins_somewhere(points, target), state
                assert is_mix_of_others(points, target, mix), state
            if said == "cannot_win_same":  # one other key equal to it
                assert len(used) == 1 and (points[used[0]] == points[target]).all(), state
            if said == "not_yet":  # it can still come first, and another is first now
                assert target not in top and wins_somewhere(points, target), state
                assert escape_markdown(labels[top[0]]) in texts[1]
            seen |= {said, verb, name}
    assert {"found", "cannot_win", "cannot_win_same", "not_yet", "summary", "summary_rose"} <= seen
    assert set(NAME_TABLES) <= seen
