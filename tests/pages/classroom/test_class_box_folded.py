"""Out of a class, the sidebar's Class box is folded on every page's first view, and what it holds
(the start button, the code box, the join button) is built only once it is opened: a first view
builds only what it shows (issue 25; opening it reruns the page)."""

from __future__ import annotations

import pytest

from attention_ui.kit.text.i18n import t
from attention_ui.page_list import NAMES
from tests.support.classroom import open_class_box
from tests.support.pages import open_page


@pytest.mark.parametrize("page", NAMES)
def test_the_folded_class_box_is_built_only_once_opened(page):
    at = open_page(page)
    box = next(e for e in at.sidebar.expander if e.label == t("classroom.title", "en"))
    assert not box.children, "folded, yet built"
    at = open_class_box(at)
    assert not at.exception
    box = next(e for e in at.sidebar.expander if e.label == t("classroom.title", "en"))
    assert {"classroom.start", "classroom.join"} <= {b.key for b in box.button}
    assert [i.key for i in box.text_input] == ["classroom.join_code"]
