"""File names for what the export panel and the charts hand out: settings only, never user text."""

from __future__ import annotations

import re

_FILE_NAME_JUNK = re.compile(r"[^A-Za-z0-9_-]+")


def file_name(*parts: object, suffix: str = "") -> str:
    """'attention-explorer_luong_dot_column' + suffix: words joined by '_', anything but ASCII
    letters, digits, '-' and '_' dropped (file names may carry settings, never user text)."""
    words = [_FILE_NAME_JUNK.sub("-", str(part)).strip("-") for part in parts]
    return "_".join(["attention-explorer", *(word for word in words if word)]) + suffix
