"""Starting and stopping Debian's nginx in front of app processes, with deploy/nginx.conf, for
the proxy test and bench/load.py's proxy mode.

nginx runs as the current user in the foreground with its own temporary prefix (-p): its pid
file, temp folders and configuration are written there and nowhere else; the access log goes to
its stdout (a temporary file here), which upstream_sessions reads.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from tests.app_server import free_port

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
UPSTREAM_SERVERS = re.compile(
    r"(upstream attention_explorer \{\n(?:.*\n)*?)"
    r"((?:\s*server [^\n]*\n)+)"
)
LISTEN = re.compile(r"\blisten \d+;")
LOG_LINE = re.compile(
    r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) '
    r"upstream=(?P<upstream>\S+) affinity=(?P<affinity>\S+)"
)


@dataclass
class Proxy:
    process: subprocess.Popen
    url: str
    prefix: Path
    log: Path
    text: str | None = None  # the log as it was when nginx stopped


def render_config(port: int, upstreams: list[str]) -> str:
    """deploy/nginx.conf as shipped, listening on 127.0.0.1:`port` in front of `upstreams`
    (host:port each); everything else (affinity, WebSocket upgrade, headers) unchanged."""
    text = CONFIG.read_text(encoding="utf-8")
    lines = "".join(f"        server {upstream};\n" for upstream in upstreams)
    text, count = UPSTREAM_SERVERS.subn(lambda m: m.group(1) + lines, text, count=1)
    assert count == 1, "deploy/nginx.conf has no upstream attention_explorer block"
    text, count = LISTEN.subn(f"listen 127.0.0.1:{port};", text)
    assert count == 1, "deploy/nginx.conf must listen on one port"
    return text


def start_proxy(app_urls: list[str]) -> Proxy:
    """nginx on a free loopback port in front of the app servers at `app_urls`; waits until a
    health check through it answers."""
    prefix = Path(tempfile.mkdtemp(prefix="nginx-"))
    port = free_port()
    upstreams = [url.removeprefix("http://") for url in app_urls]
    (prefix / "nginx.conf").write_text(render_config(port, upstreams), encoding="utf-8")
    log = prefix / "access.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [NGINX, "-p", f"{prefix}/", "-c", "nginx.conf", "-e", "stderr", "-g", "daemon off;"],
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    proxy = Proxy(process, f"http://127.0.0.1:{port}", prefix, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = log.read_text(errors="replace")
            shutil.rmtree(prefix, ignore_errors=True)
            raise RuntimeError(f"nginx exited: {text[-2000:]}")
        try:
            with urllib.request.urlopen(f"{proxy.url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return proxy
        except OSError:
            time.sleep(0.2)
    stop_proxy(proxy)
    raise RuntimeError("nginx did not answer within 30 s")


def stop_proxy(proxy: Proxy) -> None:
    """Stop nginx (its master stops its workers) and remove its prefix."""
    proxy.process.terminate()
    try:
        proxy.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proxy.process.kill()
        proxy.process.wait(timeout=10)
    proxy.text = proxy.log.read_text(errors="replace")
    shutil.rmtree(proxy.prefix, ignore_errors=True)


def access_log(proxy: Proxy) -> list[dict[str, str]]:
    """The access log's lines so far (or as it was when stopped), parsed."""
    text = proxy.text if proxy.text is not None else proxy.log.read_text(errors="replace")
    return [match.groupdict() for match in map(LOG_LINE.search, text.splitlines()) if match]


def upstream_sessions(proxy: Proxy) -> dict[str, int]:
    """How many WebSockets (sessions) nginx passed to each app process."""
    counts: dict[str, int] = {}
    for line in access_log(proxy):
        if line["path"] == "/_stcore/stream":
            counts[line["upstream"]] = counts.get(line["upstream"], 0) + 1
    return counts
