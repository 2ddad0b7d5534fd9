"""Every page, in both languages, on a desktop (1400 px) and a phone (390 px), in one visit each:
axe-core finds no serious or critical violation (nor a heading out of order), the document is
marked with the page's language (`<html lang="ja">`), nothing is cut or pushed out horizontally,
every heatmap cell's number is drawn at 9 px or more, every formula of every tab and expander
fits its column (English visits), and Japanese text is Japanese drawn with a Japanese font
(Japanese visits at 1400 px). Each visit also measures the first screen, as the window shows
the page at each width: something to touch and what it does (the section at the end).

axe-core is the vendored npm file (tests/browser/vendor/axe-core, MPL-2.0), loaded into the
page from disk: no CDN. The window is made as tall as the page before checking, so that axe
and the overflow check see every element drawn (Streamlit scrolls its main block itself; below
the window its elements are not laid out the same way). One browser tab is reused for every
visit, and each (page, language, view) is opened once for all the checks at both widths (the
window resized from 1400 to 390 px: see `visit`), to keep the suite short.
"""

from __future__ import annotations

import contextlib
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attention_ui.kit.text.i18n import catalog
from tests.browser import screens
from tests.browser.conftest import (
    ARTIFACTS,
    IDLE,
    POLL_MS,
    collect_errors,
    keep_site_warm,
    new_context,
    open_page,
    wait_charts_settled,
    wait_idle,
)

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
PAGES = ("home", "luong", "database", "gallery", "exercises", "regression", "transformer", "train")
WIDTHS = (1400, 390)  # a visit opens the page on a desktop, then narrows the window
LANGUAGES = ("en", "ja")
# Streamlit's scrolling blocks: the page is as tall as the tallest of them.
_CONTENT_HEIGHT = """() => Math.max(900, ...['stMain', 'stAppViewContainer', 'stSidebarContent']
    .map(id => document.querySelector(`[data-testid=${id}]`)).filter(Boolean)
    .map(e => e.scrollHeight))"""
# WCAG 1.4.3 exempts the text of an inactive control; Streamlit draws a disabled widget's label
# outside the control (aria-hidden), so axe cannot tell. Those labels are left out, no others.
# Rules axe rates "moderate" or "minor" that fail here too: headings in order (h1, h2, h3, none
# skipped), and no header cell without text (the grids' empty corners were such cells).
ALSO_FAILING = ("heading-order", "empty-table-header")
_AXE_RUN = """async (ALSO_FAILING) => {
    for (const widget of document.querySelectorAll('[data-testid=stElementContainer]')) {
        const label = widget.querySelector('[data-testid=stWidgetLabel]');
        if (label && widget.querySelector('[disabled], [aria-disabled=true]'))
            label.setAttribute('data-inactive-label', '');
    }
    const result = await axe.run({exclude: [['[data-inactive-label]']]},
                                 {resultTypes: ['violations']});
    return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical'
                                         || ALSO_FAILING.includes(v.id))
        .map(v => `${v.id} (${v.impact}): ` + v.nodes.slice(0, 3).map(
            n => n.target.join(' ') + ' — ' + (n.failureSummary || '').split('\\n').slice(1, 2)
        ).join(' | '));
}"""
# What a reader would see cut: text ending in an ellipsis, content clipped by a box that hides
# what does not fit (a formula in a clipped block), anything pushing the page sideways, and a
# chart's text (titles, tick labels) drawn past the chart's edge, a chosen option longer than its
# box. Boxes that scroll (overflow
# auto/scroll: a wide table on a phone) are allowed: their content can be reached.
_OVERFLOWS = """() => {
    const found = [], slack = 1;
    const visible = e => { const r = e.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
    const name = e => (e.getAttribute('data-testid') || e.className.baseVal || e.className
        || e.tagName).toString().slice(0, 60) + ': ' + (e.textContent || '').trim().slice(0, 60);
    const root = document.querySelector('[data-testid=stMain]');
    if (root.scrollWidth > root.clientWidth + slack)
        found.push(`page wider than the window (${root.scrollWidth} > ${root.clientWidth})`);
    // The sidebar's menu too: a page name cut by an ellipsis there is cut as well.
    const sidebar = document.querySelector('[data-testid=stSidebar]');
    const inSidebar = sidebar ? [...sidebar.querySelectorAll('*')] : [];
    const boxes = [...root.querySelectorAll('*'), ...inSidebar];
    for (const e of boxes) {
        // Text for screen readers only (KaTeX's MathML copy) is clipped to 1 px on purpose.
        if (e instanceof SVGElement || !visible(e) || e.closest('.katex-mathml')) continue;
        const style = getComputedStyle(e);
        const cut = ['hidden', 'clip'].includes(style.overflowX)
            || style.textOverflow === 'ellipsis';
        const text = e.tagName === 'INPUT' ? e.value : e.textContent;
        if (cut && e.scrollWidth > e.clientWidth + slack && text.trim())
            found.push(`cut (${e.scrollWidth} > ${e.clientWidth}) ${name(e)} ${text.slice(0, 60)}`);
    }
    for (const plot of root.querySelectorAll('.js-plotly-plot')) {
        const box = plot.getBoundingClientRect();
        for (const text of plot.querySelectorAll('.main-svg text')) {
            const r = text.getBoundingClientRect();
            if (!text.textContent.trim() || r.width === 0) continue;
            if (r.left < box.left - slack || r.right > box.right + slack)
                found.push(`chart text past the chart's edge: ${text.textContent.slice(0, 40)}`);
        }
    }
    return found;
}"""


# Where the transformer page's head charts ("head 1 (d_h = 2)", "ヘッド 1 …") are drawn.
_HEAD_BOXES = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
    .filter(p => /^(head|ヘッド) [0-9]+ /.test(
        ((p._fullLayout && p._fullLayout.title && p._fullLayout.title.text) || '')
            .replace(/<[^>]*>/g, '')))
    .map(p => { const r = p.getBoundingClientRect();
                const cell = p._fullLayout.xaxis._length / p._fullData[0].x.length;
                return {left: r.left, top: r.top, bottom: r.bottom, width: r.width, cell}; })"""
# A cell at least this wide prints its number ("0.0812") at a legible size: plotly shrinks the
# text to fit, and a 10-token head on one phone-wide chart left cells of about 18 px.
MIN_CELL_PX = 34
# The numbers printed on heatmap cells, as drawn: plotly sizes every cell's text of a chart to
# fit its longest, and one "6.52×10⁻¹⁰" left the regression heatmap's numbers 4 px high on a
# phone. Each chart's smallest cell text, with the chart's title.
MIN_CELL_TEXT_PX = 9
_CELL_TEXT = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
    .map(p => ({title: ((p._fullLayout && p._fullLayout.title && p._fullLayout.title.text) || '')
                    .replace(/<[^>]*>/g, ''),
                px: Math.min(...Array.from(p.querySelectorAll('g.heatmap-label text'))
                    .map(t => parseFloat(t.style.fontSize || getComputedStyle(t).fontSize)))}))
    .filter(chart => Number.isFinite(chart.px))"""


# Grids (inside their components' shadow roots) whose table is wider than its box, which then
# scrolls: allowed in general, not for the database's three-column records on a phone.
_SCROLLED_GRIDS = """() => {
    const found = [];
    const walk = root => root.querySelectorAll('*').forEach(e => {
        if (e.shadowRoot) walk(e.shadowRoot);
        if (e.classList && e.classList.contains('cg-scroll') && e.scrollWidth > e.clientWidth + 1)
            found.push(`${e.querySelector('table')?.getAttribute('aria-label')}: `
                       + `${e.scrollWidth} > ${e.clientWidth}`);
    });
    walk(document);
    return found;
}"""


@pytest.fixture(scope="module")
def tab(module_context) -> Iterator[tuple]:
    """One tab, reused by every page visit (its window resized for each width), and the list
    its console errors are collected in."""
    page = module_context.new_page()
    page.set_viewport_size({"width": WIDTHS[-1], "height": 900})
    yield page, collect_errors(page)
    page.close()


def show_whole_page(page, server: str, name: str, lang: str, width: int, view: str = "") -> dict:
    """Open the page at a window `width` px wide and 900 high, measure its first screen
    (screens.MEASURE), then make the window as tall as the page. Returns the measure."""
    page.set_viewport_size({"width": width, "height": 900})
    # a long timeout: the shared machine runs other suites beside this one
    query = "&".join(part for part in ("lang=ja" if lang == "ja" else "", view) if part)
    open_page(page, server, name, query, timeout=180_000)
    return _measure_then_stretch(page, width)


def show_whole_window(page, width: int) -> dict:
    """The open page with its window resized to `width` px wide and 900 high: its first screen
    measured (screens.MEASURE), then the window made as tall as the page. Returns the measure."""
    page.set_viewport_size({"width": width, "height": 900})
    wait_idle(page, timeout=180_000)
    return _measure_then_stretch(page, width)


def _measure_then_stretch(page, width: int) -> dict:
    wait_charts_settled(page, timeout=180_000)
    first_screen = page.evaluate(screens.MEASURE)
    height = min(page.evaluate(_CONTENT_HEIGHT), 20_000)
    page.set_viewport_size({"width": width, "height": height})
    wait_idle(page, timeout=180_000)
    # every chart drawn, and drawn again for the new window: a chart still drawing can have
    # its labels past its edge for a moment (plotly's automargin redraw)
    wait_charts_settled(page, timeout=180_000)
    return first_screen


# --- Formulas: every KaTeX display of every tab and expander fits its box ---------------------
# KaTeX's display box scrolls sideways, but its scroll bar is hidden until touched, so an
# overflowing formula reads as cut off: every formula must fit (its content no wider than its
# box). KaTeX's italic letters overhang their box by a pixel or two; a cut-off formula loses more.
FORMULA_SLACK_PX = 4
_OVERFLOWING_FORMULAS = """(slack) => Array.from(document.querySelectorAll('.katex-display'))
    .filter(box => box.clientWidth > 0 && box.scrollWidth > box.clientWidth + slack)
    .map(box => `${box.scrollWidth - box.clientWidth} px: ${box.textContent.slice(0, 50)}`)"""
_SHOWN_FORMULAS = """() => Array.from(document.querySelectorAll('.katex-display'))
    .filter(box => box.clientWidth > 0).length"""
# A fold builds what it holds in the rerun its click asks for (kit/folds.py): until that rerun
# has reached the browser an open fold is empty. Clicked together, folds in different fragments
# ask for fragment reruns that Streamlit folds into one, and a fold whose run was cut short by
# the next stays empty (seen on the Luong page: 5 of 6; Streamlit's PR #8298). The walk clicks
# every fold at once (one rerun of the page where they are not in fragments), and once the runs
# have ended, closes and opens again, one at a time, each fold left empty, waiting until it
# holds what it builds.
_FOLDS = "document.querySelectorAll('[data-testid=stMain] details')"
_UNFOLD = f"() => {_FOLDS}.forEach(fold => fold.open || fold.querySelector('summary').click())"
_FILLED = """fold => fold.open && !!fold.querySelector(
    '[data-testid=stExpanderDetails] [data-testid=stElementContainer]')"""
_EMPTY_FOLDS = f"""() => Array.from({_FOLDS})
    .flatMap((fold, index) => fold.open && !({_FILLED})(fold) ? [index] : [])"""
_FOLD_DRAWN = f"""(index) => ({_FILLED})({_FOLDS}[index])
    && !!document.querySelector('{IDLE}')"""
_CLICK_FOLD = f"(index) => {_FOLDS}[index].querySelector('summary').click()"


def unfold_everything(page) -> None:
    """Open every fold of the main block and wait until each holds what it builds."""
    page.evaluate(_UNFOLD)
    wait_idle(page, timeout=180_000)
    for _ in range(3):
        empty = page.evaluate(_EMPTY_FOLDS)
        if not empty:
            return
        for index in empty:
            page.evaluate(_CLICK_FOLD, index)  # closed
            wait_idle(page, timeout=180_000)
            page.evaluate(_CLICK_FOLD, index)  # and open again: a rerun of its own
            with contextlib.suppress(PlaywrightTimeout):  # still empty: tried again above
                page.wait_for_function(_FOLD_DRAWN, arg=index, timeout=30_000, polling=POLL_MS)


# Two frames: what a resized window lays out by script (a grid's fit) has been drawn.
_TWO_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


def formulas_in_every_tab(page, every_step: bool, widths: tuple[int, ...]) -> dict[int, dict]:
    """Open each tab in turn, unfold each expander, and collect at each of `widths` (the window
    resized, 900 px high) the formulas that overflow (and how many formulas were seen). With
    `every_step`, the Luong step view (one step at a time) is shown at each of its steps.
    Returns what was found by width."""
    found: dict[int, list[str]] = {width: [] for width in widths}
    seen = dict.fromkeys(widths, 0)

    def look() -> None:
        # the window's width first, then the others: one resize per look, not one per width
        now = page.viewport_size["width"]
        for width in sorted(widths, key=lambda width: width != now):
            if width != now:
                page.set_viewport_size({"width": width, "height": 900})
                page.evaluate(_TWO_FRAMES)
            found[width] += page.evaluate(_OVERFLOWING_FORMULAS, FORMULA_SLACK_PX)
            seen[width] += page.evaluate(_SHOWN_FORMULAS)

    steps_seen = 0
    tabs = page.get_by_role("tab")
    for index in range(max(1, tabs.count())):
        if tabs.count():
            tabs.nth(index).click()
            wait_idle(page, timeout=180_000)
        unfold_everything(page)
        look()
        picker = page.get_by_role("radiogroup", name="Step to show")
        steps = picker.get_by_role("radio")
        if every_step and index == 0:  # the step-by-step tab opens first
            steps_seen = steps.count()
        for number in range(1, steps.count() if every_step else 0):  # the first is shown
            # a learner clicks the option's label: the radio input itself is drawn off-screen
            option = picker.locator("label").nth(number)
            option.scroll_into_view_if_needed()
            option.click()
            wait_idle(page, timeout=180_000)
            look()
    return {
        width: {"overflowing": sorted(set(found[width])), "seen": seen[width], "steps": steps_seen}
        for width in widths
    }


# --- Japanese: the page's text is Japanese, drawn with a font that has Japanese glyphs ----------
JA = catalog("ja")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CJK_FONT = re.compile(r"CJK|Gothic|Mincho|IPA|Takao|Hiragino|Meiryo|Yu |Fallback")
_GLYPH_IMAGES = """(text) => {
    const font = getComputedStyle(document.querySelector('h1')).font;
    const images = new Set();
    for (const ch of text) {
        const canvas = document.createElement('canvas');
        canvas.width = 40; canvas.height = 40;
        const ctx = canvas.getContext('2d');
        ctx.font = font.replace(/\\d+(\\.\\d+)?px/, '28px');
        ctx.fillText(ch, 4, 32);
        images.add(canvas.toDataURL());
    }
    return images.size;
}"""


def fonts_drawing(page, selector: str) -> dict[str, int]:
    """The fonts Chromium really used for the text of the first `selector` element:
    {family: glyphs drawn}, from the DevTools protocol (what the renderer picked, fallbacks
    included)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        cdp.detach()
    return {font["familyName"]: font["glyphCount"] for font in fonts}


def japanese_text(page) -> dict:
    """What a Japanese reader sees: the title, the menu, the main text, and how its glyphs are
    drawn (a missing font draws every character as the same empty box)."""
    sidebar = page.locator("[data-testid=stSidebar]")
    return {
        "title": page.locator("h1").first.inner_text().strip(),
        "menu": [sidebar.get_by_text(JA[f"{name}.menu"], exact=True).count() for name in PAGES],
        "url": page.url,
        "body": page.locator("[data-testid=stMain]").inner_text(),
        "fonts": fonts_drawing(page, "h1"),
        # ア テ ン シ ョ 重 み (ン twice) → 7; unassigned code points → 1 box; "Atn" → 3
        "glyphs": [
            page.evaluate(_GLYPH_IMAGES, text)
            for text in ("アテンション重み", "\u0378\u0379\u0380\u0381", "Atn")
        ],
    }


@pytest.fixture(scope="module")
def audits() -> dict:
    """What each page visit found, so that the tests below share one visit per page."""
    return {}


def keep_screenshot(page, *parts: str) -> None:
    """test-artifacts/<parts joined by '-'>.png, the empty parts left out (a view's '&' as '-')."""
    ARTIFACTS.mkdir(exist_ok=True)
    shot = "-".join(part.replace("&", "-") for part in parts if part)
    page.screenshot(path=str(ARTIFACTS / f"{shot}.png"))


def checks(page, name: str, lang: str, width: int, view: str, first_screen: dict) -> dict:
    """Every check of the page as shown (the window as tall as the page): axe, the overflow
    check, the charts' text, (Japanese at 1400 px) its text."""
    found = {
        "first_screen": first_screen,
        "violations": page.evaluate(_AXE_RUN, list(ALSO_FAILING)),
        "lang": page.evaluate("document.documentElement.lang"),
        "overflows": page.evaluate(_OVERFLOWS),
        "heads": page.evaluate(_HEAD_BOXES) if name == "transformer" else [],
        "cell_text": page.evaluate(_CELL_TEXT),
        "scrolled": page.evaluate(_SCROLLED_GRIDS) if name == "database" else [],
        "japanese": japanese_text(page) if lang == "ja" and width == 1400 else None,
    }
    if found["violations"] or found["overflows"]:  # the page as checked
        keep_screenshot(page, "a11y", name, view, lang, str(width))
    return found


def visit(tab, server: str, name: str, lang: str, view: str, widths: tuple[int, ...]) -> dict:
    """One visit of the page in `lang`: opened at the first of `widths`, checked, its window
    resized to each next width and checked again, then (English, at the page's defaults or in
    a formula view) each tab's formulas at every width. Returns what was found by (page,
    language, width, view).

    A window resized from 1400 to 390 px shows what one opened at 390 px shows: on every page
    in both languages and in the formula views, the first screen's measure, axe's findings,
    the overflows, the charts' text and the sidebar were the same, but for the ticks of the
    gallery's and two exercises' vector charts, which fell on other values at the same size."""
    page, errors = tab
    errors.clear()
    found = {}
    for number, width in enumerate(widths):
        if number == 0:
            first_screen = show_whole_page(page, server, name, lang, width, view)
            page.add_script_tag(path=str(AXE))
        else:
            first_screen = show_whole_window(page, width)
        found[width] = checks(page, name, lang, width, view, first_screen)
    # The formula check reads widths only: a window of normal height draws each tab's
    # rerun at a fraction of the cost of one as tall as the page (CPU 10 s against 15 s).
    # It walks the English pages at their defaults and the formula views, the visits whose
    # formulas a test reads (the other views are checked for axe and cuts only).
    walked = {}
    if lang == "en" and view in ("", *FORMULA_VIEW_QUERIES):
        page.set_viewport_size({"width": widths[0], "height": 900})
        walked = formulas_in_every_tab(page, "layout=row" in view, widths)
    for width in widths:
        formulas = found[width]["formulas"] = walked.get(width)
        if formulas and formulas["overflowing"]:
            page.set_viewport_size({"width": width, "height": 900})  # the width it failed at
            keep_screenshot(page, "formulas", name, view, str(width))
        found[width]["errors"] = list(errors)
    return {(name, lang, width, view): found[width] for width in widths}


def audit(tab, audits, server: str, name: str, lang: str, width: int, view: str = "") -> dict:
    """What the visit of the page in `lang` (and `view`) found at `width` px: pages at their
    defaults and the formula views are visited once for both widths (WIDTHS, the desktop
    first), other views at their one width."""
    if (name, lang, width, view) not in audits:
        widths = WIDTHS if view in ("", *FORMULA_VIEW_QUERIES) else (width,)
        audits.update(visit(tab, server, name, lang, view, widths))
    return audits[name, lang, width, view]


VISITS = pytest.mark.parametrize(
    ("name", "lang", "width"),
    [(name, lang, width) for width in WIDTHS for lang in LANGUAGES for name in PAGES],
)


@VISITS
def test_axe_finds_no_serious_violation(tab, audits, server, name, lang, width):
    found = audit(tab, audits, server, name, lang, width)
    assert not found["violations"], f"axe-core, {name} ({lang}, {width} px): {found['violations']}"
    assert not found["errors"], f"browser console errors: {found['errors']}"


@VISITS
def test_nothing_is_cut_or_pushed_out(tab, audits, server, name, lang, width):
    found = audit(tab, audits, server, name, lang, width)
    assert not found["overflows"], f"cut, {name} ({lang}, {width} px): {found['overflows']}"


@VISITS
def test_every_heatmap_prints_its_numbers_legibly(tab, audits, server, name, lang, width):
    charts = audit(tab, audits, server, name, lang, width)["cell_text"]
    small = [chart for chart in charts if chart["px"] < MIN_CELL_TEXT_PX]
    assert not small, f"cell text under {MIN_CELL_TEXT_PX} px, {name} ({lang}, {width} px): {small}"


@pytest.mark.parametrize(("lang", "width"), [(lang, w) for w in WIDTHS for lang in LANGUAGES])
def test_heads_stack_on_a_phone_and_pair_up_on_a_desktop(tab, audits, server, lang, width):
    heads = audit(tab, audits, server, "transformer", lang, width)["heads"]
    # The English sentence's 6 tokens: one chart per head; the Japanese one's 10: each head in
    # two blocks of 5 keys, side by side on a desktop.
    assert len(heads) == (2 if lang == "en" else 4), heads
    assert min(h["cell"] for h in heads) >= MIN_CELL_PX, heads
    pairs = list(zip(heads[::2], heads[1::2], strict=True))
    if width < 640:  # Streamlit stacks columns below 640 px: each chart gets the whole width
        for above, below in itertools.pairwise(heads):
            assert below["top"] >= above["bottom"] - 1 and above["width"] > 0.8 * width, heads
    else:
        for first, second in pairs:
            assert abs(second["top"] - first["top"]) < 1 and second["left"] > first["left"], heads


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_database_records_fit_a_phone_without_scrolling(tab, audits, server, lang):
    scrolled = audit(tab, audits, server, "database", lang, 390)["scrolled"]
    assert not scrolled, scrolled  # its number column and delete buttons were out of sight


# The training page trained, with two heads, and its score functions compared.
TRAINED = "trained=1&compared=1&task=reverse&steps=200&d_model=8&heads=2"
# Views the default pages do not show: the longest score name in the Luong page's select box
# (cut on a phone in Japanese), the positional encodings' formula (clipped at 1400 px), the
# training page's run.
OTHER_VIEWS = pytest.mark.parametrize(
    ("name", "view", "lang", "width"),
    [
        ("luong", "score=scaled_dot", "ja", 390),
        ("transformer", "pos=1&causal=1", "en", 1400),
        ("transformer", "pos=1&causal=1", "ja", 390),
        ("train", TRAINED, "en", 1400),
        ("train", TRAINED, "ja", 390),
    ],
)


@OTHER_VIEWS
def test_nothing_is_cut_in_other_views(tab, audits, server, name, view, lang, width):
    found = audit(tab, audits, server, name, lang, width, view)
    assert not found["overflows"], f"cut, {name}?{view} ({lang}, {width} px): {found['overflows']}"


@OTHER_VIEWS
def test_axe_finds_no_serious_violation_in_other_views(
    tab, audits, server, name, view, lang, width
):
    # the positions step's one-line formula scrolled in its column (axe: a scrolling region
    # a keyboard cannot reach), unasserted here and so unseen but for its screenshot
    found = audit(tab, audits, server, name, lang, width, view)
    assert not found["violations"], (
        f"axe-core, {name}?{view} ({lang}, {width} px): {found['violations']}"
    )


@VISITS
def test_the_document_is_in_the_pages_language(tab, audits, server, name, lang, width):
    found = audit(tab, audits, server, name, lang, width)
    assert found["lang"] == lang, f"{name} ({lang}, {width} px): <html lang={found['lang']!r}>"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_every_formula_of_every_tab_fits_its_column(tab, audits, server, name, width):
    formulas = audit(tab, audits, server, name, "en", width)["formulas"]
    assert formulas["seen"] > 0, f"{name} ({width} px): no formula was seen"
    assert not formulas["overflowing"], f"{name} ({width} px): {formulas['overflowing']}"


# Views with formulas of their own: the Luong page in row layout, shown at each of its steps (the
# layout relation and every step's formula), and each exercise after the first. Every check runs.
FORMULA_VIEW_QUERIES = (
    "v=1&layout=row",
    *(f"v=1&section={section}" for section in ("grad", "search", "se")),
)
FORMULA_VIEWS = pytest.mark.parametrize(
    ("name", "view", "width"),
    [
        (name, view, width)
        for name, view in (
            ("luong", FORMULA_VIEW_QUERIES[0]),
            *(("exercises", query) for query in FORMULA_VIEW_QUERIES[1:]),
        )
        for width in WIDTHS
    ],
)


@FORMULA_VIEWS
def test_other_views_pass_every_check(tab, audits, server, name, view, width):
    found = audit(tab, audits, server, name, "en", width, view)
    where = f"{name}?{view} ({width} px)"
    assert not found["violations"], f"axe-core, {where}: {found['violations']}"
    assert not found["errors"], f"browser console errors, {where}: {found['errors']}"
    assert not found["overflows"], f"cut, {where}: {found['overflows']}"
    small = [chart for chart in found["cell_text"] if chart["px"] < MIN_CELL_TEXT_PX]
    assert not small, f"cell text under {MIN_CELL_TEXT_PX} px, {where}: {small}"
    formulas = found["formulas"]
    assert formulas["seen"] > 0, f"{where}: no formula was seen"
    assert not formulas["overflowing"], f"{where}: {formulas['overflowing']}"
    if "layout=row" in view:  # the step view went through its steps: scores, shift, exp, …
        assert formulas["steps"] >= 6, formulas


@pytest.mark.parametrize("name", PAGES)
def test_each_page_in_japanese_shows_japanese_drawn_with_a_japanese_font(tab, audits, server, name):
    text = audit(tab, audits, server, name, "ja", 1400)["japanese"]
    title = JA[f"{name}.title"]
    assert text["title"] == title
    assert all(text["menu"]), text["menu"]  # every page's name in the translated menu
    assert "lang=ja" in text["url"]
    assert len(JAPANESE.findall(text["body"])) > 40  # more than a title: the text is Japanese
    assert "**" not in text["body"]  # Markdown emphasis next to Japanese punctuation renders
    drawn_in_cjk = sum(n for family, n in text["fonts"].items() if CJK_FONT.search(family))
    assert drawn_in_cjk >= len(JAPANESE.findall(title)), f"title drawn with {text['fonts']}"
    # 7 different glyphs; the check can fail: unassigned code points are all the same box
    assert text["glyphs"] == [7, 1, 3], text["glyphs"]


# --- As a learner's browser shows the page: no reduced-motion preference, a window 900 px high -
# axe checks colour contrast only for what is in the window, so the page is scrolled through.
# Nothing is left out here: a disabled control's faded label (Streamlit's grey, 2.6:1) is what
# an outside audit found on the database page, whose τ and normalization are off under exact
# matching, in the runs where the page's layout put them above the fold (y ≈ 1,060 otherwise).
_AXE_EVERYTHING = """async () => {
    const result = await axe.run(document, {resultTypes: ['violations']});
    return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .flatMap(v => v.nodes.map(n => `${v.id}: ${n.html.slice(0, 80)}`));
}"""
_SCROLL_MAIN = """(y) => { const main = document.querySelector('[data-testid=stMain]');
    main.scrollTop = y; return main.scrollHeight; }"""


@pytest.fixture(scope="module")
def learners_browser(browser, server):
    """A browser context as a learner's: no reduced-motion preference, a window 900 px high
    (one for the visits below: its cache keeps Streamlit's bundles and plotly.js)."""
    context = new_context(
        browser, reduced_motion="no-preference", viewport={"width": 1400, "height": 900}
    )
    keep_site_warm(context, server)
    yield context
    context.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", ["database", "home"])
def test_axe_passes_as_a_learners_browser_shows_the_page(learners_browser, server, name, lang):
    page = learners_browser.new_page()
    try:
        errors = collect_errors(page)
        open_page(page, server, name, "lang=ja" if lang == "ja" else "", timeout=180_000)
        page.wait_for_timeout(1500)  # as the outside audit: 1.5 s after the run ends
        page.add_script_tag(path=str(AXE))
        found: set[str] = set()
        top, height = 0, page.evaluate(_SCROLL_MAIN, 0)
        while top < height:
            page.evaluate(_SCROLL_MAIN, top)
            page.wait_for_timeout(300)
            found |= set(page.evaluate(_AXE_EVERYTHING))
            top += 700
        assert not found, f"axe-core, {name} ({lang}, 1400 px, motion allowed): {sorted(found)}"
        assert not errors, f"browser console errors: {errors}"
    finally:
        page.close()


# --- The first screen teaches: something to touch and what it does ----------------------------
# On every page but the training page (tests/browser/test_train.py measures its one screen), as
# a learner opens it at 1400 × 900 and on a phone at 390 × 844: at 1400 × 900 a control (a
# grid's cell, a box, a slider, a button with words) wholly on the first screen, and a result (a
# chart, or a table of numbers) with at least screens.RESULT_SEEN px of it there; on the Luong
# page the grids Q, K and V whole and a chart of S, A or O. On the phone a control on the first
# screen, a result seen by the end of the second, every grid fitting its column (no cell
# scrolled out of sight) and no chart text under 11 px. Measured in each page's visit above, in
# the window as first opened (screens.MEASURE); every grid at its largest size is
# tests/browser/test_first_screen.py's.
FIRST_SCREEN_PAGES = tuple(name for name in PAGES if name != "train")
# The pages measured in Japanese on a phone as well: every one (longer Japanese words push the
# controls and charts further down; the Luong page's first chart was once past two screens).
JAPANESE_FIRST_SCREENS = FIRST_SCREEN_PAGES
# Pages whose first screen must hold something to change, not only buttons: in Japanese the
# database page's story buttons filled it, and its first switch was at 1,052 px.
EDITABLE_FIRST = ("database",)
REGRESSION_BEFORE = {1400: 7763, 390: 12392}
DESKTOP, PHONE = screens.DESKTOP, screens.PHONE


def first_screen(tab, audits, server, name: str, lang: str, width: int) -> dict:
    return audit(tab, audits, server, name, lang, width)["first_screen"]


def on_screen(found: dict, screen: int, results_by: int) -> tuple[list, list]:
    """The controls wholly above `screen` px and the results seen by `results_by` px."""
    controls = [c for c in found["controls"] if c["bottom"] <= screen]
    results = [r for r in found["results"] if screens.seen(r, results_by)]
    return controls, results


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", FIRST_SCREEN_PAGES)
def test_the_desktop_first_screen_shows_a_control_and_a_result(tab, audits, server, name, lang):
    found = first_screen(tab, audits, server, name, lang, DESKTOP[0])
    controls, results = on_screen(found, DESKTOP[1], DESKTOP[1])
    assert controls, f"{name} ({lang}): nothing to touch above {DESKTOP[1]} px"
    assert results, f"{name} ({lang}): no result on the first screen: {found['results'][:3]}"


def test_the_luong_first_screen_holds_the_grids_and_a_result_chart(tab, audits, server):
    found = first_screen(tab, audits, server, "luong", "en", DESKTOP[0])
    grids = {g["name"]: g for g in found["grids"]}
    assert {"Q", "K", "V"} <= set(grids), grids
    assert all(grids[name]["bottom"] <= DESKTOP[1] for name in "QKV"), grids
    _, results = on_screen(found, DESKTOP[1], DESKTOP[1])
    assert [r for r in results if r["what"] == "chart"], found["results"]


PHONE_VISITS = pytest.mark.parametrize(
    ("name", "lang"),
    [(name, "en") for name in FIRST_SCREEN_PAGES]
    + [(name, "ja") for name in JAPANESE_FIRST_SCREENS],
)


@PHONE_VISITS
def test_on_a_phone_a_control_is_on_the_first_screen_and_a_result_by_the_second(
    tab, audits, server, name, lang
):
    found = first_screen(tab, audits, server, name, lang, PHONE[0])
    controls, results = on_screen(found, PHONE[1], 2 * PHONE[1])
    assert controls, f"{name} ({lang}): nothing to touch by {PHONE[1]} px: {found['controls'][:3]}"
    assert results, f"{name} ({lang}): no result by {2 * PHONE[1]} px: {found['results'][:3]}"
    if lang == "ja" and name in EDITABLE_FIRST:
        assert [c for c in controls if c["editable"]], f"{name}: only buttons: {controls}"


@PHONE_VISITS
def test_on_a_phone_no_chart_text_is_under_11_px(tab, audits, server, name, lang):
    fonts = first_screen(tab, audits, server, name, lang, PHONE[0])["fonts"]
    assert fonts, f"{name} ({lang}): no chart text was seen"
    small = [f for f in fonts if f[0] < screens.MIN_CHART_FONT]
    assert not small, f"{name} ({lang}): {len(small)} of {len(fonts)} under 11 px: {small[:5]}"


@pytest.mark.parametrize("name", FIRST_SCREEN_PAGES)
def test_on_a_phone_every_grid_fits_its_column(tab, audits, server, name):
    found = first_screen(tab, audits, server, name, "en", PHONE[0])
    cut = [g for g in found["grids"] if g["scrolls"]]
    assert not cut, f"{name}: grids wider than their column: {cut}"


@pytest.mark.parametrize("width", [DESKTOP[0], PHONE[0]])
def test_the_regression_page_is_half_as_tall_as_it_was(tab, audits, server, width):
    height = first_screen(tab, audits, server, "regression", "en", width)["height"]
    assert height <= REGRESSION_BEFORE[width] / 2, (width, height)
