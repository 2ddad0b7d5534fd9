"""Can one learner's input, or one link, make a rerun expensive? The worst inputs per page.

Run from the repository root:

    python bench/hostile.py            # every page
    python bench/hostile.py regression exercises

Rule: no input a learner or a link can give makes a rerun cost more than 8× that page's
default rerun. Each page is opened as a new visitor finds it and rerun over a small change
(a slider, a query, a τ); each hostile case is set up in another session (a paste, an address,
an open export panel, the largest sizes) and rerun over the same kind of change, in turns with
the default page, so that the shared machine's varying load weighs on both alike. Every timed
rerun follows a change, so no result of the previous run can simply be shown again. Each case
reports both medians and their ratio; the last table gives each page's worst case. This
script prints; it never asserts.

The cases, by page:
- database: 50 ASCII names of 100 characters and 4 queries of 100, edit distance and letter
  pairs; three names "ﷺ" × 100 (18 characters each once normalised); 5,000 rows pasted;
- gallery: the database grid from 50 long names and 4 long queries at all seven τ; a link
  with borrowed queries [""] or ["Li", "   "]; a link with 50 records of 2 × 100 characters
  and 10 queries of 100, export open;
- exercises: exercise 3 from 16 and from 50 names of 100 characters, 200 steps, export open;
- regression: 1,000 and 5,000 rows pasted; an edit naming a column the table does not have;
  50 points, 60 queries, export open;
- luong: every size at 8, concat, export and Share box open; the scaling demo at d_k = 4096;
- transformer: 8 tokens, d_model 8, 8 heads, causal, one head in detail, export open;
- home: the Share box open with an address of 60 parameters of 60,000 characters.
"""

from __future__ import annotations

import logging
import random
import statistics
import string
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere

# AppTest's pages build figures outside a script thread now and then, and Streamlit warns about
# each, which buries the table (its logger.level option is read only by `streamlit run`).
logging.disable(logging.WARNING)

from streamlit.testing.v1 import AppTest  # noqa: E402

from attention_ui.kit.grids.points_editor import current_points  # noqa: E402
from attention_ui.kit.grids.records_editor import current_records  # noqa: E402
from attention_ui.kit.share.codec import pack  # noqa: E402
from tests.support.grids import crafted_state, paste_block, table_edit  # noqa: E402

TARGET = 8.0
PANEL_LIMIT = 1_000_000  # characters of text the page shows in code blocks (export panels)
REPEATS = 5
RECORDS = "database.records"
Act = Callable[[AppTest], None]
Change = Callable[[AppTest, int], None]


@dataclass(frozen=True)
class Case:
    page: str
    label: str
    change: Change  # before timed rerun number n
    setup: Act = lambda at: None
    address: dict[str, str] = field(default_factory=dict)


def open_page(name: str, address: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=600)
    for key, value in (address or {}).items():
        at.query_params[key] = value
    at.switch_page(f"pages/{name}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def long_names(count: int, length: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(string.ascii_letters, k=length)) for _ in range(count)]


# --- How the browser gives an input ---------------------------------------------------------


def flip(key: str, first: Any, second: Any) -> Change:
    """A widget moved back and forth between two values."""

    def change(at: AppTest, n: int) -> None:
        at.session_state[key] = second if n % 2 else first

    return change


def query_edit(queries: list[str]) -> Change:
    """The database page's first query gets a new last character."""

    def change(at: AppTest, n: int) -> None:
        first = queries[0][:-1] + string.ascii_letters[n % 52]
        at.text_input(key="database.query").set_value(", ".join([first, *queries[1:]]))

    return change


def widgets(**values: Any) -> Act:
    """Widgets set one run after another (keys with '__' for '.')."""

    def act(at: AppTest) -> None:
        for key, value in values.items():
            at.session_state[key.replace("__", ".")] = value
            at.run()

    return act


def then(*acts: Act) -> Act:
    def act(at: AppTest) -> None:
        for one in acts:
            one(at)
            assert not at.exception, [e.value for e in at.exception]

    return act


def paste_records(keys: list[str]) -> Act:
    """The records table replaced by `keys` (value: the key reversed), as a learner would:
    every row but the first deleted, the block pasted into its first cell (the table grows to
    hold it, up to its limit)."""

    def act(at: AppTest) -> None:
        at.switch_page("pages/database.py").run()
        existing = len(current_records(RECORDS, at.session_state))
        table_edit(at, RECORDS, deleted=list(range(1, existing)))
        block = "\n".join(f"{k}\t{k[::-1]}\t{i}" for i, k in enumerate(keys))
        paste_block(at, RECORDS, (0, 0), block, rows=1)
        at.run()

    return act


def ask(queries: list[str], similarity: str) -> Act:
    def act(at: AppTest) -> None:
        at.radio(key="database.similarity").set_value(similarity)
        at.text_input(key="database.query").set_value(", ".join(queries)).run()

    return act


def paste_points(count: int) -> Act:
    """A block of `count` rows pasted into the training table's last row."""

    def act(at: AppTest) -> None:
        rows = len(current_points("regression.points", at.session_state))
        block = "\n".join(f"{float(i % 700) - 350.0}\t{float(i % 13)}" for i in range(count))
        paste_block(at, "regression.points", (rows - 1, 0), block)
        at.run()

    return act


def crafted_points(at: AppTest) -> None:
    crafted_state(at, "regression.points", {"edit": {"token": "t", "entries": [[0, 99, 1.0]]}})
    at.run()


def visit(page: str) -> Act:
    return lambda at: at.switch_page(f"pages/{page}.py").run()


def panel(page: str) -> Act:
    return widgets(**{f"{page}__export": True})


# --- The cases ------------------------------------------------------------------------------

GALLERY_TAU = flip("gallery.temperature", 1.0, 2.0)
DEFAULTS: dict[str, Change] = {
    "home": flip("home.q1", 1.0, 1.5),
    "luong": flip("luong.tau", 1.0, 2.0),
    "database": query_edit(["Li"]),
    "gallery": GALLERY_TAU,
    "exercises": flip("exercises.match.tau", 0.25, 0.5),
    "regression": flip("regression.sigma", 0.5, 0.6),
    "transformer": flip("transformer.positions", False, True),
}
SEVEN_TAUS = [0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0]


def database_cases() -> list[Case]:
    names, queries = long_names(50, 100, 1), long_names(4, 100, 2)
    cases = [
        Case(
            "database",
            f"50 names × 100 chars, 4 queries, {similarity}",
            query_edit(queries),
            then(paste_records(names), ask(queries, similarity)),
        )
        for similarity in ("edit", "ngram")
    ]
    cases.append(
        Case(
            "database",
            "3 names ﷺ × 100, that query, edit",
            query_edit(["\ufdfa" * 99 + "x"]),
            then(paste_records(["\ufdfa" * 100] * 3), ask(["\ufdfa" * 100], "edit")),
        )
    )
    cases.append(
        Case(
            "database",
            "5,000 rows pasted, ngram",
            query_edit(["Lix"]),
            then(paste_records(long_names(5000, 8, 3)), ask(["Li"], "ngram")),
        )
    )
    return cases


def gallery_cases() -> list[Case]:
    keys, values = long_names(50, 100, 4), long_names(50, 100, 7)
    records = [(k, v, float(i)) for i, (k, v) in enumerate(zip(keys, values, strict=True))]
    grid = {"v": "1", "grid": "database", "taus": "0.1_0.25_0.5_1_2_4_10"}
    return [
        Case(
            "gallery",
            "database grid 50 × 4 long names, 7 τ",
            GALLERY_TAU,
            then(
                paste_records(long_names(50, 100, 1)),
                ask(long_names(4, 100, 2), "edit"),
                visit("gallery"),
                widgets(gallery__grid__source="database", gallery__grid__temperatures=SEVEN_TAUS),
            ),
        ),
        Case(
            "gallery",
            "link, borrowed queries [''] ",
            GALLERY_TAU,
            address=grid | {"lq": "i1ZSigUA"},
        ),
        Case(
            "gallery",
            "link, borrowed queries ['Li', '   ']",
            GALLERY_TAU,
            address=grid | {"lq": pack(["Li", "   "])},
        ),
        Case(
            "gallery",
            "link, 50 records 2 × 100, 10 queries, export",
            GALLERY_TAU,
            panel("gallery"),
            address=grid | {"ldb": pack(records), "lq": pack(long_names(10, 100, 5))},
        ),
    ]


def exercise_cases() -> list[Case]:
    return [
        Case(
            "exercises",
            f"exercise 3, {count} names × 100, 200 steps, export",
            flip("exercises.search.rate", 0.5, 0.4),
            then(
                paste_records(long_names(count, 100, 6)),
                visit("exercises"),
                widgets(
                    exercises__section="search",
                    exercises__search__source="names",
                    exercises__search__steps=200,
                ),
                panel("exercises"),
            ),
        )
        for count in (16, 50)
    ]


def regression_cases() -> list[Case]:
    sigma = DEFAULTS["regression"]
    return [
        *(Case("regression", f"{n:,} rows pasted", sigma, paste_points(n)) for n in (1000, 5000)),
        Case("regression", "an edit naming column 'zz'", sigma, crafted_points),
        Case(
            "regression",
            "50 points, 60 queries, export",
            sigma,
            then(widgets(regression__count=50, regression__queries=60), panel("regression")),
        ),
    ]


def other_cases() -> list[Case]:
    sizes = {f"luong__size__{name}": 8 for name in ("d_q", "d_k", "d_v", "n", "m")}
    junk = {f"p{i}": "x" * 60_000 for i in range(60)}
    return [
        Case(
            "luong",
            "every size 8, concat, export + Share box",
            DEFAULTS["luong"],
            then(widgets(**sizes, luong__score="concat", share__box=True), panel("luong")),
        ),
        Case("luong", "scaling demo at d_k = 4096", DEFAULTS["luong"], widgets(luong__sdk=4096)),
        Case(
            "transformer",
            "8 tokens, d 8, 8 heads, causal, detail, export",
            DEFAULTS["transformer"],
            then(
                widgets(
                    transformer__sentence="abcdefghijkl " * 8,
                    transformer__d_model=8,
                    transformer__heads=8,
                    transformer__causal=True,
                    transformer__detail=True,
                ),
                panel("transformer"),
            ),
        ),
        Case(
            "home",
            "60 parameters × 60,000 chars, Share box",
            DEFAULTS["home"],
            widgets(share__box=True),
            address=junk,
        ),
    ]


# --- Timing ---------------------------------------------------------------------------------


def rerun(at: AppTest, change: Change, n: int) -> float:
    change(at, n)
    start = time.perf_counter()
    at.run()
    elapsed = time.perf_counter() - start
    assert not at.exception, [e.value for e in at.exception]
    return elapsed


def shown_code(at: AppTest) -> int:
    """Characters of text the page holds in code blocks: its export panel, its Share box."""
    return sum(len(block.value) for block in at.code)


def paired(default: AppTest, page_change: Change, case: Case) -> tuple[float, float, int]:
    """(the default page's median rerun, the case's, the case's code text): the reruns timed
    in turns, one of each, so that the machine's load (shared, it varies by the minute)
    weighs on both alike."""
    at = open_page(case.page, case.address)
    case.setup(at)
    assert not at.exception, [e.value for e in at.exception]
    at.switch_page(f"pages/{case.page}.py").run()
    base, cost = [], []
    for n in range(REPEATS + 1):
        pair = rerun(default, page_change, n), rerun(at, case.change, n)
        if n:  # the first rerun warms caches
            base.append(pair[0])
            cost.append(pair[1])
    return statistics.median(base), statistics.median(cost), shown_code(at)


def main(pages: list[str]) -> None:
    sys.stdout.reconfigure(line_buffering=True)  # each figure shows as soon as it is measured
    print(f"Rerun after a hostile input vs the page's default rerun (target ≤ {TARGET:g}×),")
    print(f"medians of {REPEATS} reruns each, the default page's timed in turns with the case's\n")
    cases = [
        *database_cases(),
        *gallery_cases(),
        *exercise_cases(),
        *regression_cases(),
        *other_cases(),
    ]
    worst: dict[str, tuple[str, float]] = {}
    largest_panel = 0
    print(f"{'page, case':<58} {'default':>9} {'case':>9}  ratio  {'code text':>10}")
    for page in pages:
        default = open_page(page)
        worst[page] = ("(none)", 0.0)
        for case in (c for c in cases if c.page == page):
            base, cost, code = paired(default, DEFAULTS[page], case)
            ratio = cost / base
            largest_panel = max(largest_panel, code)
            print(
                f"{page + ', ' + case.label:<58} {base * 1000:6.0f} ms {cost * 1000:6.0f} ms"
                f"  {ratio:5.2f}×  {code / 1000:7.1f} kB"
            )
            if ratio > worst[page][1]:
                worst[page] = (case.label, ratio)
    print(f"\n{'page':<12} {'worst case':<48} ratio")
    for page, (label, ratio) in worst.items():
        print(f"{page:<12} {label:<48} {ratio:5.2f}×")
    top = max(ratio for _, ratio in worst.values())
    print(f"worst ratio {top:.2f}× ({'ok' if top <= TARGET else 'over target'})")
    verdict = "ok" if largest_panel <= PANEL_LIMIT else "over the limit"
    print(f"largest code text on a page {largest_panel / 1000:.1f} kB (limit 1,000 kB: {verdict})")


if __name__ == "__main__":
    main(sys.argv[1:] or list(DEFAULTS))
