"""W_Q, W_K, W_V, W_O come in that order in the page, which is the order a phone shows them
(Streamlit stacks each column's contents there): two columns filled twice showed W_Q, W_V,
W_K, W_O on a phone."""

from __future__ import annotations

import re

from tests.conftest import open_app_page


def test_the_four_weight_grids_are_in_order_as_a_phone_stacks_them():
    at = open_app_page("transformer")
    names = [
        found.group(1)
        for element in at.latex
        if (found := re.search(r"\\underbrace\{\\mathbf\{W\}_(\w)\}", element.value))
    ]
    assert names == ["Q", "K", "V", "O"]
