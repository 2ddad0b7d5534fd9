"""A class over WebSockets: one teacher and N followers (bench/load.py --modes class, and the
PostgreSQL + nginx deploy test).

Each browser is a WebSocket client speaking Streamlit's protocol as the frontend does for a
follower: it keeps the address the server writes (page_info_changed), re-runs every
`st.fragment(run_every=...)` on its timer (auto_rerun, the frontend's own behaviour: a rerun of
that fragment whenever the session is idle), and reconnects with its address when the server
goes away (as a browser tab does). The teacher clicks buttons and picks options by sending
their widget states, as the frontend would.

Measured: follow latency (from the teacher's change request to the follower's address holding
the new value), server CPU of idle followers (percent of one core), votes counted against votes
sent (read back from the store), and the teacher's histogram against the votes.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode

import psutil
import sqlalchemy as sa
import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

from attention_ui.kit.classroom import codes, store

TIMEOUT = 60.0
SCORES = (("scaled_dot", "scaled dot"), ("general", "general"), ("dot", "dot"))
FINISHED = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)


def _cookie(url: str) -> str:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        response.read()
        cookies = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie") or []]
    return "; ".join(cookies)


@dataclass
class Browser:
    """One tab: its address, its widgets by key, what its screen says, its timers."""

    base: str
    page: str
    query: str
    socket: object = None
    cookie: str = ""
    page_hash: str = ""
    widgets: dict[str, object] = field(default_factory=dict)  # key → element proto
    # delta path → (the run that drew it, its fragment's id or "", its text)
    texts: dict[tuple, tuple[str, str, str]] = field(default_factory=dict)
    run: tuple[str, tuple[str, ...]] = ("", ())  # the run going on: its id, its fragments
    resent: set[tuple] = field(default_factory=set)  # containers that run's fragments re-sent
    timers: dict[str, float] = field(default_factory=dict)  # fragment id → interval
    query_log: list[tuple[float, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    errors_retried: list[str] = field(default_factory=list)  # clicks that showed nothing
    running: bool = False
    runs: int = 0
    tasks: list = field(default_factory=list)
    reconnecting: bool = False

    def params(self) -> dict[str, str]:
        return {k: v[0] for k, v in parse_qs(self.query).items()}

    def screen(self) -> str:
        return "\n".join(text for _, _, text in self.texts.values())

    def state(self) -> str:
        """What this tab holds, for a timeout's message: what it waited for is not there."""
        return (
            f"the tab's address {self.query!r}, runs {self.runs}, running {self.running}, "
            f"its screen ends {self.screen()[-300:]!r}"
        )

    async def open(self) -> None:
        if not self.cookie:
            self.cookie = await asyncio.to_thread(_cookie, f"{self.base}/{self.page}")
        self.socket = await websockets.connect(
            f"ws{self.base.removeprefix('http')}/_stcore/stream",
            subprotocols=["streamlit"],
            additional_headers={"Cookie": self.cookie} if self.cookie else {},
            max_size=2**26,
            open_timeout=30,
        )
        self.timers.clear()
        self.tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._tick())]
        await self.rerun(first=True)

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await self.socket.close()

    async def rerun(self, states=(), fragment: str = "", first: bool = False) -> None:
        message = BackMsg()
        rerun = message.rerun_script
        rerun.query_string = self.query
        if first or not self.page_hash:
            rerun.page_name = self.page
        else:
            rerun.page_script_hash = self.page_hash
        if fragment:
            rerun.fragment_id = fragment
            rerun.is_auto_rerun = True
        rerun.widget_states.widgets.extend(states)
        self.running = True
        await self.socket.send(message.SerializeToString())

    async def open_box(self, key: str) -> WidgetState:
        """Open the expander `key`, as a click on it does (Streamlit reruns the page); its
        state, to send along with what is clicked in it."""
        await self.wait_for(lambda: key in self.widgets, f"expander {key}")
        await self.wait_idle()
        opened = WidgetState(id=self.widgets[key].id, bool_value=True)
        await self.rerun([opened])
        return opened

    async def click(self, key: str, *others) -> None:
        """Press the button `key` (with other widget states sent along)."""
        await self.wait_for(lambda: key in self.widgets, f"button {key}")
        await self.wait_idle()
        trigger = WidgetState(id=self.widgets[key].id, trigger_value=True)
        await self.rerun([*others, trigger])

    def choice(self, key: str, label: str) -> WidgetState:
        return WidgetState(id=self.widgets[key].id, string_value=label)

    async def _read(self) -> None:
        try:
            while True:
                msg = ForwardMsg()
                msg.ParseFromString(await self.socket.recv())
                self._take(msg)
        except (websockets.ConnectionClosed, OSError):
            self.running = False
        except asyncio.CancelledError:
            raise

    def _take(self, msg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
            self.query_log.append((time.perf_counter(), self.query))
        elif kind == "navigation":
            self.page_hash = msg.navigation.page_script_hash
        elif kind == "auto_rerun":
            self.timers[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "new_session":  # the start of every run, a fragment's too
            self.run = (msg.metadata.run.script_run_id, tuple(msg.metadata.run.fragment_ids))
            self.resent.clear()
        elif kind == "delta":
            path, delta = tuple(msg.metadata.delta_path), msg.delta
            if delta.WhichOneof("type") == "new_element":
                self._element(path, delta.fragment_id, delta.new_element)
            elif delta.WhichOneof("type") == "add_block":
                block_id = delta.add_block.id  # a keyed expander is a widget too
                if block_id.startswith("$$ID") and "-" in block_id:
                    self.widgets[block_id.split("-", 2)[-1]] = delta.add_block
                if delta.fragment_id in self.run[1]:
                    self.resent.add(path)
        elif kind == "script_finished":
            status = msg.script_finished
            if status == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                return
            self._drop_stale()
            self.running, self.runs = False, self.runs + 1
            if status not in FINISHED:
                self.errors.append(f"run finished with status {status}")

    def _element(self, path: tuple, fragment: str, element) -> None:
        kind = element.WhichOneof("type")
        if kind == "exception":
            self.errors.append(f"{element.exception.type}: {element.exception.message}")
        if kind in ("markdown", "alert", "code"):
            body = {
                "markdown": element.markdown.body,
                "alert": element.alert.body,
                "code": element.code.code_text,
            }[kind]
            self.texts[path] = (self.run[0], fragment, body)
        else:
            self.texts.pop(path, None)  # another element took its place
        proto = getattr(element, kind, None)
        widget_id = getattr(proto, "id", "") if proto is not None else ""
        if isinstance(widget_id, str) and "-" in widget_id and widget_id.startswith("$$ID"):
            self.widgets[widget_id.split("-", 2)[-1]] = proto

    def _drop_stale(self) -> None:
        """At a run's end, what the browser drops (Streamlit's ClearStaleNodeVisitor): after a
        whole run, all that run did not draw; after a fragment's run, what that fragment drew
        before and the contents of the containers it drew again, the rest of the page kept."""
        run_id, fragments = self.run
        if not fragments:
            self.texts = {path: shown for path, shown in self.texts.items() if shown[0] == run_id}
            return

        def stale(path: tuple, drawn_in: str, fragment: str) -> bool:
            if drawn_in == run_id:
                return False
            return fragment in fragments or any(
                path[:depth] in self.resent for depth in range(1, len(path))
            )

        self.texts = {
            path: shown for path, shown in self.texts.items() if not stale(path, *shown[:2])
        }

    async def _tick(self) -> None:
        """The frontend's timers of st.fragment(run_every=...)."""
        while True:
            interval = min(self.timers.values(), default=1.0)
            await asyncio.sleep(interval)
            if self.running or self.socket is None:
                continue
            for fragment in list(self.timers):
                with contextlib.suppress(websockets.ConnectionClosed, OSError):
                    await self.rerun(fragment=fragment)

    async def wait_idle(self) -> None:
        await self.wait_for(lambda: not self.running, "the run's end")

    async def wait_for(self, check, what: str, timeout: float = TIMEOUT) -> float:
        start = time.perf_counter()
        while not check():
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"{what} not seen within {timeout:.0f} s; {self.state()}")
            await asyncio.sleep(0.05)
        return time.perf_counter() - start

    async def reconnect(self) -> None:
        """The server went away: open a new session with the address the tab shows."""
        await self.close()
        self.widgets.clear()
        self.texts.clear()
        deadline = time.perf_counter() + TIMEOUT
        while True:
            try:
                await self.open()
                return
            except (OSError, websockets.WebSocketException, TimeoutError):
                if time.perf_counter() > deadline:
                    raise
                await asyncio.sleep(0.5)


@dataclass
class ClassResult:
    follow: list[float] = field(default_factory=list)  # seconds, every follower × change
    idle_cpu_percent: float = float("nan")
    sent: dict[int, dict[int, tuple[int, ...]]] = field(default_factory=dict)  # round → student
    counted: dict[int, int] = field(default_factory=dict)  # round → votes in the store
    votes_match: bool = False
    histogram_matches: bool = False
    survived_restart: bool | None = None
    labels: list[str] = field(default_factory=list)  # the options' labels, as students saw them
    wrong_codes: int = 0  # wrong codes typed from the students' own (proxy) address first
    second_tabs: int = 0  # students with a second tab on their seat (its votes: not again)
    errors: list[str] = field(default_factory=list)
    repeated_clicks: list[str] = field(default_factory=list)  # what the tab showed instead


def cpu_seconds(pids) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = psutil.Process(pid).cpu_times()
            total += times.user + times.system
    return total


def teacher_address(teacher: Browser) -> str | None:
    """The query of the teacher address behind the teacher's button (the teacher's own
    address bar never holds the key), or None while it is not drawn."""
    for _, _, text in teacher.texts.values():
        if "teacher=" in text and "?" in text:
            return text.strip().split("?", 1)[1]
    return None


async def start_class(base: str, page: str = "luong") -> tuple[Browser, str]:
    """A teacher opens `page`, starts a class and reads its code off the teacher address."""
    teacher = Browser(base, page, "")
    await teacher.open()
    await teacher.wait_idle()
    box = await teacher.open_box("classroom.box")  # out of a class its buttons are built once open
    await teacher.click("classroom.start", box)
    await teacher.wait_for(lambda: teacher_address(teacher), "the teacher address")
    return teacher, parse_qs(teacher_address(teacher))["class"][0]


async def join(base: str, code: str, count: int, page: str = "luong") -> list[Browser]:
    """`count` students open the join address (a few at a time, as a class does)."""
    followers = [Browser(base, page, urlencode({"class": code})) for _ in range(count)]
    for start in range(0, count, 5):
        await asyncio.gather(*(f.open() for f in followers[start : start + 5]))
    await asyncio.gather(
        *(f.wait_for(lambda f=f: "seat" in f.params(), "a seat") for f in followers)
    )
    return followers


async def type_wrong_codes(base: str, code: str, count: int) -> int:
    """A browser on the students' address types `count` wrong class codes into the join box;
    how many were refused as unknown (not as limited)."""
    guesser = Browser(base, "luong", "")
    await guesser.open()
    await guesser.wait_idle()
    box = await guesser.open_box("classroom.box")
    refused = 0
    guesses = (g for g in iter(codes.new_code, None) if g != code)
    try:
        for _ in range(count):
            await guesser.wait_for(lambda: "classroom.join" in guesser.widgets, "the join box")
            await guesser.wait_idle()
            typed = WidgetState(
                id=guesser.widgets["classroom.join_code"].id, string_value=next(guesses)
            )
            await guesser.click("classroom.join", box, typed)
            await guesser.wait_for(lambda: "No class has this code" in guesser.screen(), "no")
            refused += "Too many wrong" not in guesser.screen()
    finally:
        await guesser.close()
    return refused


async def second_tabs(followers: list[Browser], count: int) -> list[Browser]:
    """`count` students open a second tab on their seat (what the browser's kept seat gives a
    real browser; these WebSocket tabs have no localStorage, so they open the seat's address)."""
    tabs = [Browser(f.base, f.page, f.query) for f in followers[:count]]
    await asyncio.gather(*(t.open() for t in tabs))
    code = followers[0].params()["class"]
    await asyncio.gather(
        *(t.wait_for(lambda t=t: f"class **{code}**" in t.screen(), "in the class") for t in tabs)
    )
    return tabs


async def change(teacher: Browser, followers: list[Browser], score: str, label: str):
    """The teacher picks another score; seconds until each follower's address has it."""
    await teacher.wait_idle()
    start = time.perf_counter()
    await teacher.rerun([teacher.choice("luong.score", label)])

    async def followed(browser: Browser) -> float:
        def seen() -> float | None:
            for at, query in browser.query_log:
                if at >= start and parse_qs(query).get("score") == [score]:
                    return at - start
            return None

        await browser.wait_for(lambda: seen() is not None, f"score={score} followed")
        return seen()

    return await asyncio.gather(*(followed(f) for f in followers))


async def idle_cpu(pids, seconds: float) -> float:
    """Server CPU while nobody changes anything, in percent of one core."""
    before, start = cpu_seconds(pids), time.perf_counter()
    await asyncio.sleep(seconds)
    return 100 * (cpu_seconds(pids) - before) / (time.perf_counter() - start)


async def ask(teacher: Browser) -> None:
    await teacher.wait_for(lambda: "luong.predict" in teacher.widgets, "the predict switch")
    await teacher.wait_idle()
    await teacher.rerun([WidgetState(id=teacher.widgets["luong.predict"].id, bool_value=True)])
    await teacher.click("classroom.ask")


def form_prefix(round_: int) -> str:
    """The keys of question 1's answer form in round `round_` start with this."""
    return f"classroom.vote.1.{round_}."


async def wait_for_form(browser: Browser, round_: int) -> None:
    first = form_prefix(round_) + "0"
    await browser.wait_for(lambda: first in browser.widgets, f"round {round_}'s form")


async def vote(browser: Browser, round_: int, pick) -> tuple[int, ...]:
    """Answer question 1's round `round_`: option `pick(part, count)` of each part."""
    prefix = form_prefix(round_)
    await wait_for_form(browser, round_)
    await browser.wait_idle()
    parts = sorted(k for k in browser.widgets if k.startswith(prefix))
    answer, states = [], []
    for part, key in enumerate(parts):
        options = list(browser.widgets[key].options)
        choice = pick(part, len(options))
        answer.append(choice)
        states.append(browser.choice(key, options[choice]))
    receipt = f"round {round_} is in"
    for attempt in range(2):
        await browser.click("classroom.send", *states)
        try:
            await browser.wait_for(lambda: receipt in browser.screen(), "the vote's receipt", 30)
            return tuple(answer)
        except TimeoutError as error:
            # Its message ends with what the tab shows instead, which says why (a warning,
            # another round, another page).
            if attempt:
                raise
            # A student whose click showed nothing clicks again (the store counts one vote
            # per seat and round, so this cannot count twice); the report says how often.
            browser.errors_retried.append(str(error))
    raise AssertionError("unreachable")


def histogram_lines(sent: dict[int, dict[int, tuple[int, ...]]], labels: list[str]) -> list[str]:
    """The teacher's text alternative of each part's histogram, as it must read for the votes
    sent ('k1: 3 / 5, k2: …': round 1 / round 2)."""
    rounds = sorted(sent)
    parts = len(next(iter(sent[rounds[0]].values())))
    lines = []
    for part in range(parts):
        counts = [
            " / ".join(
                str(sum(answer[part] == option for answer in sent[r].values())) for r in rounds
            )
            for option in range(len(labels))
        ]
        lines.append(", ".join(f"{label}: {c}" for label, c in zip(labels, counts, strict=True)))
    return lines


def counted_votes(store_url: str, code: str) -> dict[int, dict[str, tuple[int, ...]]]:
    engine = sa.create_engine(store_url)
    try:
        view = store.view(engine, code)
        return store.answers(engine, code, view.question, view.status.question_no)
    finally:
        engine.dispose()


async def two_rounds(
    teacher: Browser, followers: list[Browser], result: ClassResult, extra_tabs=()
) -> None:
    await ask(teacher)
    # Each second tab shows round 1's form before its seat answers (as a student's two tabs
    # open on a question; a tab that reruns only after its seat answered rightly shows the
    # receipt instead, and would have no form to send again).
    await asyncio.gather(*(wait_for_form(t, 1) for t in extra_tabs))
    result.sent[1] = dict(
        enumerate(
            await asyncio.gather(
                *(vote(f, 1, lambda part, n, i=i: (i + part) % n) for i, f in enumerate(followers))
            )
        )
    )
    # Each second tab then sends another answer on the same seat: never counted a second time.
    await asyncio.gather(*(vote(t, 1, lambda part, n: (part + 1) % n) for t in extra_tabs))
    result.labels = list(followers[0].widgets[form_prefix(1) + "0"].options)
    await teacher.click("classroom.vote_again")
    result.sent[2] = dict(
        enumerate(
            await asyncio.gather(
                *(
                    vote(f, 2, lambda part, n, i=i: (i // 2 + part) % n)
                    for i, f in enumerate(followers)
                )
            )
        )
    )


async def restart_class(teacher, followers, restart) -> bool:
    """The app processes restart: every tab reconnects with its address (the teacher's with
    the teacher address, as a browser's tab resumes from the key its piece keeps); True when
    the teacher leads the same class again and every student is back in it with their vote."""
    resume = teacher_address(teacher)
    code = parse_qs(resume)["class"][0]
    teacher.query = resume
    await asyncio.to_thread(restart)
    await asyncio.gather(*(b.reconnect() for b in (teacher, *followers)))
    back = [
        b.wait_for(lambda b=b: f"class **{code}**" in b.screen(), "back in the class")
        for b in followers
    ]
    await asyncio.gather(*back)
    await teacher.wait_for(lambda: f"**{code}**" in teacher.screen(), "the teacher's class")
    return all("round 2 is in" in b.screen() for b in followers) or all(
        await asyncio.gather(
            *(b.wait_for(lambda b=b: "round 2 is in" in b.screen(), "the vote") for b in followers)
        )
    )


async def run_class(
    base: str,
    pids,
    students: int,
    changes: int,
    store_url: str,
    restart=None,
    idle_s=20.0,
    wrong_codes: int = 0,
    tabs: int = 0,
) -> ClassResult:
    """The whole class; `restart` (a function) restarts the app processes between the second
    round's votes and the reveal; first `wrong_codes` wrong codes from the students' address,
    and `tabs` students with a second tab on their seat."""
    result = ClassResult()
    teacher, code = await start_class(base)
    if wrong_codes:
        result.wrong_codes = await type_wrong_codes(base, code, wrong_codes)
    followers = await join(base, code, students)
    browsers = [teacher, *followers]
    try:
        for i in range(changes):
            score, label = SCORES[i % len(SCORES)]
            result.follow += await change(teacher, followers, score, label)
        if idle_s:  # 0: not measured (the deploy test; bench/load.py --modes class measures it)
            await asyncio.sleep(3)  # the last change's reruns are over
            result.idle_cpu_percent = await idle_cpu(pids, idle_s)
        extra = await second_tabs(followers, tabs) if tabs else []
        browsers += extra
        result.second_tabs = len(extra)
        await two_rounds(teacher, followers, result, extra)
        for tab in extra:  # closed before the restart: only the first tabs reconnect
            await tab.close()
        if restart is not None:
            result.survived_restart = await restart_class(teacher, followers, restart)
        counted = counted_votes(store_url, code)
        result.counted = {r: len(v) for r, v in counted.items()}
        result.votes_match = all(len(counted[r]) == len(result.sent[r]) for r in (1, 2)) and all(
            sorted(counted[r].values()) == sorted(result.sent[r].values()) for r in (1, 2)
        )
        expected = histogram_lines(result.sent, result.labels)
        await teacher.wait_for(
            lambda: all(line in teacher.screen() for line in expected), "the histogram", 30
        )
        result.histogram_matches = True
        await teacher.click("classroom.reveal")
        await asyncio.gather(
            *(f.wait_for(lambda f=f: "Round 2:" in f.screen(), "the reveal") for f in followers)
        )
    except (TimeoutError, OSError, websockets.WebSocketException) as error:
        result.errors.append(f"{type(error).__name__}: {error}")
    finally:
        for browser in browsers:
            result.errors += browser.errors
            result.repeated_clicks += browser.errors_retried
            await browser.close()
    return result


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def report(result: ClassResult, students: int, where: str) -> list[str]:
    """The figures, one line each (targets: follow p95 ≤ 3 s, idle CPU ≤ 10 % of one core,
    0 votes lost)."""
    sent = sum(len(v) for v in result.sent.values())
    counted = sum(result.counted.values())
    within = sum(s <= 3.0 for s in result.follow)
    lines = [
        f"class on {where}: 1 teacher + {students} followers",
        f"  follow latency p50 {percentile(result.follow, 50):.2f} s, p95 "
        f"{percentile(result.follow, 95):.2f} s, max {max(result.follow, default=float('nan')):.2f}"
        f" s; {within} of {len(result.follow)} within 3 s (target p95 ≤ 3 s)",
        f"  idle followers: server CPU {result.idle_cpu_percent:.1f} % of one core (target ≤ 10 %)"
        if not math.isnan(result.idle_cpu_percent)
        else "  idle followers: not measured in this run",
        f"  votes sent {sent}, counted {counted}, lost {sent - counted}, exactly the votes sent: "
        f"{result.votes_match}; teacher's histogram equals the votes: {result.histogram_matches}",
    ]
    if result.wrong_codes or result.second_tabs:
        lines.append(
            f"  wrong codes first typed from the students' address: {result.wrong_codes} refused "
            f"as unknown; second tabs on a seat: {result.second_tabs}"
        )
    if result.survived_restart is not None:
        lines.append(
            f"  after the app processes restarted: class, question, votes there: "
            f"{result.survived_restart}"
        )
    if result.repeated_clicks:
        lines.append(
            f"  votes sent a second time (the first click showed nothing): "
            f"{len(result.repeated_clicks)}, first: {result.repeated_clicks[:2]}"
        )
    if result.errors:
        lines.append(f"  errors: {len(result.errors)}, first: {result.errors[:3]}")
    return lines
