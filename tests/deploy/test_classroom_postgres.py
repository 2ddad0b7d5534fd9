"""One classroom shared by two app processes: Debian's PostgreSQL (a throw-away cluster run as
a non-root user, tests/postgres_server.py), two `streamlit run app.py` behind nginx with
deploy/nginx.conf, the PostgreSQL url given to both in a secrets file
([connections.classroom], as .streamlit/secrets.toml would), a teacher and 30 students over
both processes (bench/class_load.py's WebSocket browsers).

Checked: every student follows every change of the teacher's; 30 of 30 votes counted exactly
once in each round, and they are the votes sent; the teacher's histogram says those votes;
both app processes restart between the second round and the reveal, every tab reconnects with
its address, and the class, its question and its votes are all still there. The follow
latencies are printed (their target, 3 s at p95, is measured by bench/load.py --modes class:
no timed assertion here).
"""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from attention_ui.kit.classroom.follow import PROXY_HOPS_ENV
from bench.class_load import report, run_class
from tests.app_server import free_port, server_log, start_app, stop_app
from tests.postgres_server import start_postgres, stop_postgres
from tests.proxy_server import start_proxy, stop_proxy, upstream_sessions

STUDENTS, CHANGES = 30, 3
SECOND_TABS, WRONG_CODES = 5, 10  # second tabs on a seat; wrong codes from the proxy address


@pytest.mark.deploy
@pytest.mark.timeout(900)
def test_a_class_of_30_over_two_processes_on_postgresql_survives_a_restart(tmp_path):
    database = start_postgres()
    secrets = tmp_path / "secrets.toml"
    secrets.write_text(f'[connections.classroom]\nurl = "{database.url}"\n', encoding="utf-8")
    args = ("--server.runOnSave", "false", "--secrets.files", str(secrets))
    env = {**os.environ, PROXY_HOPS_ENV: "1"}  # behind nginx, as deploy/Dockerfile sets
    ports = [free_port(), free_port()]
    apps, logs, proxy = [], [], None

    def restart() -> None:
        for process in apps:
            logs.append(server_log(process))
            stop_app(process)
        apps[:] = [start_app(env=env, extra_args=args, port=port)[0] for port in ports]

    try:
        apps += [start_app(env=env, extra_args=args, port=port)[0] for port in ports]
        proxy = start_proxy([f"http://127.0.0.1:{port}" for port in ports])
        pids = tuple(process.pid for process in apps)
        # idle_s=0: 23 s of waiting that asserts nothing (bench/load.py --modes class measures it)
        load = run_class(
            proxy.url,
            pids,
            STUDENTS,
            CHANGES,
            database.url,
            restart=restart,
            idle_s=0,
            wrong_codes=WRONG_CODES,
            tabs=SECOND_TABS,
        )
        # Its own thread: Playwright may hold an event loop in this one (see test_proxy.py).
        with ThreadPoolExecutor(max_workers=1) as pool:
            result = pool.submit(asyncio.run, load).result()
    finally:
        if proxy is not None:
            stop_proxy(proxy)
        for process in apps:
            logs.append(server_log(process))
            stop_app(process)
        stop_postgres(database)
    print("\n".join(report(result, STUDENTS, "two processes behind nginx, PostgreSQL")))
    # a run that could not reach the store says so in its server's log (store_safe)
    store_down = [line for log in logs for line in log.splitlines() if "store unavailable" in line]
    assert not result.errors, (result.errors[:5], store_down[:5])
    assert len(result.follow) == STUDENTS * CHANGES  # every student followed every change
    # every wrong code refused as unknown, and still every student got a seat: nobody locked out
    assert result.wrong_codes == WRONG_CODES
    assert result.second_tabs == SECOND_TABS
    # 30 votes per round, the first tabs' answers: the second tabs' answers were not counted
    assert result.counted == {1: STUDENTS, 2: STUDENTS} and result.votes_match
    assert result.histogram_matches
    assert result.survived_restart is True
    served = upstream_sessions(proxy)
    assert len(served) == 2 and all(count >= 3 for count in served.values()), served
    assert not any("Traceback" in log for log in logs)
