"""What a cold open of each page sends, by element: the forward messages of a page's first run
(a WebSocket client, as bench/load.py's), counted and sized by kind (a delta's element or
block type, or the message's own type).

    python bench/cold_elements.py                      # every page of bench/browser.py
    python bench/cold_elements.py --pages luong --top 30
    python bench/cold_elements.py --url http://127.0.0.1:8501   # a server already running

Starts `streamlit run app.py` on a loopback port unless `--url` is given. Not part of the app.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # run from anywhere
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

import bench.load as load  # noqa: E402
from bench.browser import PAGES  # noqa: E402
from bench.load import Session, Target  # noqa: E402
from tests.app_server import start_app, stop_app  # noqa: E402


def kind_of(msg: ForwardMsg) -> str:
    """'element:markdown', 'block:expandable', 'delta:add_rows', or the message's type."""
    kind = msg.WhichOneof("type")
    if kind != "delta":
        return kind or "?"
    delta = msg.delta.WhichOneof("type")
    if delta == "new_element":
        element = msg.delta.new_element
        name = element.WhichOneof("type")
        if name == "bidi_component":
            name += f"({element.bidi_component.component_name})"
        return f"element:{name}"
    if delta == "add_block":
        return f"block:{msg.delta.add_block.WhichOneof('type') or 'vertical'}"
    return f"delta:{delta}"


def describe(msg: ForwardMsg) -> str:
    """A line for --tree: the delta's path in the page, its kind and the start of its text."""
    kind = kind_of(msg)
    if msg.WhichOneof("type") != "delta":
        return kind
    path = ".".join(str(i) for i in msg.metadata.delta_path)
    words = ""
    if msg.delta.WhichOneof("type") == "new_element":
        element = msg.delta.new_element
        inner = getattr(element, element.WhichOneof("type"))
        for name in ("body", "label", "text", "component_name"):
            if hasattr(inner, name) and getattr(inner, name):
                words = str(getattr(inner, name))
                break
    elif msg.delta.WhichOneof("type") == "add_block":
        block = msg.delta.add_block
        if block.WhichOneof("type") == "expandable":
            words = block.expandable.label
    return f"{path:14} {kind:40} {words[:60]!r}"


class Recording(Session):
    """A session that keeps every forward message's kind and size."""

    def __init__(self, target: Target) -> None:
        super().__init__(target)
        self.seen: list[tuple[str, int]] = []
        self.tree: list[str] = []  # each message: its delta path, kind and a few words

    async def open(self):
        """Session.open, with the socket's received frames recorded as they are read."""
        connect = load.websockets.connect

        async def recording_connect(*args, **kwargs):
            socket = await connect(*args, **kwargs)
            recv = socket.recv

            async def recording_recv(*a, **k):
                data = await recv(*a, **k)
                msg = ForwardMsg()
                msg.ParseFromString(data)
                self.seen.append((kind_of(msg), len(data)))
                self.tree.append(describe(msg))
                return data

            socket.recv = recording_recv
            return socket

        load.websockets.connect = recording_connect
        try:
            return await super().open()
        finally:
            load.websockets.connect = connect


async def first_run(url: str, page: str) -> Recording:
    session = Recording(Target(page, url, page, editor_key="\0"))
    await session.open()
    await session.close()
    return session


def report(page: str, seen: list[tuple[str, int]], top: int) -> None:
    counts, sizes = Counter(), Counter()
    for kind, size in seen:
        counts[kind] += 1
        sizes[kind] += size
    print(f"\n{page}: {len(seen)} messages, {sum(sizes.values())} bytes")
    for kind, count in counts.most_common(top):
        print(f"  {count:4d}  {sizes[kind]:8d} B  {kind}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default=",".join(PAGES))
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--url", default=None, help="a server already running")
    parser.add_argument("--tree", action="store_true", help="also every message, in order")
    args = parser.parse_args()
    process = None
    url = args.url
    if url is None:
        process, url = start_app(cwd=REPO, extra_args=("--server.runOnSave", "false"))
    try:
        for page in [p.strip() for p in args.pages.split(",") if p.strip()]:
            session = asyncio.run(first_run(url, page))
            report(page, session.seen, args.top)
            if args.tree:
                print("\n".join(f"    {line}" for line in session.tree))
    finally:
        if process is not None:
            stop_app(process)
    return 0


if __name__ == "__main__":
    sys.exit(main())
