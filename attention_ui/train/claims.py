"""Sentences about runs, each with the numbers that make it true: computed from the runs and
shown only when they hold (the page words them, train.claims.* in the catalogs).

Held-out accuracy is measured at snapshots only (every `record_every` steps), so "first at or
past LEARNED" names a snapshot's step: the run got there at that step or in the steps before."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from attention_core import TrainingRun
from attention_core.formatting import fmt
from attention_ui.kit.text.i18n import t
from attention_ui.train.compute import first_step_reaching

LEARNED = 0.9  # held-out accuracy that counts as "learned the task"
NEAR_CHANCE = 1.5  # "stays near chance": below this many times the chance accuracy
# "collapsed": the final held-out accuracy is at least this far below the run's peak (induction
# at η = 0.05, seed 0: 90.8 % at step 96, 8.3 % at the end); a run that keeps what it learned
# ends within a few points of its peak.
COLLAPSE = 0.25


@dataclass(frozen=True)
class Claim:
    key: str  # train.claims.<key>
    numbers: Mapping[str, object]


def run_claims(run: TrainingRun, chance: float) -> list[Claim]:
    """The whole run in two sentences: how far it got (the first snapshot at or past
    LEARNED, or its best, or that it stayed near chance), then how it ended (at its peak, a
    little below it, or collapsed far below it), with the weight on the right position."""
    accuracy = np.asarray(run.accuracy, dtype=float)
    peak_at = int(np.argmax(accuracy))  # the first snapshot at the peak
    numbers = {
        "peak": float(accuracy[peak_at]),
        "peak_step": int(run.snapshot_steps[peak_at]),
        "final": float(accuracy[-1]),
        "chance": chance,
        "threshold": LEARNED,
        "every": int(run.record_every),
        "start": float(run.on_target[0]),
        "end": float(run.on_target[-1]),
    }
    step = first_step_reaching(run, LEARNED)
    if step is not None:
        reached = Claim("learned", {**numbers, "step": step})
    elif numbers["peak"] < NEAR_CHANCE * chance:
        return [Claim("near_chance", numbers)]  # nothing rose: no peak, no fall to tell
    else:
        reached = Claim("not_yet", numbers)
    if numbers["peak"] - numbers["final"] >= COLLAPSE:
        return [reached, Claim("collapsed", numbers)]
    if numbers["final"] < numbers["peak"]:
        return [reached, Claim("ended", numbers)]
    return [reached, Claim("ended_at_peak", numbers)]


def location_claims(compared: Mapping[str, TrainingRun], chance: float) -> list[Claim]:
    """What the comparison shows about location scores, which read the query alone:
    - `location_blind`: location stays near chance while another score function learns the
      task (the right position depends on the keys: key lookup); every other score
      function's final accuracy is named, and which was first at or past LEARNED;
    - `location_positions`: location learns the task too (the right position depends only on
      where the output stands: reversal, the previous token)."""
    location = compared.get("location")
    others = {name: run for name, run in compared.items() if name != "location"}
    if location is None or not others:
        return []
    final = float(location.accuracy[-1])
    numbers = {"location": final, "chance": chance, "on_target": float(location.on_target[-1])}
    firsts = {name: first_step_reaching(run, LEARNED) for name, run in others.items()}
    reached = {name: step for name, step in firsts.items() if step is not None}
    learners = {name: run for name, run in others.items() if run.accuracy[-1] >= LEARNED}
    if final < NEAR_CHANCE * chance and learners and reached:
        earliest = min(reached.values())
        return [
            Claim(
                "location_blind",
                {
                    **numbers,
                    "finals": {name: float(run.accuracy[-1]) for name, run in others.items()},
                    "first_names": [name for name, step in reached.items() if step == earliest],
                    "step": earliest,
                    "threshold": LEARNED,
                },
            )
        ]
    if final >= LEARNED:
        return [Claim("location_positions", numbers)]
    return []


# ---------------------------------------------------------------------------------------------
# Worded


def sentence(claim: Claim, lang: str | None = None) -> str:
    """The claim in the page's language (or `lang`): shares of accuracy as percentages,
    weights as they are, steps as whole numbers, score functions by name."""
    numbers = {name: _worded(name, value, lang) for name, value in claim.numbers.items()}
    return t(f"train.claims.{claim.key}", lang, **numbers)


def _score(name: str, lang: str | None) -> str:
    return t(f"engine.value.score.{name}", lang)


def _worded(name: str, value, lang: str | None) -> str:
    if name == "finals":  # each score function's final accuracy: "dot 100 %, general 98 %"
        return t("train.claims.list_sep", lang).join(
            t("train.claims.final_of", lang, name=_score(score, lang), final=fmt(100 * a))
            for score, a in value.items()
        )
    if name.endswith("_names"):
        return t("predict.and", lang).join(_score(score, lang) for score in value)
    if name in ("step", "peak_step", "every"):
        return fmt(int(value))
    if name in ("start", "end", "on_target"):
        return fmt(value)
    return fmt(100 * value)
