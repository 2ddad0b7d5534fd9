"""Exercise 3's export stays small whatever the records are: its per-step listing (the query,
weights and loss of every iterate) holds at most export.export.LISTING_NUMBERS numbers and says how
many steps it left out, in the learner's language; the script still recomputes every step and
checks the final query, the final loss and the hard lookup; no panel holds more than 1 MB."""

from __future__ import annotations

import random
import string

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_ui.kit.export import panel as export_view
from attention_ui.kit.export import scripts as export
from attention_ui.kit.export.scripts import numpy_script
from attention_ui.kit.grids.records_editor import current_records
from attention_ui.kit.text.i18n import catalog
from tests.conftest import APP
from tests.support.grids import grid_columns, table_edit

PANEL_LIMIT = 1_000_000  # characters of text in one export panel


def long_names(count: int, length: int) -> list[str]:
    rng = random.Random(3)
    return ["".join(rng.choices(string.ascii_letters, k=length)) for _ in range(count)]


def search_export(lang: str, names: list[str], steps: int) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params["lang"] = lang
    at.switch_page("pages/database.py").run()
    key, value, number = grid_columns(at, "database.records")  # labelled in `lang`
    rows = [{key: name, value: "v", number: "1"} for name in names]
    table_edit(at, "database.records", deleted=list(range(6)), added=rows)
    at.run()
    assert [row[0] for row in current_records("database.records", at.session_state)] == names
    at.switch_page("pages/exercises.py").run()
    for key, value in (
        ("exercises.section", "search"),
        ("exercises.search.source", "names"),
        ("exercises.search.steps", steps),
        ("exercises.export", True),
    ):
        at.session_state[key] = value
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def panel_text(at: AppTest) -> int:
    return sum(len(code.value) for code in at.main.code)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_sixteen_long_names_and_200_steps_export_a_bounded_listing_that_says_what_it_left_out(
    lang,
):
    at = search_export(lang, long_names(16, 100), 200)
    assert panel_text(at) < PANEL_LIMIT
    code = {block.language: block.value for block in at.main.code}
    listed = int(code["python"].split("holds the first ")[1].split(" ")[0])
    assert listed < 201
    said = catalog(lang)["export.steps_left_out"].format(
        listed=listed, total=201, left=201 - listed
    )
    assert said in [info.value for info in at.main.info]
    assert said.split("。")[0].split(":")[0] in code["latex"]
    exec(compile(code["python"], "<export>", "exec"), {"__name__": "__main__"})


def test_a_short_descent_is_listed_in_full_and_says_nothing_about_it():
    at = search_export("en", ["Zhang", "Lipton", "Li"], 30)
    code = {block.language: block.value for block in at.main.code}
    assert "holds the first" not in code["python"]
    assert not any("left out" in info.value for info in at.main.info)


def test_the_listing_holds_as_many_steps_as_fit_and_at_least_one():
    assert export.steps_listed(201, 3) == 201
    assert export.steps_listed(201, 1000) == export.LISTING_NUMBERS // 1000
    assert export.steps_listed(201, 10 * export.LISTING_NUMBERS) == 1


def test_a_large_expected_array_is_checked_by_its_shape_and_sums_and_still_fails_when_wrong():
    big = np.arange(export.LISTING_NUMBERS + 1, dtype=float).reshape(1, -1)
    script = numpy_script(
        title="t",
        inputs={"n": big.size},
        computation="K = np.arange(n, dtype=float)[None, :] + shift",
        expected={"K": big},
    ).replace("import numpy as np", "import numpy as np\nshift = SHIFT")
    assert len(script) < 10_000
    exec(compile(script.replace("SHIFT", "0.0"), "<ok>", "exec"), {"__name__": "__main__"})
    with pytest.raises(AssertionError, match="K differs"):
        exec(compile(script.replace("SHIFT", "1e-3"), "<bad>", "exec"), {"__name__": "__main__"})


def test_a_code_block_shows_at_most_its_share_and_says_how_much_there_is(monkeypatch):
    shown, captions = [], []
    monkeypatch.setattr(export_view.st, "code", lambda text, **_: shown.append(text))
    monkeypatch.setattr(export_view.st, "caption", captions.append)
    export_view.show_code("x" * (export_view.SHOWN_CHARS + 5), "python")
    export_view.show_code("short", "python")
    assert [len(text) for text in shown] == [export_view.SHOWN_CHARS, 5]
    assert len(captions) == 1 and f"{export_view.SHOWN_CHARS + 5:,}" in captions[0]
