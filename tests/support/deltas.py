"""What a served page sends per edit: a bench/load.py Session's received messages, read as
Streamlit's deltas (the element or block kind of each)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

T = TypeVar("T")


def on_served_app(drive: Callable[[str], Awaitable[T]], url: str) -> T:
    """`drive(url)` against the app served at `url` (the session's `app_server`: each drive
    opens a session of its own). In a thread of its own: a browser test in the same worker may
    hold a running event loop."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, drive(url)).result()


def record_received(session: Any) -> list[bytes]:
    """From now on, every message `session` receives, appended to the list returned (the
    caller clears it to start again)."""
    received: list[bytes] = []
    receive = session.socket.recv

    async def recorded(*args, **kwargs):
        data = await receive(*args, **kwargs)
        received.append(data)
        return data

    session.socket.recv = recorded
    return received


def delta_parts(messages: list[bytes]) -> Iterator[tuple[str, Any]]:
    """Each new element or block in `messages`: its kind ("alert", "tab_container", ...) and
    its proto."""
    for data in messages:
        message = ForwardMsg()
        message.ParseFromString(data)
        if message.WhichOneof("type") != "delta":
            continue
        delta = message.delta
        change = delta.WhichOneof("type")
        if change in ("new_element", "add_block"):
            part = getattr(delta, change)
            kind = part.WhichOneof("type")
            yield kind, getattr(part, kind)


def delta_kinds(messages: list[bytes]) -> Counter:
    """How many new elements and blocks of each kind `messages` hold."""
    return Counter(kind for kind, _ in delta_parts(messages))
