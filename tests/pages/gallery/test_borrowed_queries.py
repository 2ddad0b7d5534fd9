"""The gallery's database grid borrows the database page's queries (or an address's): they are
checked as the database page checks its own, so blank, too many or too long ones never raise."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.share.codec import pack
from tests.conftest import APP
from tests.plotly_json import charts


def gallery(params: dict[str, str]) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    at.switch_page("pages/gallery.py").run()
    return at


def rows_of_the_grid(at: AppTest) -> list[str]:
    import json

    spec = json.loads(charts(at)[-1].proto.spec)
    return list(spec["data"][0]["y"])


@pytest.mark.parametrize(
    ("lq", "rows"),
    [
        ("i1ZSigUA", ["q1 · Li", "q2 · Smola", "q3 · Hu"]),  # [""]: the default queries
        (pack([""]), ["q1 · Li", "q2 · Smola", "q3 · Hu"]),
        (pack(["Li", "   "]), ["q1 · Li"]),
        (pack(["  Hu  ", "", "Smola"]), ["q1 · Hu", "q2 · Smola"]),
        (pack(["\ufdfa" * 10]), ["q1 · " + "\ufdfa" * 5]),  # 90 of its 180 characters
    ],
    ids=["the reported address", "blank", "a blank second", "padded", "long once normalised"],
)
def test_borrowed_queries_are_checked_as_the_database_page_checks_them(lq, rows):
    at = gallery({"v": "1", "grid": "database", "lq": lq})
    assert not at.exception, [e.value for e in at.exception]
    assert rows_of_the_grid(at) == rows
