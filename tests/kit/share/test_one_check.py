"""One check of a value: a page's callback or view checks a setting with the very field of
its address schema that the address, the state file and the frame's check of crafted widget
states use, so the page cannot accept what its address refuses, or the other way round."""

from __future__ import annotations

import pytest

from attention_ui.kit.share.codec import MAX_INT
from attention_ui.luong import schema as luong_schema
from attention_ui.luong import state as luong
from attention_ui.regression import schema as regression_schema
from attention_ui.regression import state as regression
from tests.conftest import open_app_page

PAGE_CHECKS = [
    (
        luong_schema.SCHEMA,
        [s.field for s in luong.PRESET_INPUTS],
    ),
    (
        regression_schema.SCHEMA,
        [regression.SIGMA.field, regression.SEED.field, regression.COUNT.field],
    ),
]


@pytest.mark.parametrize(("schema", "checks"), PAGE_CHECKS, ids=["luong", "regression"])
def test_a_page_checks_a_setting_with_its_address_field_itself(schema, checks):
    for check in checks:
        assert schema.field(check.param) is check


def test_the_seed_box_highest_seed_is_used_and_the_next_draw_starts_again():
    at = open_app_page("luong")
    at.selectbox(key="luong.preset").set_value("random").run()
    at.number_input(key="luong.seed").set_value(MAX_INT).run()
    assert at.session_state["luong.seed"] == MAX_INT  # the box offers it, the address keeps it
    at.button(key="luong.redraw").click().run()
    assert not at.exception
    assert at.session_state["luong.seed"] == luong.DEFAULT_SEED + 1
