"""The training page's settings, each declared ONCE: its key, default, choices or range and the
catalog key of its label. Everything else is derived from this one list: the widgets
(`view.settings`), the address fields (`schema.py`), the run's settings (`Settings`).

Streamlit keeps every widget's value itself (`persist_state="session"`): no kept copies, no
restore step. The address writes a value into `st.session_state[key]` before the widget is
drawn (kit/share/address.apply_state), which the widget then shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st

from attention_core.toy_tasks import TASKS
from attention_core.training import MAX_TRAINING_STEPS, TRAINING_SCORES
from attention_ui.kit.share.codec import MAX_INT, Choice, Field, Integer

PREFIX = "train."


@dataclass(frozen=True)
class Setting:
    """One setting of a run: a choice among `options`, or a whole number in [low, high]."""

    key: str
    default: Any
    options: tuple = ()
    low: int = 0
    high: int = MAX_INT
    words: str = ""  # catalog prefix of the options' words (default train.settings.<name>_options.)

    @property
    def option_words(self) -> str:
        return self.words or f"{self.label}_options."

    @property
    def name(self) -> str:  # the address parameter and the catalog key's last part
        return self.key.removeprefix(PREFIX)

    @property
    def label(self) -> str:
        return f"train.settings.{self.name}"

    @property
    def field(self) -> Field:
        if self.options:
            return Choice(self.name, self.key, options=self.options)
        return Integer(self.name, self.key, self.low, self.high)


SETTINGS: tuple[Setting, ...] = (
    Setting("train.task", "lookup", options=TASKS),
    Setting("train.score", "scaled_dot", options=TRAINING_SCORES, words="engine.value.score."),
    Setting("train.heads", 1, options=(1, 2, 4)),
    Setting("train.d_model", 16, options=(4, 8, 16, 32)),
    Setting("train.learning_rate", 0.005, options=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05)),
    Setting("train.steps", 600, low=10, high=MAX_TRAINING_STEPS),
    Setting("train.seed", 0, low=0, high=MAX_INT),
)
BY_NAME = {s.name: s for s in SETTINGS}
DEFAULTS: dict[str, Any] = {s.key: s.default for s in SETTINGS}

# Not settings of the run: what the learner looks at once it has trained.
TRAINED = "train.trained"  # the run's settings were trained (the Train button): a kept value
STEP = "train.step"  # the step slider: which snapshot is drawn
TRAIN_BUTTON = "train.train"
COMPARE_BUTTON = "train.compare"
COMPARED = "train.compared"  # every score function was trained with these settings
PROBE = "train.probe"  # the input the learner types, run through the trained model
HEAD = "train.input.head"  # the head shown step by step (1 … heads), and sent to Luong


@dataclass(frozen=True)
class Settings:
    """A run's settings: the key of the shared cache of runs (train/runs.py)."""

    task: str
    score: str
    heads: int
    d_model: int
    learning_rate: float
    steps: int
    seed: int

    def with_score(self, score: str) -> Settings:
        return Settings(**{**self.__dict__, "score": score})


def settings_of(values: Mapping[str, Any]) -> Settings:
    """The settings in `values` (by widget key; what is missing at its default)."""
    return Settings(**{s.name: values.get(s.key, s.default) for s in SETTINGS})


def current() -> Settings:
    """The settings the widgets hold now."""
    return settings_of({s.key: st.session_state.get(s.key, s.default) for s in SETTINGS})


def start_values() -> None:
    """Before the widgets are drawn on a first visit: each setting at its default (a value the
    address gave, or one Streamlit kept for the session, stays)."""
    for s in SETTINGS:
        st.session_state.setdefault(s.key, s.default)
