"""Every field of every page's address at once, given one hostile value: the page draws,
with no traceback. One run per page and value, so a field whose reader lets a value through
that its page cannot store (a one-column training table, say) fails here by name."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.share.codec import pack
from attention_ui.kit.text.i18n import catalog
from attention_ui.page_list import PAGES
from tests.conftest import APP

HOSTILE = {
    "one number": "9",
    "one column": "1~2~3",
    "three columns": "1_2_3~4_5_6",
    "no number": "nan",
    "overflow": "1e309",
    "empty": "",
    "huge grid": pack([[1e308] * 8] * 8),
}


@pytest.mark.parametrize("value", list(HOSTILE.values()), ids=list(HOSTILE))
@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_every_field_given_a_hostile_value_at_once_never_raises(page, value):
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["v"] = "1"
    at.query_params["lang"] = "en"
    for field in page.schema.fields:
        at.query_params[field.param] = value
    at.switch_page(page.path).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [title.value for title in at.title] == [catalog("en")[f"{page.name}.title"]]
