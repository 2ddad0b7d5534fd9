"""Training as a service, attacked from outside: sessions over Streamlit's own websocket
(bench/class_load.py's Browser) against `streamlit run app.py` listening on every interface,
the students' from this machine's non-loopback address (the server sees them as one outside
network address; it trusts no proxy header from there).

Nine students open the training page with distinct large runs (the address trains on open),
a teacher starts a class and presses Train with the defaults, then everybody leaves. Protected:
the ninth run from one address is refused in a sentence, the waiting ones are told their place
in line, the teacher's run finishes while the students' still train or wait, and once every
page has gone no run trains on (the training processes idle).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import socket
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import psutil
import pytest

from bench.class_load import Browser, start_class
from tests.app_server import free_port, server_log, start_app, stop_app

STUDENTS = 9  # one more than train/runs.py's PER_CLIENT
LARGE = {"task": "induction", "d_model": "32", "heads": "4", "steps": "3000", "trained": "1"}
# The live screen's caption while a run trains (watch.live): between its fragment's reruns
# the page runs nothing, so a training student's page is told by what it shows.
LIVE = "Training: the attention of the latest snapshot"
LEAVE_SECONDS = 9.0  # runs.CANCEL_AFTER, the page's KEEP_SECONDS and a lane's poll, with room


def outside_address() -> str | None:
    """An IPv4 address of this machine that is not loopback, if it has one."""
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if (
                address.family == socket.AF_INET
                and not ipaddress.ip_address(address.address).is_loopback
            ):
                return address.address
    return None


def children_cpu(pid: int) -> float:
    total = 0.0
    for child in psutil.Process(pid).children(recursive=True):
        with contextlib.suppress(psutil.NoSuchProcess):
            total += sum(child.cpu_times()[:2])
    return total


async def crowd(outside: str, local: str, pid: int) -> dict:
    students = [
        Browser(outside, "train", urlencode({**LARGE, "seed": str(900 + n)}))
        for n in range(STUDENTS)
    ]
    found: dict = {}
    try:
        await asyncio.gather(*(student.open() for student in students))
        refusal = "Your network already has"
        await students[0].wait_for(
            lambda: any(refusal in s.screen() for s in students), "the refusal"
        )
        refused = [s for s in students if refusal in s.screen()]
        others = [s for s in students if s not in refused]
        found["refused"] = len(refused)
        await students[0].wait_for(
            lambda: any("in line for training" in s.screen() for s in others), "a place"
        )
        found["place"] = next(s.screen() for s in others if "in line" in s.screen())
        teacher, _ = await start_class(local, "train")
        await teacher.click("train.train")
        await teacher.wait_for(lambda: "train.player" in teacher.widgets, "the teacher's run", 60)
        found["students_training"] = sum(
            any(said in s.screen() for said in ("in line for training", LIVE)) or s.running
            for s in others
        )
        found["errors"] = [e for b in (*students, teacher) for e in b.errors]
        await teacher.close()
    finally:
        for student in students:
            await student.close()
    await asyncio.sleep(LEAVE_SECONDS)
    before = children_cpu(pid)
    await asyncio.sleep(2.0)
    found["cpu_after_leaving"] = children_cpu(pid) - before
    return found


@pytest.mark.timeout(240)
def test_outsiders_runs_are_bounded_the_class_run_goes_first_and_leaving_stops_training(
    tmp_path,
):
    address = outside_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to come from")
    port = free_port()
    env = {**os.environ, "ATTENTION_CLASSROOM_DB": str(tmp_path / "classroom.sqlite")}
    process, local = start_app(
        env=env,
        port=port,
        extra_args=("--server.address", "0.0.0.0", "--server.runOnSave", "false"),
    )
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:  # its own event loop (see test_proxy)
            outside = f"http://{address}:{port}"
            found = pool.submit(asyncio.run, crowd(outside, local, process.pid)).result()
        log = server_log(process)
    finally:
        stop_app(process)
    assert not found["errors"], found["errors"][:3]
    assert "Traceback" not in log
    assert found["refused"] == 1
    assert "in line for training" in found["place"]
    assert found["students_training"] == STUDENTS - 1  # the teacher did not wait for them
    assert found["cpu_after_leaving"] < 0.3, found  # seconds of processor time in 2 s
