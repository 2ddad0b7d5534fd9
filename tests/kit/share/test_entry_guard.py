"""Every entry of an address or a state file passes one guard (share_codec.guard) before any
field reads it: an entry that is not text, a name with a lone surrogate, a "page" that is not a
name, and a missing "v" (read as version 1, for a file as for an address) never raise, and the
page and its Share box are drawn."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.share import codec
from attention_ui.kit.share.address import APP_NAME, read_state_file
from attention_ui.kit.share.codec import UNREADABLE, decode
from attention_ui.page_list import SCHEMAS
from tests.conftest import APP

SURROGATE_KEY = (
    b'{"app":"attention-explorer","v":1,"page":"luong","state":{"\\ud800x":"1","tau":"2"}}'
)


def document(**fields) -> bytes:
    return json.dumps({"app": APP_NAME, **fields}).encode()


def share_box(page: str = "luong") -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    at.switch_page(f"pages/{page}.py").run()
    at.session_state["share.box"] = True
    at.run()
    assert not at.exception
    return at


def upload(at: AppTest, data: bytes) -> AppTest:
    at.sidebar.get("file_uploader")[0].upload("state.json", data, "application/json")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_state_file_whose_key_holds_a_lone_surrogate_opens_and_says_what_it_left_out():
    at = upload(share_box(), SURROGATE_KEY)
    assert at.session_state["luong.tau"] == 2.0  # the readable entry is used
    warnings = [w.value for w in at.sidebar.warning]
    assert any("?x" in w for w in warnings), warnings  # named as it can be shown
    at.run()
    assert not at.exception
    assert at.sidebar.get("file_uploader"), "the Share box is drawn"
    assert at.sidebar.code and at.sidebar.code[0].value.startswith("/luong?")


@pytest.mark.parametrize("page", [["luong"], {"a": 1}, 3, None, True])
def test_a_state_file_whose_page_is_not_a_name_is_refused_without_an_exception(page):
    assert read_state_file(document(v=1, page=page, state={"tau": "2"})) is None


@pytest.mark.parametrize(
    "entries",
    [
        {"\ud800x": "1"},
        {"tau": "\udfff"},
        {"tau": ["1", "\ud800"]},
        {"tau": {"a": 1}},
        {"tau": [["2"]]},
        {"tau": 2},
        {"tau": None},
    ],
    ids=repr,
)
def test_the_guard_leaves_out_every_entry_that_is_not_text_under_a_name_that_can_be_shown(
    entries,
):
    texts, ignored = codec.guard(entries)
    assert texts == {}
    assert [item.code for item in ignored] == [UNREADABLE]
    ignored[0].param.encode("utf-8")  # a name a notice can send to the browser
    decoded = decode(SCHEMAS["luong"], entries)
    assert decoded.values == {} and decoded.ignored == ignored


def test_a_state_file_without_v_is_read_as_version_1_as_an_address_without_v_is():
    read = read_state_file(document(page="luong", state={"tau": "2", "n": "3"}))
    assert read is not None
    page, params, skipped = read
    assert not skipped
    from_file = decode(SCHEMAS[page], params)
    from_address = decode(SCHEMAS["luong"], {"tau": "2", "n": "3"})
    assert from_file == from_address
    assert from_file.ignored == [] and from_file.values["luong.tau"] == 2.0


@pytest.mark.parametrize("version", [2, "2", "1.0", None, [1]])
def test_a_state_file_with_another_version_is_read_as_the_address_with_that_v_is(version):
    page, params, _ = read_state_file(document(v=version, page="luong", state={"tau": "2"}))
    from_file = decode(SCHEMAS[page], params)
    assert from_file.values == {} and [i.code for i in from_file.ignored] == ["newer_version"]


def test_opening_a_file_without_v_uses_its_state():
    at = upload(share_box(), document(page="luong", state={"tau": "2"}))
    assert at.session_state["luong.tau"] == 2.0
    assert not at.sidebar.warning, [w.value for w in at.sidebar.warning]
