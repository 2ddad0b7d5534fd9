"""Full-page screenshots of every page, in both languages, on a phone and a desktop, taken once
every chart is drawn: for looking at the app as a learner sees it.

    python tools/screenshots.py OUT_DIR                  # starts its own app server
    python tools/screenshots.py OUT_DIR --url http://127.0.0.1:8630
    python tools/screenshots.py OUT_DIR --pages exercises --views search_names --langs ja

Files are OUT_DIR/<page>[-<view>]-<lang>-<width>.png. Each shot waits for Streamlit's run to
end and then for every Plotly chart to have drawn its SVG (an earlier shot catches the
skeletons), with the window as tall as the page (Streamlit scrolls its main block itself, so a
plain full-page shot would show one window's height). Chromium is Debian's (CHROMIUM_PATH).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.app_server import start_app, stop_app  # noqa: E402
from tests.browser.conftest import CHROMIUM, CHROMIUM_FLAGS, IDLE, wait_charts_settled  # noqa: E402

PAGES = ("home", "luong", "database", "gallery", "exercises", "regression", "transformer", "train")
# The views of a page taken beside its default one, by their address: each exercise (exercise
# 3 also with the database's names as records), the Luong page with the longest score name,
# the transformer page with positions and the causal mask on, the training page trained and
# its score functions compared.
VARIANTS = {
    "exercises": {
        "match": "section=match",
        "grad": "section=grad",
        "search": "section=search",
        "search_names": "section=search&search_source=names",
        "se": "section=se",
    },
    "luong": {"": "", "scaled": "score=scaled_dot"},
    "transformer": {"": "", "positions": "pos=1&causal=1&detail=1"},
    "train": {"": "", "trained": "trained=1&compared=1&task=reverse&steps=200&d_model=8&heads=2"},
}
CONTENT_HEIGHT = """() => Math.max(900, ...['stMain', 'stAppViewContainer', 'stSidebarContent']
    .map(id => document.querySelector(`[data-testid=${id}]`)).filter(Boolean)
    .map(e => e.scrollHeight))"""


def visits(pages, langs, widths, only=None):
    for page in pages:
        views = VARIANTS.get(page, {"": ""})
        sections = [v for v in views if only is None or v in only] or list(views)
        for section in sections:
            for lang in langs:
                for width in widths:
                    yield page, section, lang, width


def settle(tab, timeout: float = 120_000) -> None:
    """The run has ended (and stays ended a moment), and every chart is drawn."""
    for _ in range(3):
        tab.wait_for_timeout(300)
        tab.wait_for_selector(IDLE, timeout=timeout)
    wait_charts_settled(tab, timeout=timeout)  # plotly redraws for the new window


def shoot(tab, url: str, page: str, section, lang: str, width: int, out: Path) -> Path:
    parts = ("lang=ja" if lang == "ja" else "", VARIANTS.get(page, {}).get(section, ""))
    query = "&".join(part for part in parts if part)
    tab.set_viewport_size({"width": width, "height": 900})
    tab.goto(f"{url}/{page}{'?' + query if query else ''}")
    tab.wait_for_selector("h1", timeout=120_000)
    settle(tab)
    height = min(tab.evaluate(CONTENT_HEIGHT), 30_000)
    tab.set_viewport_size({"width": width, "height": height})
    settle(tab)
    name = "-".join(filter(None, (page, section, lang, str(width))))
    path = out / f"{name}.png"
    tab.screenshot(path=str(path), full_page=True)
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="folder for the PNG files")
    parser.add_argument("--url", help="a running app (default: start one on a free port)")
    parser.add_argument("--pages", nargs="+", default=PAGES, choices=PAGES)
    parser.add_argument("--langs", nargs="+", default=("en", "ja"), choices=("en", "ja"))
    parser.add_argument("--views", nargs="+", help="only these views (e.g. se positions)")
    parser.add_argument("--widths", nargs="+", type=int, default=(390, 1400))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    from playwright.sync_api import sync_playwright

    process, url = (None, args.url) if args.url else start_app()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            tab = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
            for visit in visits(args.pages, args.langs, args.widths, args.views):
                print(shoot(tab, url, *visit, args.out), flush=True)
            browser.close()
    finally:
        if process is not None:
            stop_app(process)
    return 0


if __name__ == "__main__":
    sys.exit(main())
