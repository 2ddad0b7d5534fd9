"""Streamlit keeps the pages' widget values (persist_state="session"): no hand-written copy of
them comes back. Counted as tools/structure_report.py counts them: no call of the old
keep/restore functions (restore_widgets, keep_widgets, a page's state.restore / remember, keep,
kept, set_widget, widget_value) and no shadow key (`<key>.kept`) in attention_ui or pages/; and
every keyed setting of a page (declared with kit/state/settings.py) is drawn with
persist_state."""

from __future__ import annotations

import ast

from tests.conftest import REPO
from tools import structure_report


def counts(count) -> dict[str, int]:
    found = {}
    for path in structure_report.source_files():
        n = count(ast.parse(path.read_text(encoding="utf-8")))
        if n:
            found[str(path.relative_to(REPO))] = n
    return found


def test_no_hand_written_keep_or_restore_call():
    assert counts(structure_report.keep_restore_calls) == {}


def test_no_shadow_key():
    assert counts(structure_report.shadow_keys) == {}


def test_the_counts_see_what_they_count():
    """The counters find the old machinery (so that 0 above means none, not a blind count)."""
    old = ast.parse(
        "restore_widgets(D)\nkeep_widgets(D)\nstate.restore()\nstate.remember()\n"
        "page_state.kept('a')\nkeep('a', 1)\nset_widget('a', 1)\nwidget_value('a')\n"
        "KEPT = '.kept'\nkey = 'some.setting.kept'\n"
    )
    assert structure_report.keep_restore_calls(old) == 8
    assert structure_report.shadow_keys(old) == 2


WIDGETS = {
    "slider",
    "number_input",
    "selectbox",
    "radio",
    "checkbox",
    "toggle",
    "text_input",
    "text_area",
    "segmented_control",
    "pills",
    "select_slider",
    "multiselect",
}


def test_every_keyed_setting_of_a_page_is_kept_by_streamlit():
    """A widget of a page package or script drawn with a key of a page's settings (a
    `state.<NAME>` key, one of a dict of them, or a key passed in; not a literal or formatted
    key such as a puzzle's guesses) is drawn with persist_state="session"."""
    missing = []
    files = [*sorted((REPO / "pages").glob("*.py"))]
    for name in structure_report.PAGES:
        files += sorted((REPO / "attention_ui" / name).glob("*.py"))
    files.append(REPO / "attention_ui" / "kit" / "teaching" / "predict_view.py")
    files.append(REPO / "attention_ui" / "kit" / "state" / "settings.py")  # declared settings
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in WIDGETS
            ):
                continue
            keywords = {k.arg: k.value for k in node.keywords}
            key = keywords.get("key")
            setting = isinstance(key, ast.Attribute | ast.Name | ast.Subscript)
            persisted = keywords.get("persist_state")
            if setting and not (
                isinstance(persisted, ast.Constant) and persisted.value == "session"
            ):
                missing.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert missing == []
