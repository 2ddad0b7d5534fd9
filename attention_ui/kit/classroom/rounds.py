"""A class question, its votes and what its two rounds say: pure functions of plain values.

A question is a page's predict-then-reveal puzzle: one part per query, each with the options a
student may choose and the winners the engine computed from the teacher's numbers (several on
a tie; none when nothing wins, where "no winner", NO_WINNER, is the right answer). A vote gives
one option per part. Everything read back from the store goes through `question_from` and
`answer_from`, which accept only what `to_json` could have written.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

NO_WINNER = -1  # as attention_ui.kit.teaching.predict: the option "no key/record wins"
MAX_PARTS, MAX_OPTIONS = 16, 64
# The page, and for a page with several puzzles the puzzle's own name after a dot (the training
# page's "train.compare"); the page alone names its first puzzle.
_PAGE = re.compile(r"[a-z]{1,20}(\.[a-z]{1,20})?")
_PUZZLE = re.compile(r"[0-9a-f]{12}")


@dataclass(frozen=True)
class Question:
    page: str  # the page whose puzzle it is ("train"), or page.puzzle ("train.compare")
    puzzle: str  # the puzzle's id (kit.teaching.predict.puzzle_id of the teacher's numbers)
    options: tuple[tuple[int, ...], ...]  # per part
    winners: tuple[tuple[int, ...], ...]  # per part, computed by the engine

    def to_json(self) -> str:
        return json.dumps(
            {
                "page": self.page,
                "puzzle": self.puzzle,
                "options": [list(o) for o in self.options],
                "winners": [list(w) for w in self.winners],
            }
        )

    def on_page(self, page: str) -> bool:
        """The question is about one of `page`'s puzzles."""
        return self.page.partition(".")[0] == page

    def accepts(self, answer: Sequence[int]) -> bool:
        """An answer gives one of the options for every part."""
        return len(answer) == len(self.options) and all(
            isinstance(a, int) and a in options
            for a, options in zip(answer, self.options, strict=True)
        )

    def right(self, part: int, choice: int) -> bool:
        winners = self.winners[part]
        return choice in winners if winners else choice == NO_WINNER


def _int_list(value: object, limit: int) -> tuple[int, ...] | None:
    if not isinstance(value, list) or len(value) > limit:
        return None
    if not all(type(v) is int and NO_WINNER <= v < MAX_OPTIONS for v in value):
        return None
    return tuple(value)


def question_from(text: object) -> Question | None:
    """The question stored as `text`, or None if it is not one `Question.to_json` writes."""
    try:
        data = json.loads(text) if isinstance(text, str) and len(text) < 20_000 else None
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    page, puzzle = data.get("page"), data.get("puzzle")
    options, winners = data.get("options"), data.get("winners")
    if not (isinstance(page, str) and _PAGE.fullmatch(page)):
        return None
    if not (isinstance(puzzle, str) and _PUZZLE.fullmatch(puzzle)):
        return None
    if not isinstance(options, list) or not isinstance(winners, list):
        return None
    if not 0 < len(options) <= MAX_PARTS or len(winners) != len(options):
        return None
    parts = [_int_list(o, MAX_OPTIONS + 1) for o in options]
    wins = [_int_list(w, MAX_OPTIONS + 1) for w in winners]
    if any(p is None or not p for p in parts) or any(w is None for w in wins):
        return None
    if not all(set(w) <= set(p) for p, w in zip(parts, wins, strict=True)):
        return None
    return Question(page, puzzle, tuple(parts), tuple(wins))


def answer_json(answer: Sequence[int]) -> str:
    return json.dumps([int(a) for a in answer])


def answer_from(text: object, question: Question) -> tuple[int, ...] | None:
    """A stored answer, or None if it is not an answer to `question`."""
    try:
        value = json.loads(text) if isinstance(text, str) and len(text) < 2_000 else None
    except ValueError:
        return None
    answer = _int_list(value, MAX_PARTS)
    return answer if answer is not None and question.accepts(answer) else None


@dataclass(frozen=True)
class RoundTally:
    """One round: how many answered, how many chose each option of each part, and (shown
    only after the reveal) how many got each part right and how many got every part right."""

    answered: int
    counts: tuple[dict[int, int], ...]  # per part: option → students
    right: tuple[int, ...]  # per part
    all_right: int

    def share(self, count: int) -> float:
        return count / self.answered if self.answered else 0.0


def tally(question: Question, answers: Mapping[str, Sequence[int]]) -> RoundTally:
    """The round's figures from its answers (seat → answer)."""
    counts = tuple({option: 0 for option in options} for options in question.options)
    right = [0] * len(question.options)
    all_right = 0
    for answer in answers.values():
        ok = True
        for part, choice in enumerate(answer):
            counts[part][choice] += 1
            if question.right(part, choice):
                right[part] += 1
            else:
                ok = False
        all_right += ok
    return RoundTally(len(answers), counts, tuple(right), all_right)


def changed(first: Mapping[str, Sequence[int]], second: Mapping[str, Sequence[int]]) -> int:
    """How many students who answered both rounds changed their answer."""
    return sum(
        tuple(first[seat]) != tuple(answer) for seat, answer in second.items() if seat in first
    )
