"""Browser tests: `streamlit run app.py` on a free loopback port, driven by Playwright in
Debian's Chromium (never a downloaded browser).

Fixtures (reuse them: a server of one's own costs 5-60 s of set-up on a loaded machine)
--------
server : the base URL of the app server shared by every test of this worker's session
    (tests/conftest.py's `app_server`, which tests outside this folder may ask for too: one
    server per worker, started when the first test asks).
browser : one Chromium for the worker's session.
page : a fresh page (tab, so a Streamlit session of its own) at 1280×900, in the worker's one
    browser context (`warm_context`, its storage forgotten at each module's end); console
    errors and exception boxes fail the test, and a failing test leaves a screenshot in
    test-artifacts/. A test that needs another size sets it on its page.
`new_context(browser, **options)` makes a context as `page` does (reduced motion), for a test
that needs another locale, a browser of its own or several browsers. A context keeps its HTTP
cache, and its tabs on the app's site share one renderer process: a test that opens several
pages opens them in one context, so that Streamlit's bundles and plotly.js are fetched and
compiled once (a context's first tab compiles them).

A test needs a server of its own only when it changes the server (its environment, a fresh
process, a stop): start it with tests/app_server.start_app in a module fixture, so that the
module's tests share it. Under pytest-xdist each module of this folder runs on one worker, one
test after another (tests/conftest.py's scheduler), so module fixtures are made once.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.app_server import REPO

ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# The tests' Chromium only (the benchmarks measure each tab alone): the tabs of a context on
# one site share a renderer process, and so what its JavaScript engine has compiled, and a
# test's new tab opens without compiling Streamlit's bundles and plotly.js again
# (`keep_site_warm`). A Luong page in a new tab: 1.4 s against 2.4 s.
TEST_FLAGS = [*CHROMIUM_FLAGS, "--process-per-site"]
IDLE = "[data-testid=stApp][data-test-script-state=notRunning]"
# How often a wait_for_function looks again, in ms. Playwright's default looks at every animation
# frame, which keeps the renderer producing frames for as long as the wait lasts: ten times the
# CPU of an idle page (measured on the Luong page). A tenth of a second is soon enough for every
# wait here; the benchmarks keep the frame-exact default, as they time what they wait for.
POLL_MS = 100
# Opened at a page's own address (/luong), Streamlit's frontend first looks for its server under
# that path (/luong/_stcore/health, /luong/_stcore/host-config), gets a 404 and then finds it at
# the root. Chromium logs those probes as console errors; they are not the app's errors.
BASE_PATH_PROBE = re.compile(r"^https?://[^/]+/[^?#]+/_stcore/(health|host-config)$")

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(config, items):
    """Mark every test of this folder `browser` (a conftest's `pytestmark` marks nothing), so
    that `-m browser` / `-m "not browser"` select them."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def console_error(message) -> str | None:
    """The text of a console message that should fail a test, or None (not an error, or
    Streamlit's own base-path probe)."""
    if message.type != "error":
        return None
    url = (message.location or {}).get("url", "")
    if "404" in message.text and BASE_PATH_PROBE.match(url):
        return None
    return message.text


def collect_errors(page) -> list[str]:
    """The list the page's console errors (see `console_error`) and uncaught exceptions are
    appended to from now on."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.extend(filter(None, [console_error(msg)])))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.fixture(scope="session")
def server(app_server) -> str:
    return app_server


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=TEST_FLAGS)
        yield browser
        browser.close()


def new_context(browser, **options):
    """A browser context for a test, as a learner who prefers reduced motion: until an
    element's code has loaded Streamlit draws a pulsing placeholder, and headless Chromium
    composites every frame of that pulse in software (a Luong page's cold open drew about 420
    frames in 4.5 s of the GPU process's CPU). Reduced motion stops only the pulse: what is
    drawn, its layout and its text are the same. (The deploy test opens the app without it.)"""
    # No `context.route`: Playwright turns the HTTP cache off for a context that routes any
    # request, and every later page of the context then fetched and compiled Streamlit's bundles
    # and plotly.js (4.8 MB) anew. Five pages opened in one tab took 27.6-33.5 s and 51-60 s of
    # Chromium's and the server's CPU with plotly.js routed from disk, 21.5-26.5 s and 31-42 s
    # without (interleaved, load 14).
    return browser.new_context(**{"reduced_motion": "reduce", **options})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when == "call":
        item.failed_call = report.failed


def keep_site_warm(context, server: str) -> None:
    """Leave a tab of `context` open on the app's site (its health check: no Streamlit session),
    so that the site's renderer process outlives each test's tab (--process-per-site) and every
    later tab reuses what it compiled."""
    context.new_page().goto(f"{server}/_stcore/health")


@pytest.fixture(scope="session")
def warm_context(browser, server):
    """One browser context for the `page`s of this worker's session: its HTTP cache holds
    Streamlit's bundles and plotly.js from the first page on, and its renderer process what it
    compiled (`keep_site_warm`)."""
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    keep_site_warm(context, server)
    yield context
    context.close()


@pytest.fixture(scope="module")
def module_context(warm_context):
    """`warm_context` for a module's `page`s and tabs; at the module's end what the app kept in
    the browser (cookies, a class seat in localStorage) is forgotten, so that a module's tests
    start as in a browser of their own."""
    yield warm_context
    warm_context.clear_cookies()
    keeper = warm_context.pages[0]
    cdp = warm_context.new_cdp_session(keeper)
    for origin in warm_context.storage_state()["origins"]:
        cdp.send(
            "Storage.clearDataForOrigin",
            {"origin": origin["origin"], "storageTypes": "local_storage"},
        )
    cdp.detach()


@pytest.fixture
def page(module_context, request):
    """A new page (tab) at 1280×900. Console errors are collected and fail the test at the end."""
    page = module_context.new_page()
    errors = collect_errors(page)
    yield page
    if getattr(request.node, "failed_call", False):
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    page.close()
    assert not errors, f"browser console errors: {errors}"


def wait_idle(page, timeout: float = 30_000) -> None:
    """Wait until Streamlit has finished the current run (and give it a moment to start one)."""
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=timeout)
    # One run can follow another at once (the first visit writes the state into the address
    # and goes to its page; a fragment's rerun follows the page's): idle must hold a moment.
    while True:
        page.wait_for_timeout(200)
        if page.locator(IDLE).count():
            return
        page.wait_for_selector(IDLE, timeout=timeout)


# Every chart has its SVG (Streamlit shows a skeleton until plotly.js has loaded and drawn).
CHARTS_DRAWN = """() => {
    const plots = document.querySelectorAll('[data-testid=stPlotlyChart]');
    const drawn = Array.from(plots).every(p => p.querySelector('.main-svg'));
    return drawn && !document.querySelector('[data-testid=stSkeleton]');
}"""
# What a chart's drawing has settled into: its size, its plot area and where its texts are.
# plotly draws a chart, then draws it again once its tick labels have pushed its margins out
# (automargin), and again when its box changes size; in between its labels can lie past its
# edge, so a check of what is drawn waits until two looks 300 ms apart agree.
_CHARTS_GEOMETRY = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(p => {
    const s = (p._fullLayout || {})._size || {}, r = p.getBoundingClientRect();
    const texts = Array.from(p.querySelectorAll('.main-svg text'), t => {
        const b = t.getBoundingClientRect(); return [b.left, b.right, b.top].map(Math.round); });
    return JSON.stringify([r.width, r.height, s.l, s.r, s.t, s.b, texts]);
})"""


def wait_charts_settled(page, timeout: float = 60_000) -> None:
    """Wait until every chart is drawn and none is still moving (see _CHARTS_GEOMETRY)."""
    page.wait_for_function(CHARTS_DRAWN, timeout=timeout, polling=POLL_MS)
    deadline = time.monotonic() + timeout / 1000
    before = page.evaluate(_CHARTS_GEOMETRY)
    while True:
        page.wait_for_timeout(300)
        now = page.evaluate(_CHARTS_GEOMETRY)
        if now == before:
            return
        if time.monotonic() > deadline:
            raise TimeoutError("the charts were still being redrawn")
        before = now


def open_page(page, server: str, path: str = "", query: str = "", timeout: float = 60_000) -> None:
    """Go to a page of the app and wait for its first run to finish with no exception box."""
    page.goto(f"{server}/{path}{'?' + query if query else ''}")
    page.wait_for_selector("[data-testid=stApp]", timeout=timeout)
    wait_idle(page, timeout=timeout)
    # The bare address goes on to the home page, and a first visit writes its state into the
    # address: wait for the page's own title, then for the run that drew it to end.
    page.wait_for_selector("h1", timeout=timeout)
    wait_idle(page, timeout=timeout)
    assert_no_exception(page)


@contextlib.contextmanager
def class_of_three(browser, viewport: dict, prefix: str) -> Iterator[list]:
    """A teacher's tab and two students' tabs, each in a browser context of its own (three
    sessions, no shared cookies): [teacher, student 1, student 2]. If the block fails, what
    each screen showed is kept for the report (test-artifacts/<prefix>-teacher.png,
    <prefix>-student-1.png, …); the contexts are closed either way."""
    contexts = [new_context(browser, viewport=viewport) for _ in range(3)]
    pages = [context.new_page() for context in contexts]
    try:
        yield pages
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        for name, page in zip(["teacher", "student-1", "student-2"], pages, strict=True):
            page.screenshot(path=str(ARTIFACTS / f"{prefix}-{name}.png"), full_page=True)
        raise
    finally:
        for context in contexts:
            context.close()


CLASS_CODE = re.compile(r"Class code: ([A-Z0-9]{6})")


def class_code(page, timeout: float = 60_000) -> str:
    """The code of the class this tab leads, once its sidebar shows it. (Not read straight after
    the click's `wait_idle`: on a loaded machine the click's run may start after that wait's
    first look, which then finds the run before it finished.)"""
    shown = page.locator("[data-testid=stSidebar]").get_by_text(CLASS_CODE).first
    shown.wait_for(timeout=timeout)
    return CLASS_CODE.search(shown.inner_text()).group(1)


def assert_no_exception(page) -> None:
    assert page.locator("[data-testid=stException]").count() == 0, "exception shown on page"


# --- Driving widgets as a user would (used by the tour; any test may use them) ---------------

# Every grid is the app's grid editor (attention_ui/kit/grids): a <table role="grid"> named
# after its matrix, one <input> per cell named "Q, row 1, column q1". A cell commits on Enter,
# Tab or when it loses the focus.


def grid(page, index: int):
    """The `index`-th grid on the page (0 = first)."""
    locator = page.locator("table[role=grid]").nth(index)
    locator.wait_for()
    return locator


def cell(grid_locator, row: int, col: int):
    """The <input> of data cell (row, col), 0-based (the row headers not counted)."""
    return grid_locator.locator("tbody tr").nth(row).locator("input").nth(col)


def select_cell(page, grid_locator, row: int, col: int, columns: int | None = None) -> None:
    """Put the focus in cell (row, col) (its text selected, as a click does). `columns` is
    not needed (the cells are real inputs); it stays for older callers."""
    target = cell(grid_locator, row, col)
    # Centred in the window, so that the app's sticky header does not cover it.
    target.evaluate("el => el.scrollIntoView({block: 'center'})")
    target.focus()
    target.evaluate("el => el.select()")


def focused_cell_value(page) -> str | None:
    """The value of the grid cell that has the focus (inside the grid's shadow root)."""
    return page.evaluate(
        """() => { let el = document.activeElement;
                   while (el && el.shadowRoot && el.shadowRoot.activeElement)
                       el = el.shadowRoot.activeElement;
                   return el && el.tagName === 'INPUT' ? el.value : null; }"""
    )


def wait_for_editor_text(page, text: str, timeout: float) -> None:
    """Wait until the focused cell holds exactly `text`, so that Enter commits `text`."""
    page.wait_for_function(
        """(text) => { let el = document.activeElement;
               while (el && el.shadowRoot && el.shadowRoot.activeElement)
                   el = el.shadowRoot.activeElement;
               return el !== null && el.tagName === 'INPUT' && el.value === text; }""",
        arg=text,
        timeout=timeout,
        polling=POLL_MS,
    )


def open_cell_editor(page, text: str, timeout: float = 60_000) -> None:
    """With a cell focused: replace its text by typing `text` key by key (not committed)."""
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    wait_for_editor_text(page, text, timeout)


def type_into_cell(
    page, grid_locator, row: int, col: int, text: str, columns: int | None = None
) -> None:
    """Type `text` into a cell and press Enter, as a learner does; waits for the rerun."""
    select_cell(page, grid_locator, row, col)
    open_cell_editor(page, text)
    page.keyboard.press("Enter")
    wait_idle(page)


def clear_cell(page, grid_locator, row: int, col: int, columns: int | None = None) -> None:
    """Empty a cell and press Enter (the grid sends an empty cell); waits for the rerun."""
    select_cell(page, grid_locator, row, col)
    page.keyboard.press("Delete")
    page.keyboard.press("Enter")
    wait_idle(page)


def move_slider(page, label: str, presses: int) -> None:
    """Move a slider (or select slider) by `presses` steps with the keyboard (negative: left)."""
    slider = page.get_by_role("slider", name=label)
    wait_idle(page)  # a run still drawing could redraw the slider under the keys
    slider.focus()
    for _ in range(abs(presses)):
        before = slider.get_attribute("aria-valuenow")
        slider.press("ArrowRight" if presses > 0 else "ArrowLeft")
        # one step at a time: the next key goes to the slider only once it has taken this one
        expect(slider).not_to_have_attribute("aria-valuenow", before or "")
    wait_idle(page)


def pick_option(page, label: str, option: str) -> None:
    """Open the selectbox labelled `label` and click `option`; waits for the rerun."""
    page.get_by_label(label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_idle(page)


# The data of the Plotly chart titled `title` (first trace), as the browser holds it. Streamlit's
# theme wraps titles in <b>…</b>, so tags are stripped before comparing.
_PLOT_DATA = """(title) => {
    const plot = Array.from(document.querySelectorAll('.js-plotly-plot')).find(
        p => p._fullLayout && p._fullLayout.title && p._fullData && p._fullData.length
             && (p._fullLayout.title.text || '').replace(/<[^>]*>/g, '') === title);
    if (!plot) return null;
    const trace = plot._fullData[0];
    const list = a => a ? Array.from(a, v => (v && v.length !== undefined
                                              && typeof v !== 'string') ? Array.from(v) : v)
                        : null;
    return {z: list(trace.z), x: list(trace.x), y: list(trace.y), type: trace.type};
}"""


def plot_data(page, title: str, timeout: float = 15_000) -> dict:
    """{'z', 'x', 'y', 'type'} of the first trace of the chart titled `title` (tags stripped),
    waiting for it to be drawn (Plotly loads lazily after the run)."""
    page.wait_for_function(
        f"(title) => ({_PLOT_DATA})(title) !== null", arg=title, timeout=timeout, polling=POLL_MS
    )
    return page.evaluate(_PLOT_DATA, title)


def wait_for_plot(page, title: str, expected, field: str = "z", timeout: float = 15_000) -> None:
    """Wait until the chart titled `title` shows `expected` in its first trace's `field`
    ("z" of a heatmap, "y" or "x" of a bar chart), compared flattened within 1e-9."""
    page.wait_for_function(
        f"""([title, expected, field]) => {{
            const data = ({_PLOT_DATA})(title);
            if (!data || !data[field]) return false;
            const got = data[field].flat(), want = expected.flat(Infinity);
            return got.length === want.length && got.every(
                (v, i) => Math.abs(v - want[i]) <= 1e-9 * Math.max(1, Math.abs(v)));
        }}""",
        arg=[title, expected, field],
        timeout=timeout,
        polling=POLL_MS,
    )


# The heads are one chart each, titled "head 1 (d_h = 2)", "head 2 (d_h = 2)", …: given the first
# head's title, the panels of every chart titled the same but for its number, in page order.
HEAD_GRID = """(first) => {
    const at = first.indexOf('1'), before = first.slice(0, at), after = first.slice(at + 1);
    const title = p => ((p._fullLayout && p._fullLayout.title && p._fullLayout.title.text) || '')
        .replace(/<[^>]*>/g, '');
    const heads = Array.from(document.querySelectorAll('.js-plotly-plot')).filter(p => {
        const text = title(p);
        return p._fullData && p._fullData.length && text.startsWith(before)
            && text.endsWith(after)
            && /^[0-9]+$/.test(text.slice(before.length, text.length - after.length));
    });
    // every chart drawn first: the heads are separate charts, drawn one after another
    const charts = document.querySelectorAll('[data-testid=stPlotlyChart]');
    if (Array.from(charts).some(c => { const p = c.querySelector('.js-plotly-plot');
                                       return !p || !p._fullData; })) return null;
    if (!heads.length || title(heads[0]) !== first) return null;
    return heads.map(p => p._fullData[0]).map(
        t => ({x: Array.from(t.x), z: Array.from(t.z, row => Array.from(row))}));
}"""
