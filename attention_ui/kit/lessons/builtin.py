"""The app's own lessons: JSON files beside this module (`builtin/<id>.json`), read by the same
checks as a teacher's file (`format.read_lesson`), so a built-in lesson is trusted no more than
an uploaded one and a test can hold each to having nothing left out."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from attention_ui.kit.lessons.format import Opened, read_lesson
from attention_ui.kit.share.codec import PageSchema

IDS = ("lookup", "luong", "learn")  # in the order home offers them
FOLDER = Path(__file__).resolve().parent / "builtin"
# Each file read once per process and set of pages: a lesson read against other schemas (a
# test's, or none) is another reading, never the app's.
_READ: dict[tuple[str, tuple[str, ...]], Opened] = {}


def builtin(lesson_id: str, schemas: Mapping[str, PageSchema]) -> Opened | None:
    """The built-in lesson `lesson_id` as read, or None when there is no such lesson."""
    if lesson_id not in IDS:
        return None
    key = (lesson_id, tuple(sorted(schemas)))
    if key not in _READ:
        _READ[key] = read_lesson((FOLDER / f"{lesson_id}.json").read_bytes(), schemas)
    return _READ[key]
