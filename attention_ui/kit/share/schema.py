"""A page's address schema: from its declared settings (`from_settings`: each setting's own
field), or, for a page not yet declaring them, from its DEFAULTS dict (`from_defaults`: one
field per widget key, its kind from the default's type)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from attention_ui.kit.share.codec import (
    MAX_INT,
    Field,
    Flag,
    Integer,
    Matrix,
    Number,
    NumberSet,
    PageSchema,
    Text,
)

if TYPE_CHECKING:
    from attention_ui.kit.state.settings import Setting


def from_settings(page: str, parts: tuple[Setting | Field, ...], **hooks: Any) -> PageSchema:
    """A schema from a page's settings and its other fields (grids, tables, plain keys), in
    the order the address writes them. A crafted widget value goes back to its setting's
    default, except where the page checks it itself (`checked_by_page`). `hooks` are
    PageSchema's `prepare`, `baseline` and `shapes`."""
    settings = [p for p in parts if not isinstance(p, Field)]
    return PageSchema(
        page,
        tuple(p if isinstance(p, Field) else p.field for p in parts),
        defaults={s.key: s.default for s in settings if not s.checked_by_page},
        **hooks,
    )


def from_defaults(
    page: str,
    defaults: Mapping[str, Any],
    fields: tuple[Field, ...] = (),
    matrices: Mapping[str, Field] | None = None,
    checked_by_page: tuple[str, ...] = (),
    prepare: Callable[[Mapping[str, Any]], None] | None = None,
    baseline: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
    shapes: Callable[[Mapping[str, Any]], Mapping[str, tuple[int, ...]]] | None = None,
) -> PageSchema:
    """A schema from a page's DEFAULTS: one field per key, its kind from the default's type
    (bool, int, float, str, a list of numbers, a 2-D array), its parameter name the key without
    the page's prefix. `fields` replace the inferred field of the same key; `prepare` and
    `baseline` are PageSchema's (e.g. grids seeded from the state's seed), and so is `shapes`."""
    given = {f.key: f for f in fields}
    inferred = []
    for key, default in defaults.items():
        if key in given:
            inferred.append(given[key])
            continue
        param = key.removeprefix(f"{page}.").replace(".", "_")
        if isinstance(default, bool):
            inferred.append(Flag(param, key))
        elif isinstance(default, int):
            inferred.append(Integer(param, key, -MAX_INT - 1, MAX_INT))
        elif isinstance(default, float):
            inferred.append(Number(param, key))
        elif isinstance(default, str):
            inferred.append(Text(param, key))
        elif isinstance(default, np.ndarray) and default.ndim == 2:
            inferred.append(Matrix(param, key, max_rows=16, max_cols=16, store="widget"))
        elif isinstance(default, list | tuple) and all(isinstance(v, int | float) for v in default):
            inferred.append(NumberSet(param, key, options=tuple(default)))
    # share.check_widgets resets a crafted value to its default, except where the page checks
    # the value itself and says what is wrong (checked_by_page)
    checked = {key: value for key, value in defaults.items() if key not in checked_by_page}
    return PageSchema(
        page,
        (*inferred, *(matrices or {}).values()),
        prepare=prepare,
        defaults=checked,
        baseline=baseline,
        shapes=shapes,
    )
