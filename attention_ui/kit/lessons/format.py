"""The lesson file: read like an address (bounded, validated, never evaluated), written as JSON.

Pure (no Streamlit). `read_lesson` takes the file's bytes (or a parsed document) and the pages'
address schemas, and returns what it could open and what it left out, as codes the bar words:

- the document: at most FILE_LIMIT bytes and MAX_DEPTH levels of nesting, `format` is FORMAT and
  `version` is VERSION (a newer one opens nothing: its fields may mean something else);
- at most MAX_STEPS steps; a step whose page is not in the app, or whose state is not a table,
  is left out; each entry of its state is read by that page's own schema
  (`kit.share.codec.decode`), so a step is trusted no more than an address, and what the
  schema refuses is left out and named;
- a text is {"en": …, "ja": …} (one language is enough: the other shows it), at most its
  limit long, without control characters; a prompt or title that is not one is left out;
- a question is {"kind": "choice", "text", "options": 2 to MAX_OPTIONS, each with its text, its
  feedback and whether it is right, at least one right} or {"kind": "page"} (the page's own
  predict question); anything else leaves the question out, not the step.

A lesson travels in the address as `~` + `codec.pack` of its document when that is at most
ADDRESS_LIMIT characters; a built-in one by its id.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from attention_ui.kit.share.codec import (
    MAX_PARAMS,
    PageSchema,
    UnreadableError,
    decode,
    encode,
    guard,
    pack,
    readable,
    shown_name,
    unpack,
)

FORMAT = "attention-explorer-lesson"
VERSION = 1
LANGUAGES = ("en", "ja")
FILE_LIMIT = 200_000  # bytes, as a page's state file (kit/share/address.FILE_LIMIT)
MAX_DEPTH = 8  # document › steps › step › question › options › option › text: 7
MAX_STEPS = 30
MAX_OPTIONS = 6
LIMITS = {"title": 120, "prompt": 800, "question": 400, "option": 200, "feedback": 800}
ADDRESS_LIMIT = 6_000  # characters of `~<packed>`: a longer lesson travels as a file only
PACKED_MARK = "~"

# Why a part was left out (worded by the bar, lessons.why.<code> in the catalogs).
UNKNOWN_PAGE = "unknown_page"
NOT_A_TABLE = "not_a_table"
BAD_TEXT = "bad_text"
TOO_LONG = "too_long"
BAD_QUESTION = "bad_question"
SETTING = "setting"  # a state entry the page's schema did not take
TOO_MANY_STEPS = "too_many_steps"
# Why nothing opened.
NOT_A_LESSON = "not_a_lesson"
NEWER_VERSION = "newer_version"
TOO_BIG = "too_big"
TOO_DEEP = "too_deep"
NO_STEPS = "no_steps"


@dataclass(frozen=True)
class Text:
    """A text in one or both languages; `get(lang)` falls back to the one given."""

    by_lang: tuple[tuple[str, str], ...]

    def get(self, lang: str) -> str:
        texts = dict(self.by_lang)
        return texts.get(lang) or next(iter(texts.values()), "")

    def document(self) -> dict[str, str]:
        return dict(self.by_lang)


@dataclass(frozen=True)
class Option:
    text: Text
    right: bool
    feedback: Text


@dataclass(frozen=True)
class Question:
    kind: str  # "choice" or "page"
    text: Text | None = None
    options: tuple[Option, ...] = ()


@dataclass(frozen=True)
class Step:
    page: str
    state: tuple[tuple[str, str], ...]  # the page's address parameters, as its schema took them
    prompt: Text | None = None
    question: Question | None = None

    @property
    def params(self) -> dict[str, str]:
        return dict(self.state)


@dataclass(frozen=True)
class Lesson:
    title: Text | None
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class LeftOut:
    """A part the reader left out: `step` (1-based, in the file; None: the lesson's own part),
    `part` (step, title, prompt, question, setting), `why` (a code above), `name` (a setting's
    parameter, a page's name: shown as text)."""

    step: int | None
    part: str
    why: str
    name: str = ""


@dataclass
class Opened:
    """What `read_lesson` opened (`lesson` None: nothing, `problem` says why) and left out."""

    lesson: Lesson | None = None
    problem: str | None = None
    left_out: list[LeftOut] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Reading


def read_lesson(data: bytes | str | Any, schemas: Mapping[str, PageSchema]) -> Opened:
    """The lesson in `data` (a file's bytes, its text, or a parsed JSON document): never an
    exception, whatever `data` holds."""
    if isinstance(data, bytes | str):
        if len(data) > FILE_LIMIT:
            return Opened(problem=TOO_BIG)
        try:
            text = data.decode("utf-8") if isinstance(data, bytes) else data
            data = json.loads(text, parse_constant=_no_constant)
        except RecursionError:
            return Opened(problem=TOO_DEEP)
        except (UnicodeDecodeError, ValueError):
            return Opened(problem=NOT_A_LESSON)
    if _depth(data) > MAX_DEPTH:
        return Opened(problem=TOO_DEEP)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return Opened(problem=NOT_A_LESSON)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return Opened(problem=NOT_A_LESSON)
    if version > VERSION:
        return Opened(problem=NEWER_VERSION)
    opened = Opened()
    title = _text(data.get("title"), "title")
    if data.get("title") is not None and not isinstance(title, Text):
        opened.left_out.append(LeftOut(None, "title", title))
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list):
        return Opened(problem=NO_STEPS)
    if len(raw_steps) > MAX_STEPS:
        opened.left_out.append(LeftOut(None, "step", TOO_MANY_STEPS, str(len(raw_steps))))
    steps = []
    for number, raw in enumerate(raw_steps[:MAX_STEPS], start=1):
        step = _step(number, raw, schemas, opened.left_out)
        if step is not None:
            steps.append(step)
    if not steps:
        return Opened(problem=NO_STEPS, left_out=opened.left_out)
    opened.lesson = Lesson(title if isinstance(title, Text) else None, tuple(steps))
    return opened


def _no_constant(name: str) -> None:
    raise ValueError(name)  # NaN and Infinity are not JSON


def _depth(data: Any) -> int:
    """How deeply `data` nests (a scalar: 0), walked without recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest


def _text(raw: Any, kind: str) -> Text | str:
    """A Text, or the code of why `raw` is not one (a plain string counts as both languages)."""
    if isinstance(raw, str):
        raw = {"en": raw}
    if not isinstance(raw, dict):
        return BAD_TEXT
    texts = []
    for lang in LANGUAGES:
        value = raw.get(lang)
        if value is None:
            continue
        if not readable(value):
            return BAD_TEXT
        if len(value) > LIMITS[kind]:
            return TOO_LONG
        value = shown_name(value.replace("\n", " "), limit=LIMITS[kind]).strip()
        if value:
            texts.append((lang, value))
    return Text(tuple(texts)) if texts else BAD_TEXT


def _step(
    number: int, raw: Any, schemas: Mapping[str, PageSchema], left_out: list[LeftOut]
) -> Step | None:
    """Step `number` of the file, or None (and why, in `left_out`)."""
    if not isinstance(raw, dict):
        left_out.append(LeftOut(number, "step", NOT_A_TABLE))
        return None
    page = raw.get("page")
    if not isinstance(page, str) or page not in schemas:
        left_out.append(LeftOut(number, "step", UNKNOWN_PAGE, _name(page)))
        return None
    state = raw.get("state", {})
    if not isinstance(state, dict):
        left_out.append(LeftOut(number, "step", NOT_A_TABLE))
        return None
    params = _state(number, state, schemas[page], left_out)
    prompt = None
    if raw.get("prompt") is not None:
        prompt = _text(raw.get("prompt"), "prompt")
        if not isinstance(prompt, Text):
            left_out.append(LeftOut(number, "prompt", prompt))
            prompt = None
    question = None
    if raw.get("question") is not None:
        question = _question(raw["question"])
        if not isinstance(question, Question):
            left_out.append(LeftOut(number, "question", question))
            question = None
    return Step(page, params, prompt, question)


def _state(
    number: int, state: dict, schema: PageSchema, left_out: list[LeftOut]
) -> tuple[tuple[str, str], ...]:
    """The entries of a step's state its page's schema reads, as the address would write them
    (a file's numbers are written as text, as a state file's are)."""
    texts = {k: _as_text(v) for k, v in list(state.items())[:MAX_PARAMS]}
    for name in list(state)[MAX_PARAMS:]:
        left_out.append(LeftOut(number, "setting", SETTING, _name(name)))
    texts, unreadable = guard(texts)
    decoded = decode(schema, texts)
    kept = encode(schema, decoded.values)
    refused = [item.param for item in (*unreadable, *decoded.ignored)]
    for name in refused:
        left_out.append(LeftOut(number, "setting", SETTING, _name(name)))
    # Only what the step gave (encode adds `v`, and a grid equal to the page's own example
    # is left out of an address, as the page would leave it out).
    return tuple((k, v) for k, v in kept.items() if k in texts)


def _as_text(value: Any) -> Any:
    """A number in a file's state as the address writes it (2, not 2.0); text as it is."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value) if not value.is_integer() else str(int(value))
    return value


def _question(raw: Any) -> Question | str:
    if not isinstance(raw, dict):
        return BAD_QUESTION
    if raw.get("kind") == "page":
        return Question("page")
    if raw.get("kind") != "choice":
        return BAD_QUESTION
    text = _text(raw.get("text"), "question")
    options = raw.get("options")
    if not isinstance(text, Text):
        return text
    if not isinstance(options, list) or not 2 <= len(options) <= MAX_OPTIONS:
        return BAD_QUESTION
    read = []
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("right"), bool):
            return BAD_QUESTION
        words = _text(option.get("text"), "option")
        feedback = _text(option.get("feedback"), "feedback")
        if not isinstance(words, Text):
            return words
        if not isinstance(feedback, Text):
            return feedback
        read.append(Option(words, option["right"], feedback))
    if not any(option.right for option in read):
        return BAD_QUESTION
    return Question("choice", text, tuple(read))


def _name(value: Any) -> str:
    """A name from the file as a sentence may show it: text, short."""
    text = value if isinstance(value, str) else ("" if value is None else repr(value))
    return shown_name(text)


# ---------------------------------------------------------------------------------------------
# Writing


def document(lesson: Lesson) -> dict[str, Any]:
    """The lesson as its JSON document (what `read_lesson` reads back the same)."""
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if lesson.title is not None:
        doc["title"] = lesson.title.document()
    doc["steps"] = [_step_document(step) for step in lesson.steps]
    return doc


def _step_document(step: Step) -> dict[str, Any]:
    doc: dict[str, Any] = {"page": step.page, "state": step.params}
    if step.prompt is not None:
        doc["prompt"] = step.prompt.document()
    question = step.question
    if question is not None and question.kind == "page":
        doc["question"] = {"kind": "page"}
    elif question is not None:
        doc["question"] = {
            "kind": "choice",
            "text": question.text.document() if question.text else {},
            "options": [
                {"text": o.text.document(), "right": o.right, "feedback": o.feedback.document()}
                for o in question.options
            ],
        }
    return doc


def lesson_json(lesson: Lesson) -> str:
    return json.dumps(document(lesson), ensure_ascii=False, indent=1)


def address_form(lesson: Lesson) -> str | None:
    """The lesson as the address's `lesson` parameter, or None when it is too long for one."""
    packed = PACKED_MARK + pack(document(lesson))
    return packed if len(packed) <= ADDRESS_LIMIT else None


def read_address_form(text: str, schemas: Mapping[str, PageSchema]) -> Opened:
    """The lesson an address's `~<packed>` parameter holds (never an exception)."""
    if not text.startswith(PACKED_MARK) or len(text) > ADDRESS_LIMIT:
        return Opened(problem=NOT_A_LESSON)
    try:
        data = unpack(text[len(PACKED_MARK) :])
    except UnreadableError:
        return Opened(problem=NOT_A_LESSON)
    return read_lesson(data, schemas)
