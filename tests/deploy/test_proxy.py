"""Past one process: deploy/Dockerfile and deploy/nginx.conf.

The fast checks read the two files: the image is Python 3.11 slim, installs requirements.txt
alone, runs as a non-root user, copies every folder of the app's code and checks
/_stcore/health; the proxy configuration upgrades WebSockets and picks the upstream by an
affinity cookie. The proxy test (marked deploy) starts two app processes and Debian's nginx with
deploy/nginx.conf on free loopback ports (nginx as this user, with its own temporary prefix),
drives bench/load.py's sessions through it, and checks: no error, both processes served
sessions, and every request of one browser (page, WebSocket, HTTP calls) reached one process.
"""

from __future__ import annotations

import asyncio
import gzip
import re
import shutil
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from attention_ui.kit.figures import live_chart
from bench.load import closed_phase, luong_target
from tests.app_server import server_log, start_app, stop_app
from tests.conftest import REPO
from tests.proxy_server import (
    CONFIG,
    NGINX,
    access_log,
    render_config,
    start_proxy,
    stop_proxy,
    upstream_sessions,
)

DOCKERFILE = REPO / "deploy" / "Dockerfile"
SESSIONS, EDITS = 16, 3


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of deploy/Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split()[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def test_image_is_python_311_slim_with_requirements_txt_only():
    instructions = dockerfile_instructions()
    assert instructions[0] == ("FROM", "python:3.11-slim")
    installs = [args for kind, args in instructions if kind == "RUN" and "pip install" in args]
    assert installs == ["pip install -r requirements.txt"]
    assert ("COPY", "requirements.txt ./") in instructions


def test_image_runs_as_a_non_root_user_and_checks_health():
    instructions = dockerfile_instructions()
    users = [args for kind, args in instructions if kind == "USER"]
    assert users and users[-1] not in {"root", "0"}
    cmd_index = max(i for i, (kind, _) in enumerate(instructions) if kind == "CMD")
    assert instructions.index(("USER", users[-1])) < cmd_index, "USER must come before CMD"
    health = [args for kind, args in instructions if kind == "HEALTHCHECK"]
    assert len(health) == 1 and "/_stcore/health" in health[0]
    assert "streamlit" in instructions[cmd_index][1] and "app.py" in instructions[cmd_index][1]


def test_image_copies_every_folder_of_the_app_and_its_settings():
    copied = {
        args.split()[0].rstrip("/") for kind, args in dockerfile_instructions() if kind == "COPY"
    }
    needed = {"app.py", ".streamlit", "requirements.txt"}
    # Every top-level folder with Python the app imports (its packages and pages).
    not_app = {"tests", "bench", "tools"}
    needed |= {path.parent.name for path in REPO.glob("*/*.py") if path.parent.name not in not_app}
    needed.add("static")  # the grid editor's script and style, served at app/static/
    assert needed <= copied, f"not in the image: {sorted(needed - copied)}"
    assert not copied & {"tests", "bench", "requirements-dev.txt", "."}


def test_proxy_config_upgrades_websockets_and_keeps_a_browser_on_one_process():
    text = re.sub(r"#[^\n]*", "", CONFIG.read_text(encoding="utf-8"))  # directives only
    assert "proxy_set_header Upgrade $http_upgrade;" in text
    assert "proxy_set_header Connection $connection_upgrade;" in text
    assert "proxy_http_version 1.1;" in text
    assert re.search(r"hash \$affinity consistent;", text)
    assert "$remote_addr;" not in text and "ip_hash" not in text  # one NAT = one process
    rendered = render_config(4242, ["127.0.0.1:1111", "127.0.0.1:2222"])
    assert "listen 127.0.0.1:4242;" in rendered
    upstream = re.search(r"upstream attention_explorer \{(.*?)\}", rendered, re.S).group(1)
    assert re.findall(r"server (\S+);", upstream) == ["127.0.0.1:1111", "127.0.0.1:2222"]


@pytest.mark.deploy
@pytest.mark.timeout(300)
def test_two_processes_behind_nginx_serve_a_class_with_affinity():
    assert Path(NGINX).exists() or shutil.which("nginx"), (
        "Debian's nginx is missing: tools/test-all.sh installs it"
    )
    apps = []
    proxy = None
    try:
        apps = [start_app(extra_args=("--server.runOnSave", "false")) for _ in range(2)]
        proxy = start_proxy([url for _, url in apps])
        pids = tuple(process.pid for process, _ in apps)
        # Its own thread: in one pytest run the browser tests' Playwright keeps an event loop
        # running in this thread, where asyncio.run() refuses to start another.
        with ThreadPoolExecutor(max_workers=1) as pool:
            load = closed_phase(luong_target(proxy.url, pids), SESSIONS, EDITS)
            phase = pool.submit(asyncio.run, load).result()
    finally:
        if proxy is not None:
            stop_proxy(proxy)
        for process, _ in apps:
            stop_app(process)
    assert not phase.errors, phase.errors[:5]
    assert len(phase.latencies) == SESSIONS * EDITS
    served = upstream_sessions(proxy)
    upstreams = {url.removeprefix("http://") for _, url in apps}
    assert set(served) == upstreams, f"sessions per process: {served}"
    assert sum(served.values()) == SESSIONS
    lines = access_log(proxy)
    streams = [line for line in lines if line["path"] == "/_stcore/stream"]
    assert {line["status"] for line in streams} == {"101"}  # upgraded to WebSockets
    by_browser: dict[str, set[str]] = {}
    for line in lines:
        by_browser.setdefault(line["affinity"], set()).add(line["upstream"])
    for line in streams:  # the WebSocket came with the cookie its page visit was given ...
        assert len([other for other in lines if other["affinity"] == line["affinity"]]) >= 3
    # ... and every request of one browser reached one process.
    assert all(len(reached) == 1 for reached in by_browser.values()), by_browser
    for process, _ in apps:
        assert "Traceback" not in server_log(process)


@pytest.mark.deploy
@pytest.mark.timeout(180)
def test_behind_nginx_the_charts_plotly_and_a_long_address_arrive_whole():
    """The live chart loads the plotly package's plotly.js from the project's static/
    (kit/figures/live_chart.py): through the proxy it arrives whole, as does the chart's own
    script (app/static/). A page's address as long as the longest state it holds (the Luong
    page's, 43,500 characters; a trained model handed to the multi-head page, 25,000) is
    served, not refused for its length."""
    assert Path(NGINX).exists() or shutil.which("nginx"), (
        "Debian's nginx is missing: tools/test-all.sh installs it"
    )
    app = proxy = None
    try:
        app = start_app(extra_args=("--server.runOnSave", "false"))
        proxy = start_proxy([app[1]])
        plotly_js = f"app/static/vendor/{live_chart.PLOTLY_FILE}"
        got = {}
        for path in (plotly_js, "app/static/live_chart.js"):
            request = urllib.request.Request(
                f"{proxy.url}/{path}", headers={"Accept-Encoding": "gzip"}
            )
            with urllib.request.urlopen(request, timeout=60) as response:
                headers = {k.lower(): v for k, v in response.headers.items()}
                body = response.read()
                if headers.get("content-encoding") == "gzip":
                    body = gzip.decompress(body)
                got[path] = (response.status, headers, body)
        with urllib.request.urlopen(f"{proxy.url}/luong?v=1&Q={'1' * 45_000}", timeout=60) as page:
            long_address = page.status
    finally:
        if proxy is not None:
            stop_proxy(proxy)
        if app is not None:
            stop_app(app[0])
    _, headers, body = got[plotly_js]
    assert "javascript" in headers["content-type"]
    assert body == (REPO / "static" / "vendor" / live_chart.PLOTLY_FILE).read_bytes()
    assert all(status == 200 for status, _, _ in got.values())
    assert long_address == 200
