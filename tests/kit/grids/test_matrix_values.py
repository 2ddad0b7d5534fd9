"""matrix_values: the cells the learner sees (hidden ones left out), as floats, in the grid's
shape, read from the store once."""

from __future__ import annotations

import numpy as np

from attention_ui.kit.grids import store
from attention_ui.kit.grids.matrix_editor import matrix_values, set_matrix


def test_the_visible_cells_in_the_grids_shape():
    session: dict = {}
    assert matrix_values("m", session) is None
    set_matrix("m", np.arange(12.0).reshape(3, 4), session)
    np.testing.assert_array_equal(matrix_values("m", session), np.arange(12.0).reshape(3, 4))
    store.fit("m", (2, 3), 0.0, session)  # a shrink hides cells, which the store keeps
    shown = matrix_values("m", session)
    np.testing.assert_array_equal(shown, [[0.0, 1.0, 2.0], [4.0, 5.0, 6.0]])
    assert shown.dtype == float
    assert shown.tolist() == np.array(store.visible("m", session), dtype=float).tolist()
    store.fit("m", (0, 3), 0.0, session)
    assert matrix_values("m", session).shape == (0, 3)
