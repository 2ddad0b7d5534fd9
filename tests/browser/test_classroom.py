"""A class in Chromium on the SQLite default: a teacher's browser and two students' browsers
(three contexts: three sessions, no shared cookies).

The teacher starts a class from the sidebar, the students open the join address, every change
of the teacher's reaches both students' screens (their addresses hold the teacher's state)
within the follow target, the teacher asks the Luong puzzle, the students answer with the
answer charts hidden, the teacher sees the live count, reveals, and the students see their
verdict and the charts; the teacher switches language and the students' screens follow. The
teacher key is in no address the teacher's tab shows or puts in its history.

From outside, on the module's app process (WebSocket tabs speaking Streamlit's protocol, and a
second process): the store's file removed, then replaced, while students vote and poll, every
vote reported as sent is in the store; a number box sent NaN or ±∞ says so, with no traceback.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect
from streamlit.proto.WidgetStates_pb2 import WidgetState

from attention_ui.kit.text.i18n import catalog
from bench.class_load import (
    Browser,
    ask,
    counted_votes,
    form_prefix,
    join,
    start_class,
    wait_for_form,
)
from tests.app_server import server_log, start_app, stop_app
from tests.browser.conftest import (
    ARTIFACTS,
    POLL_MS,
    assert_no_exception,
    class_code,
    class_of_three,
    new_context,
    open_page,
    wait_idle,
)

EN = catalog("en")
# How long a student's screen may take to follow here: generous, since the machine may be
# shared; the follow delay itself (target 3 s) is measured by bench/load.py --modes class.
WAIT_MS = 60_000


@dataclass(frozen=True)
class ClassApp:
    url: str
    store: Path  # its SQLite file
    process: subprocess.Popen


@pytest.fixture(scope="module")
def class_app(tmp_path_factory):
    """One app process on its own SQLite file for this module (browsers and WebSocket tabs)."""
    store_file = tmp_path_factory.mktemp("db") / "c.db"
    process, url = start_app(env={**os.environ, "ATTENTION_CLASSROOM_DB": str(store_file)})
    yield ClassApp(url, store_file, process)
    stop_app(process)


@pytest.fixture(scope="module")
def class_server(class_app):
    return class_app.url


def sidebar_text(page) -> str:
    return page.locator("[data-testid=stSidebar]").inner_text()


def open_class_box(page) -> None:
    box = page.locator("[data-testid=stSidebar] [data-testid=stExpander]").filter(
        has_text=EN["classroom.title"]
    )
    if not box.get_by_role("button", name=EN["classroom.start"]).is_visible():
        box.locator("summary").first.click()


def wait_for_param(page, name: str, value: str) -> float:
    """Seconds until the page's address has `name=value`."""
    start = time.monotonic()
    page.wait_for_function(
        "([n, v]) => new URLSearchParams(location.search).get(n) === v",
        arg=[name, value],
        timeout=WAIT_MS,
        polling=POLL_MS,
    )
    return time.monotonic() - start


def test_a_teacher_leads_two_students_through_a_question(browser, class_server):
    errors: list[str] = []
    with class_of_three(browser, {"width": 1280, "height": 900}, "class-lead") as pages:
        teacher, *students = pages
        for page in pages:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        open_page(teacher, class_server, "luong")
        open_class_box(teacher)
        teacher.get_by_role("button", name=EN["classroom.start"]).click()
        code = class_code(teacher, timeout=WAIT_MS)
        wait_idle(teacher)
        join = teacher.locator("[data-testid=stSidebar] [data-testid=stCode] code").first
        address = join.inner_text().strip()
        assert address == f"{class_server}/luong?class={code}&lang=en"  # the class's language
        assert teacher.locator("[data-testid=stSidebar] img").count() >= 1  # the QR code
        for student in students:
            student.goto(address)
            student.wait_for_selector("h1", timeout=60_000)
            student.get_by_text(f"You are in class {code}").wait_for(timeout=WAIT_MS)
        teacher.wait_for_function(
            "() => document.body.innerText.includes('2 students connected')",
            timeout=WAIT_MS,
            polling=POLL_MS,
        )

        for score in ("scaled_dot", "general"):
            teacher.get_by_label(EN["luong.score.label"], exact=True).click()
            teacher.get_by_role("option", name=EN[f"luong.score_name.{score}"]).click()
            wait_for_param(teacher, "score", score)
            for student in students:
                wait_for_param(student, "score", score)

        teacher.get_by_text(EN["predict.switch"], exact=True).click()
        wait_idle(teacher)
        teacher.get_by_role("button", name=EN["classroom.q.ask"]).click()
        wait_idle(teacher)
        for number, student in enumerate(students):
            student.get_by_text(EN["classroom.q.title"].format(round=1)).wait_for(timeout=WAIT_MS)
            wait_idle(student)
            assert student.locator(".js-plotly-plot").count() == 0, "answer charts hidden"
            for query in ("q1", "q2"):  # the question's own radio groups, named by query
                group = student.get_by_role(
                    "radiogroup", name=EN["predict.luong.question"].format(query=query)
                )
                group.get_by_role("radio").nth(number).check(force=True)
                wait_idle(student)
            student.get_by_role("button", name=EN["classroom.q.send"]).click()
            student.get_by_text(EN["classroom.q.sent"].format(round=1)).wait_for(timeout=WAIT_MS)
        teacher.get_by_text("2 of 2 connected students have answered").wait_for(timeout=WAIT_MS)
        assert "Right:" not in teacher.locator("[data-testid=stMain]").inner_text()
        teacher.get_by_role("button", name=EN["classroom.q.reveal"]).click()
        teacher.get_by_text("Round 1:").first.wait_for(timeout=WAIT_MS)
        for student in students:
            student.get_by_text("Round 1:").first.wait_for(timeout=WAIT_MS)
            wait_idle(student)
            assert student.locator(".js-plotly-plot").count() > 0, "the answers, revealed"
            assert_no_exception(student)
        # The teacher switches language: the students, who did not pick one, follow at their
        # next poll (nothing else reruns their page now).
        teacher.locator("[data-testid=stSidebar]").get_by_text("日本語", exact=True).click()
        wait_for_param(teacher, "lang", "ja")
        for student in students:
            wait_for_param(student, "lang", "ja")
            student.get_by_text(catalog("ja")["classroom.following"]).wait_for(timeout=WAIT_MS)
        assert_no_exception(teacher)
    assert not errors, errors


def start_class_in(page, server: str) -> tuple[str, str]:
    """The teacher starts a class on the Luong page: (its code, its join address)."""
    open_page(page, server, "luong")
    open_class_box(page)
    page.get_by_role("button", name=EN["classroom.start"]).click()
    code = class_code(page, timeout=WAIT_MS)
    wait_idle(page)
    return code, f"{server}/luong?class={code}&lang=en"


def seat_of(page) -> str:
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('seat')",
        timeout=WAIT_MS,
        polling=POLL_MS,
    )
    return page.evaluate("() => new URLSearchParams(location.search).get('seat')")


def test_two_tabs_and_a_reload_of_one_browser_keep_one_seat(browser, class_server):
    teacher_context = new_context(browser, viewport={"width": 1280, "height": 900})
    student_context = new_context(browser, viewport={"width": 390, "height": 844})
    try:
        _, address = start_class_in(teacher_context.new_page(), class_server)
        first = student_context.new_page()
        first.goto(address)
        seat = seat_of(first)
        wait_idle(first)
        second = student_context.new_page()
        second.goto(address)  # the join address again, as a second scan of the QR code
        wait_for_param(second, "seat", seat)
        third = student_context.new_page()
        third.goto(address.replace("/luong", ""))  # the bare join address, a reload of it
        wait_for_param(third, "seat", seat)
        assert_no_exception(second)
    finally:
        teacher_context.close()
        student_context.close()


def largest_font(page, selector: str) -> float:
    """The largest computed font size (px) among the visible elements matching `selector`."""
    return page.evaluate(
        """(sel) => Math.max(0, ...[...document.querySelectorAll(sel)]
            .filter((e) => e.getBoundingClientRect().width > 0)
            .map((e) => parseFloat(getComputedStyle(e).fontSize)))""",
        selector,
    )


def smallest_font(page, selector: str) -> float:
    return page.evaluate(
        """(sel) => Math.min(...[...document.querySelectorAll(sel)]
            .filter((e) => e.getBoundingClientRect().width > 0 && e.textContent.trim())
            .map((e) => parseFloat(getComputedStyle(e).fontSize)))""",
        selector,
    )


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_present_mode_and_the_students_notice(browser, class_server, lang):
    """A projected teacher at 1400 px and two students at 390 and 1400 px, in `lang`; the
    screenshots are left in test-artifacts/ to be looked at."""
    words = catalog(lang)
    ARTIFACTS.mkdir(exist_ok=True)
    teacher_context = new_context(browser, viewport={"width": 1400, "height": 900})
    phone = new_context(browser, viewport={"width": 390, "height": 844})
    laptop = new_context(browser, viewport={"width": 1400, "height": 900})
    try:
        teacher = teacher_context.new_page()
        open_page(teacher, class_server, "luong", f"lang={lang}")
        box = teacher.locator("[data-testid=stSidebar] [data-testid=stExpander]").filter(
            has_text=words["classroom.title"]
        )
        if not box.get_by_role("button", name=words["classroom.start"]).is_visible():
            box.locator("summary").first.click()
        teacher.get_by_role("button", name=words["classroom.start"]).click()
        wait_idle(teacher)
        address = teacher.locator("[data-testid=stSidebar] [data-testid=stCode] code").first
        join = address.inner_text().strip()
        assert f"lang={lang}" in join
        teacher.get_by_text(words["classroom.present"], exact=True).click()
        wait_idle(teacher)
        teacher.wait_for_function(
            "() => !new URLSearchParams(location.search).get('teacher')",
            timeout=WAIT_MS,
            polling=POLL_MS,
        )
        panel = teacher.locator(".st-key-classroom-join-panel")
        panel.wait_for(timeout=WAIT_MS)
        assert largest_font(teacher, ".st-key-classroom-join-panel h1") >= 48
        code_box = panel.locator("[data-testid=stCode] code").first
        assert code_box.evaluate("(e) => e.scrollHeight <= e.clientHeight + 4"), "one line"
        panel.screenshot(path=str(ARTIFACTS / f"class-join-panel-{lang}-1400.png"))
        teacher.get_by_text(words["predict.switch"], exact=True).click()
        wait_idle(teacher)
        teacher.get_by_role("button", name=words["classroom.q.ask"]).click()
        wait_idle(teacher)
        students = []
        for context in (phone, laptop):
            student = context.new_page()
            student.goto(join)
            student.get_by_text(words["classroom.q.title"].format(round=1)).first.wait_for(
                timeout=WAIT_MS
            )
            wait_idle(student)
            students.append(student)
        for student, width in zip(students, (390, 1400), strict=True):
            notice = student.locator("[data-testid=stAlert]").first
            title = student.locator("h1").first
            assert notice.bounding_box()["y"] < title.bounding_box()["y"], "above the title"
            assert student.get_by_role("button", name=words["predict.luong.new"]).count() == 0
            student.screenshot(path=str(ARTIFACTS / f"class-notice-{lang}-{width}.png"))
            notice.get_by_role("link").click()
            question = student.locator("#class-question")
            expect(question).to_be_in_viewport(timeout=10_000)
            student.screenshot(path=str(ARTIFACTS / f"class-question-{lang}-{width}.png"))
            assert_no_exception(student)
        wait_idle(teacher)
        teacher.wait_for_timeout(2500)  # the live view's next poll
        assert smallest_font(teacher, ".stPlotlyChart .main-svg text") >= 18
        teacher.screenshot(path=str(ARTIFACTS / f"class-present-{lang}-1400.png"), full_page=True)
        assert_no_exception(teacher)
    finally:
        for context in (teacher_context, phone, laptop):
            context.close()


# Every address the tab ever shows, kept across its reloads: the first of each document and
# each one the app pushes or replaces into the history (where Back would bring it back).
RECORD_ADDRESSES = """(() => {
  const note = (url) => {
    const seen = JSON.parse(sessionStorage.getItem("test-addresses") || "[]");
    seen.push(String(new URL(url, location.href)));
    sessionStorage.setItem("test-addresses", JSON.stringify(seen));
  };
  note(location.href);
  for (const name of ["pushState", "replaceState"]) {
    const original = history[name].bind(history);
    history[name] = (state, title, url) => {
      if (url !== undefined && url !== null) note(url);
      return original(state, title, url);
    };
  }
})();"""


def test_the_teacher_key_is_never_in_the_address_bar(browser, class_server):
    """Start a class, before Present, during it, after it, a reload (the tab resumes the
    class from the key it keeps) and the end: no address the tab showed or put in its
    history holds the key, which is behind the teacher's button."""
    context = new_context(browser, viewport={"width": 1280, "height": 900})
    context.add_init_script(RECORD_ADDRESSES)
    teacher = context.new_page()
    try:
        code, _ = start_class_in(teacher, class_server)
        teacher.get_by_role("button", name=EN["classroom.teacher_address"]).click()
        resume = teacher.locator("[data-testid=stPopoverBody] [data-testid=stCode] code")
        key = re.search(r"teacher=([A-Za-z0-9_-]+)", resume.inner_text()).group(1)
        teacher.keyboard.press("Escape")
        addresses = [teacher.url]
        for _ in range(2):  # into present mode and out of it
            teacher.get_by_text(EN["classroom.present"], exact=True).click()
            wait_idle(teacher)
            addresses.append(teacher.url)
        teacher.reload()
        teacher.get_by_text(f"Class code: {code}").wait_for(timeout=WAIT_MS)
        wait_idle(teacher)
        addresses.append(teacher.url)
        teacher.get_by_role("button", name=EN["classroom.end"]).click()
        wait_idle(teacher)
        addresses += teacher.evaluate("JSON.parse(sessionStorage.getItem('test-addresses'))")
        assert len(addresses) > 6 and not [a for a in addresses if key in a], addresses
        assert not [a for a in addresses if "teacher=" in a], addresses
        teacher.reload()  # the class ended: the tab no longer keeps the key
        wait_idle(teacher)
        assert f"Class code: {code}" not in sidebar_text(teacher)
        assert_no_exception(teacher)
    finally:
        context.close()


# -- the store's file removed or replaced by another process mid-question (WebSocket tabs) -----

REMOVE = "import glob, os, sys; [os.remove(p) for p in glob.glob(sys.argv[1] + '*')]"
# What a careless host puts in its place: a new empty SQLite database, moved onto the path.
REPLACE = (
    "import os, sqlite3, sys; new = sys.argv[1] + '.new'; c = sqlite3.connect(new);"
    " c.execute('CREATE TABLE notes (x)'); c.commit(); c.close(); os.replace(new, sys.argv[1])"
)


async def send_vote(tab) -> bool:
    """A student presses Send (again while told it was not sent, as a student would, up to
    three times): True once the tab says the answer is in."""
    await wait_for_form(tab, 1)
    await tab.wait_idle()
    parts = sorted(k for k in tab.widgets if k.startswith(form_prefix(1)))
    states = [tab.choice(k, tab.widgets[k].options[0]) for k in parts]
    sent, refused = EN["classroom.q.sent"].format(round=1), EN["classroom.q.not_sent"]
    for _ in range(3):
        await tab.click("classroom.send", *states)
        await tab.wait_for(lambda: sent in tab.screen() or refused in tab.screen(), "an answer")
        if sent in tab.screen():
            return True
        await asyncio.sleep(1.0)
    return False


def forget_started_classes(store_file: Path) -> None:
    """Every class of this module is started from this machine, which may start MAX_CLASSES an
    hour: the ones started before this test are forgotten (another hour, as it were)."""
    try:
        conn = sqlite3.connect(f"file:{store_file}?mode=rw", uri=True, timeout=15)
    except sqlite3.OperationalError:  # no store yet: nothing started
        return
    try:
        with conn:
            conn.execute("DELETE FROM classroom_event WHERE kind = 'class'")
    except sqlite3.OperationalError:  # no tables yet
        pass
    finally:
        conn.close()


async def vote_while_the_store_goes(url: str, store_file: Path, script: str):
    """A teacher asks; two students vote while another process runs `script` on the store's
    file, three others poll, then two of those vote. Returns the class code, the seats told
    their vote is in, and every screen's text and errors at the end."""
    forget_started_classes(store_file)
    teacher, code = await start_class(url)
    students = await join(url, code, 5)
    tabs = [teacher, *students]
    try:
        await ask(teacher)
        remover = asyncio.create_subprocess_exec(sys.executable, "-c", script, str(store_file))
        first = asyncio.gather(*(send_vote(s) for s in students[:2]))
        told, process = await asyncio.gather(first, remover)
        await process.wait()
        told += await asyncio.gather(*(send_vote(s) for s in students[2:4]))
        await asyncio.sleep(3)  # every tab polls again
        sent = {s.params()["seat"] for s, said in zip(students[:4], told, strict=True) if said}
        return code, sent, [t.screen() for t in tabs], [e for t in tabs for e in t.errors]
    finally:
        for tab in tabs:
            await tab.close()


@pytest.mark.parametrize("script", [REMOVE, REPLACE], ids=["removed", "replaced"])
def test_a_store_file_removed_or_replaced_mid_question_keeps_every_vote_sent(class_app, script):
    with ThreadPoolExecutor(max_workers=1) as pool:  # Playwright may hold this thread's loop
        run = vote_while_the_store_goes(class_app.url, class_app.store, script)
        code, sent, screens, errors = pool.submit(asyncio.run, run).result()
    counted = counted_votes(f"sqlite:///{class_app.store}", code)[1]
    assert len(sent) == 4, "every student who pressed Send was told it is in, at last"
    assert sent <= set(counted), f"sent {len(sent)}, in the store {len(counted)}"
    assert not errors, errors
    assert not [s for s in screens if EN["classroom.notice.ended"] in s]
    assert any(EN["classroom.notice.restored"] in s for s in screens)


# -- a number box sent NaN or ±∞ over Streamlit's websocket (the module's app process: one
# server start fewer; the training page's boxes, drawn as every number box is) --------------


async def send_numbers(url: str, sent) -> tuple[list[str], list[str]]:
    """A tab on the training page sends each (box, value) as the browser sends a box's value;
    what its screen says after each, and its errors."""
    tab = Browser(url, "train", "")
    await tab.open()
    try:
        await tab.wait_idle()
        screens = []
        for key, value in sent:
            await tab.wait_for(lambda key=key: key in tab.widgets, key)
            await tab.rerun([WidgetState(id=tab.widgets[key].id, double_value=value)])
            await tab.wait_idle()
            screens.append(tab.screen())
        return screens, tab.errors
    finally:
        await tab.close()


def test_a_number_box_sent_nan_or_infinity_says_so_and_logs_no_traceback(class_app):
    words = {
        "train.steps": (EN["train.settings.steps"], 600),
        "train.seed": (EN["train.settings.seed"], 0),
    }
    sent = [
        ("train.steps", float("nan")),
        ("train.seed", float("inf")),
        ("train.seed", float("-inf")),
        ("train.steps", 2.5),  # a fraction in a box of whole numbers
    ]
    before = len(server_log(class_app.process))
    with ThreadPoolExecutor(max_workers=1) as pool:
        screens, errors = pool.submit(asyncio.run, send_numbers(class_app.url, sent)).result()
    assert not errors, errors
    for (key, _), screen in zip(sent, screens, strict=True):
        label, kept = words[key]
        assert EN["number_box.whole"].format(label=label, value=kept) in screen, screen[-400:]
    assert "Traceback" not in server_log(class_app.process)[before:]
