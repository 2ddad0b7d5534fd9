"""Can one learner's input make a rerun expensive? The worst inputs against the default page.

Run from the repository root:

    python bench/hostile.py

A rerun's cost must stay bounded whatever a learner types: no input may make a rerun cost more
than 10× the default page's rerun (issue 14). The inputs are the worst a review found, given
the way the browser gives them (the table's edit state, the query box, the radio, the slider):

- database page, 50 ASCII names of 100 characters and 4 queries of 100 characters, with the
  edit-distance similarity and with letter pairs;
- database page, three names "ﷺ" × 100 (U+FDFA, 18 characters each once normalised) and that
  query, edit distance;
- database page after pasting 5,000 rows (the table keeps at most 50);
- weights gallery, live grid from the database page's 50 long names and 4 queries, all seven
  τ columns, the τ slider moved.

Every timed rerun follows a change (a new query, or another τ), so no result of the previous
run can simply be shown again. Each page is opened through AppTest in this process, the
default page first; each scenario reports the median of its repeats and its ratio to the
default rerun of the same page. This script prints; it never asserts.
"""

from __future__ import annotations

import random
import statistics
import string
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere

from streamlit.testing.v1 import AppTest  # noqa: E402

from attention_ui.kit.grids.records_editor import current_records, editor_key  # noqa: E402

TARGET = 10.0
REPEATS = 5
RECORDS = "database.records"


def open_page(name: str) -> AppTest:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=600).run()
    at.switch_page(f"pages/{name}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def long_names(count: int, length: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(string.ascii_letters, k=length)) for _ in range(count)]


def paste_rows(at: AppTest, keys: list[str]) -> None:
    """Replace the records table by `keys` (value: the key reversed, number: its row), as the
    browser sends a paste into the table: the old rows deleted, the new ones added."""
    key = editor_key(RECORDS, at.session_state)
    existing = len(current_records(RECORDS, at.session_state))
    at.session_state[key] = {
        "edited_rows": {},
        "deleted_rows": list(range(existing)),
        "added_rows": [
            {"key": k, "value": k[::-1], "number": float(i)} for i, k in enumerate(keys)
        ],
    }
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def ask(queries: list[str], similarity: str) -> Callable[[AppTest], None]:
    def setup(at: AppTest) -> None:
        at.radio(key="database.similarity").set_value(similarity)
        at.text_input(key="database.query").set_value(", ".join(queries)).run()

    return setup


def query_edit(queries: list[str]) -> Callable[[AppTest, int], None]:
    """Before timed rerun number `n`: the first query gets a new last character."""

    def change(at: AppTest, n: int) -> None:
        first = queries[0][:-1] + string.ascii_letters[n % 52]
        at.text_input(key="database.query").set_value(", ".join([first, *queries[1:]]))

    return change


def tau_move(key: str, values: tuple[float, float]) -> Callable[[AppTest, int], None]:
    def change(at: AppTest, n: int) -> None:
        at.select_slider(key=key).set_value(values[n % 2])

    return change


def median_rerun(at: AppTest, change: Callable[[AppTest, int], None]) -> float:
    times = []
    for n in range(REPEATS + 1):
        change(at, n)
        start = time.perf_counter()
        at.run()
        elapsed = time.perf_counter() - start
        assert not at.exception, [e.value for e in at.exception]
        if n:  # the first rerun warms caches
            times.append(elapsed)
    return statistics.median(times)


def database_scenarios() -> list[tuple[str, AppTest, Callable[[AppTest, int], None]]]:
    names, queries = long_names(50, 100, 1), long_names(4, 100, 2)
    scenarios = []
    for similarity in ("edit", "ngram"):
        at = open_page("database")
        paste_rows(at, names)
        ask(queries, similarity)(at)
        scenarios.append(
            (f"50 names × 100 chars, 4 queries, {similarity}", at, query_edit(queries))
        )
    at = open_page("database")
    paste_rows(at, ["\ufdfa" * 100] * 3)
    ask(["\ufdfa" * 100], "edit")(at)
    scenarios.append(("3 names ﷺ × 100, that query, edit", at, query_edit(["\ufdfa" * 99 + "x"])))
    at = open_page("database")
    paste_rows(at, long_names(5000, 8, 3))
    rows = len(current_records(RECORDS, at.session_state))
    ask(["Li"], "ngram")(at)
    scenarios.append((f"5,000 rows pasted ({rows} kept), ngram", at, query_edit(["Lix"])))
    return scenarios


def gallery_worst() -> AppTest:
    at = open_page("database")
    paste_rows(at, long_names(50, 100, 1))
    ask(long_names(4, 100, 2), "edit")(at)
    at.switch_page("pages/gallery.py").run()
    at.radio(key="gallery.grid.source").set_value("database")
    at.multiselect(key="gallery.grid.temperatures").set_value(
        [0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0]
    ).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def main() -> None:
    sys.stdout.reconfigure(line_buffering=True)  # each figure shows as soon as it is measured
    print(
        f"Worst rerun vs the default page's rerun (target ≤ {TARGET:g}×), "
        f"median of {REPEATS} reruns each"
    )
    default = median_rerun(open_page("database"), query_edit(["Li"]))
    print(f"{'database, default page (query edit)':<52} {default * 1000:8.1f} ms")
    worst = 0.0
    for label, at, change in database_scenarios():
        cost = median_rerun(at, change)
        worst = max(worst, cost / default)
        print(f"{'database, ' + label:<52} {cost * 1000:8.1f} ms  {cost / default:6.2f}×")
    gallery_default = median_rerun(
        open_page("gallery"), tau_move("gallery.temperature", (1.0, 2.0))
    )
    print(f"{'gallery, default page (τ slider)':<52} {gallery_default * 1000:8.1f} ms")
    cost = median_rerun(gallery_worst(), tau_move("gallery.temperature", (1.0, 2.0)))
    worst = max(worst, cost / gallery_default)
    print(
        f"{'gallery, database grid 50 × 4 long names, 7 τ':<52} {cost * 1000:8.1f} ms  "
        f"{cost / gallery_default:6.2f}×"
    )
    verdict = "ok" if worst <= TARGET else "over target"
    print(f"worst ratio {worst:.2f}× ({verdict})")


if __name__ == "__main__":
    main()
