"""The training page's settings, each declared once (kit/state/settings.py): its key, default,
choices or range and the catalog key of its label. Everything else is derived from this one
list: the widgets (`view.settings`), the address fields (`schema.py`), the run's settings
(`Settings`).

Streamlit keeps every widget's value itself (`persist_state="session"`): no kept copies, no
restore step. The address writes a value into `st.session_state[key]` before the widget is
drawn (kit/share/address.apply_state), which the widget then shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from attention_core.toy_tasks import TASKS
from attention_core.training import MAX_TRAINING_STEPS, TRAINING_SCORES
from attention_ui.kit.state import settings

PREFIX = "train."
# Each setting of a run once: key, address parameter (also the name in `Settings`), default,
# choices or range, label. The steps box's upper bound is said by the page, not clamped.
TASK = settings.choice(
    "train.task",
    "task",
    "lookup",
    TASKS,
    label="train.settings.task",
    help="train.settings.task_help",
    options_label="train.settings.task_options.",
)
SCORE = settings.choice(
    "train.score",
    "score",
    "scaled_dot",
    TRAINING_SCORES,
    label="train.settings.score",
    help="train.settings.score_help",
    options_label="engine.value.score.",
)
HEADS = settings.choice(
    "train.heads",
    "heads",
    1,
    (1, 2, 4),
    label="train.settings.heads",
    help="train.settings.heads_help",
)
D_MODEL = settings.choice(
    "train.d_model",
    "d_model",
    16,
    (4, 8, 16, 32),
    label="train.settings.d_model",
    help="train.settings.d_model_help",
)
LEARNING_RATE = settings.choice(
    "train.learning_rate",
    "learning_rate",
    0.005,
    (0.001, 0.002, 0.005, 0.01, 0.02, 0.05),
    label="train.settings.learning_rate",
    help="train.settings.learning_rate_help",
)
STEPS = settings.integer(
    "train.steps",
    "steps",
    600,
    10,
    MAX_TRAINING_STEPS,
    label="train.settings.steps",
    help="train.settings.steps_help",
    checked_by_page=True,
)
SEED = settings.integer(
    "train.seed", "seed", 0, label="train.settings.seed", help="train.settings.seed_help"
)
SETTINGS = (TASK, SCORE, HEADS, D_MODEL, LEARNING_RATE, STEPS, SEED)

# Not settings of the run: what the learner looks at once it has trained.
TRAINED = "train.trained"  # the run's settings were trained (the Train button): a kept value
STEP = "train.step"  # the step slider: which snapshot is drawn
TRAIN_BUTTON = "train.train"
COMPARE_BUTTON = "train.compare"
COMPARED = "train.compared"  # every score function was trained with these settings
PROBE = "train.probe"  # the input the learner types, run through the trained model
HEAD = "train.input.head"  # the head shown step by step (1 … heads), and sent to Luong
PLAYER = "train.player"  # the attention player (train/player.py): its step and clicked cells
LIVE_PLAYER = "train.player.live"  # the player while a run trains (no slider)
PICKS = "train.predict.picks"  # the cells clicked before training: {settings: column per row}


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
    return Settings(**{s.field.param: values.get(s.key, s.default) for s in SETTINGS})


def current() -> Settings:
    """The settings the widgets hold now."""
    return settings_of({s.key: s.value() for s in SETTINGS})
