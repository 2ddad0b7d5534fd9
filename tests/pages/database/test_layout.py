"""The database page's controls in two rows: the table beside the query and its similarity,
then τ and k beside the normalization. With τ, the normalization and k at the foot of the
query's column, a desktop left about 350 px empty under the table (1400 px screenshot)."""

from __future__ import annotations

from attention_ui.database import state
from tests.support.pages import open_page


def column_of(at, kind: str, key: str):
    """The innermost column holding the widget of `kind` ("text_input", ...) with `key`."""
    holding = [c for c in at.columns if any(w.key == key for w in getattr(c, kind))]
    assert holding, key
    return min(holding, key=lambda c: len(list(c)))


def test_the_query_column_holds_the_query_and_its_similarity_only():
    at = open_page("database")
    query = column_of(at, "text_input", state.QUERY.key)
    assert any(w.key == state.SIMILARITY.key for w in query.radio)
    assert not any(w.key == state.NORMALIZATION.key for w in query.radio)
    assert not any(w.key == state.TOP_K.key for w in query.number_input)
    assert not any(w.key == state.TEMPERATURE.key for w in query.select_slider)


def test_temperature_and_k_sit_beside_the_normalization():
    at = open_page("database")
    settings = column_of(at, "select_slider", state.TEMPERATURE.key)
    assert any(w.key == state.TOP_K.key for w in settings.number_input)
    normalization = column_of(at, "radio", state.NORMALIZATION.key)
    assert normalization is not settings
