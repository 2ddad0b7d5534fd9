"""Adding a page takes the files docs/ARCHITECTURE.md lists under "Adding a page", at most five:
this follows those steps in a copy of the app with a throw-away page, and checks that the page
is in the menu and on the home page and runs in both languages.

The copy runs in a process of its own (AppTest imports the app's modules, and this process
already holds the real ones), on the copy's own `attention_ui` and catalogs.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import REPO

DOC = REPO / "docs" / "ARCHITECTURE.md"
APP_PARTS = ("app.py", "pages", "attention_ui", "attention_core", "static", ".streamlit")
NAME = "scratch"
WORDS = {
    "en": ("Scratch page", "Scratch", "A page added by a test.", "Three queries of the example."),
    "ja": ("試しのページ", "試し", "テストが加えたページです。", "例の三つのクエリです。"),
}
# What the steps write (page_list.py gets one line, below): the page script, its package and
# its catalog in each language.
PAGE = {
    f"pages/{NAME}.py": f'''
        """A page added by tests/test_add_a_page.py."""

        from attention_ui.frame import page_footer, page_header
        from attention_ui.{NAME} import section

        page_header("{NAME}")
        section()
        page_footer("{NAME}")
        ''',
    f"attention_ui/{NAME}/__init__.py": f'''
        """The throw-away page's sections."""

        import streamlit as st

        from attention_ui.kit.text.i18n import t


        def section() -> None:
            st.markdown(t("{NAME}.hello"))
        ''',
    **{
        f"attention_ui/locales/{lang}/{NAME}.toml": f"""
            title = "{title}"
            intro = "{intro}"
            menu = "{menu}"
            summary = "{summary}"
            hello = "{intro}"
            """
        for lang, (title, menu, intro, summary) in WORDS.items()
    },
}
MENU_LINE = f'    MenuPage("{NAME}", ":material/science:"),\n'
RUN = f"""
import json
from streamlit.testing.v1 import AppTest

import attention_ui

seen = {{"package": attention_ui.__file__}}
for lang in ("en", "ja"):
    at = AppTest.from_file("app.py", default_timeout=120)
    at.session_state["lang"] = lang
    at.run()
    home = {{
        "menu": [[link.proto.page, link.proto.label] for link in at.sidebar.get("page_link")],
        "links": [[link.proto.page, link.proto.label] for link in at.main.get("page_link")],
        "captions": [caption.value for caption in at.caption],
    }}
    at.switch_page("pages/{NAME}.py").run()
    seen[lang] = {{
        "home": home,
        "errors": [str(error.value) for error in at.exception],
        "title": [title.value for title in at.title],
        "text": [markdown.value for markdown in at.markdown],
    }}
print(json.dumps(seen))
"""


def documented_files() -> list[str]:
    """The files the doc's "Adding a page" section names, one a numbered line."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Adding a page", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\d\. `([^`]+)`", section, re.M)


def test_the_doc_lists_at_most_five_files_and_these_are_the_steps():
    files = [f.replace("<name>", NAME) for f in documented_files()]
    assert 0 < len(files) <= 5, files
    assert sorted(files) == sorted([*PAGE, "attention_ui/page_list.py"])


def add_the_page(app: Path) -> None:
    for relative, text in PAGE.items():
        path = app / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    page_list = app / "attention_ui" / "page_list.py"
    source = page_list.read_text(encoding="utf-8")
    end = "\n)\nHOME = PAGES[0]"
    assert source.count(end) == 1, "page_list.py's PAGES no longer ends as the test expects"
    page_list.write_text(source.replace(end, "\n" + MENU_LINE.rstrip("\n") + end), "utf-8")


def test_a_page_added_by_the_docs_steps_is_in_the_menu_and_runs_in_both_languages(tmp_path):
    app = tmp_path / "app"
    app.mkdir()
    for part in APP_PARTS:
        source = REPO / part
        if source.is_dir():
            shutil.copytree(source, app / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, app / part)
    add_the_page(app)
    env = {**os.environ, "PYTHONPATH": str(app)}
    done = subprocess.run(
        [sys.executable, "-c", RUN], cwd=app, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert Path(seen["package"]).is_relative_to(app)  # the copy's code, not this checkout's
    for lang, (title, menu, intro, summary) in WORDS.items():
        page = seen[lang]
        assert [NAME, menu] in page["home"]["menu"], page["home"]["menu"]
        assert page["home"]["menu"][-1] == [NAME, menu]  # last in the menu, as in the list
        assert [NAME, menu] in page["home"]["links"]
        assert summary in page["home"]["captions"]
        assert page["errors"] == []
        assert page["title"] == [title]
        assert intro in page["text"]
