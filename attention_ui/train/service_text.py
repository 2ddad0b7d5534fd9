"""The training service's sentences (train/runs.py speaks in codes and numbers): a run's
place in line, and why a run is refused or ended without a result."""

from __future__ import annotations

from attention_ui.kit.text.i18n import t
from attention_ui.train.runs import NoRunError


def ordinal(n: int, lang: str | None = None) -> str:
    """'1st', '2nd', '3rd', '11th' in English; 「3番目」 in Japanese (the catalog's forms)."""
    form = "other" if n % 100 in (11, 12, 13) else {1: "one", 2: "two", 3: "few"}.get(n % 10)
    return t(f"train_service.ordinal.{form or 'other'}", lang, n=n)


def place(n: int, lang: str | None = None) -> str:
    return t("train_service.place", lang, place=ordinal(n, lang))


def unavailable(error: NoRunError, lang: str | None = None) -> str:
    return t(f"train_service.unavailable.{error.code}", lang, **error.numbers)
