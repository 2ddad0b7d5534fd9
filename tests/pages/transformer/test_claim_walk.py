"""The transformer page's claim walk: each sentence about the heads, built by the page's own
functions from the page's `compute`, must hold for the engine's numbers where it is shown, in
both languages: the repeated word, the heads' rows, the causal mask, the identity check."""

from __future__ import annotations

import itertools

import numpy as np

from attention_core import multi_head
from attention_ui.kit.text.i18n import LANGUAGES, t
from attention_ui.transformer.compute import Inputs, compute
from attention_ui.transformer.model import embeddings, projections
from attention_ui.transformer.view import identity_sentence, repeated_word_note, weights_note


def test_every_transformer_sentence_holds_for_the_engines_numbers():
    seen: set[str] = set()
    tokens = ["the", "cat", "sat", "on", "the", "mat"]
    for d_model, heads, positions, causal, edit in itertools.product(
        (4, 8), (1, 2, 4), (False, True), (False, True), (False, True)
    ):
        if d_model % heads:
            continue
        X = embeddings(tokens, d_model, 0)
        if edit:  # the learner edits the second "the"
            X[4, 0] += 1.0
        W = projections(d_model, 0)
        mh = compute(Inputs(X, W, heads, causal=causal, positions=positions))
        # The grid's caption: every row sums to 1, scores divided by √d_h with d_h = d_model/h.
        np.testing.assert_allclose(mh.weights.sum(axis=2), 1.0, rtol=0, atol=1e-12)
        assert mh.d_head == d_model // heads
        if causal:  # "the cells above the diagonal are exactly 0"
            assert (mh.weights[:, np.triu_indices(len(tokens), 1)[0],
                               np.triu_indices(len(tokens), 1)[1]] == 0).all()  # fmt: skip
        same_x = np.array_equal(X[0], X[4])
        same_input = np.array_equal(mh.inputs[0], mh.inputs[4])
        same_weights = np.array_equal(mh.weights[:, 0], mh.weights[:, 4])
        for lang in LANGUAGES:
            note = repeated_word_note(mh, tokens, X, lang)
            words = {
                key: t(f"transformer.repeat.{key}", lang, token="the", first=1, second=5)
                for key in ("same", "masked", "positions", "positions_masked")
            }
            said = next((key for key, text in words.items() if text == note), None)
            assert (note is None) == (said is None)
            state = (d_model, heads, positions, causal, edit, lang)
            if said == "same":  # same row of X, no positions, no mask: the same weights
                assert same_x and not positions and not causal and same_weights, state
            if said == "masked":  # same row, different weights, the mask makes the difference
                assert same_input and causal and not same_weights, state
            if said == "positions":  # same word, positions make the rows and weights differ
                assert same_x and positions and not same_input and not same_weights, state
                assert not causal, state  # under the mask the positions are not the cause
            if said == "positions_masked":  # the mask alone would make the weights differ
                assert same_x and positions and causal and not same_input, state
                unmasked_positions_only = multi_head(
                    X, np.eye(d_model), np.eye(d_model), np.eye(d_model), np.eye(d_model), 1,
                    causal=True, positions=False)  # fmt: skip
                assert not np.array_equal(
                    unmasked_positions_only.weights[:, 0], unmasked_positions_only.weights[:, 4]
                ), state
            # The identity check quotes the call it makes: X + P with positions, mask= with it.
            identity = identity_sentence(mh, lang)
            assert ("X + P" in identity) == positions and ("causal_mask(6)" in identity) == causal
            # The W's are called the seed's random numbers only when they are.
            note_w = weights_note(W, 0, lang)
            assert note_w == t("transformer.heads_grid.random", lang, seed=0)
            edited = {**W, "W_Q": W["W_Q"] + 1}
            assert weights_note(edited, 0, lang) == t("transformer.heads_grid.edited", lang)
            if said is None:  # nothing general would be true
                assert edit or not same_x, state
            seen.add(said)
    assert {"same", "masked", "positions", "positions_masked", None} <= seen
