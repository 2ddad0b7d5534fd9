"""The server's long-lived objects set apart from Python's garbage collector, once per page.

After a page's first whole run in a process, everything that exists then (Streamlit, plotly,
NumPy, the app's modules, catalogs and templates, the page's own module) lives as long as the
process. Python's full collection would still walk all of it every time it ran, holding the
server while it does, and more often the more sessions edit. `gc.freeze()` moves those objects
to the collector's permanent generation, which it never walks; the sessions' own objects are
collected as before. (bench/load.py's `--modes gc` compares the two; its figures are in the
commit that froze the heap.)

A frozen object is still freed when its last reference goes; only a reference cycle that was
already garbage at the moment of freezing stays (once per page and process, at most one
page's run's worth), so the sessions' memory stays flat (bench/load.py's soak).
"""

from __future__ import annotations

import gc

_FROZEN: set[str] = set()


def freeze_after_first_run(page: str) -> bool:
    """At the end of a page's whole run: the first time in this process for `page`, freeze
    what exists (True); later runs do nothing (False)."""
    if page in _FROZEN:
        return False
    _FROZEN.add(page)
    gc.freeze()
    return True
