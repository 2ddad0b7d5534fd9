"""A page's address schema, from its declared settings (each setting's own field) and its other
fields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attention_ui.kit.share.codec import (
    Field,
    PageSchema,
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
