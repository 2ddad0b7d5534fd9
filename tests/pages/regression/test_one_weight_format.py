"""One weight, one way of writing it: the σ sentence and the chosen query's sentence under the
chart name the same largest weight in the same format (the σ sentence said "11.6 %" where the
other said "0.116"), in both languages."""

from __future__ import annotations

import pytest

from attention_core import nadaraya_watson
from attention_core.formatting import fmt
from attention_ui.kit.text.i18n import LANGUAGES
from attention_ui.regression import data
from attention_ui.regression.view import chosen_sentence, sigma_sentence


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("sigma", "kind"), [(0.5, "between"), (0.05, "nearest")])
def test_the_largest_weight_reads_the_same_in_both_sentences(lang, sigma, kind):
    x, y = data.preset_points("noisy", 0, 40)  # the page's default data
    queries = data.queries_along(x, 12)
    run = nadaraya_watson(queries, x, y, "gaussian", sigma)
    chosen, rows = 5, list(range(1, x.size + 1))
    weights = run.weights[chosen]
    said_kind, said = sigma_sentence(run, chosen, rows, lang)
    under_chart = chosen_sentence(run, chosen, rows, lang)
    assert said_kind == kind
    written = fmt(weights.max())
    assert written in said and written in under_chart, (said, under_chart)
    assert "%" not in said
