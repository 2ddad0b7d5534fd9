"""A page's state ⇄ the address's query string: versioned, validated field by field.

Pure (no Streamlit): a page declares its state as a `PageSchema`, a tuple of fields, each with
a short parameter name (`Wac`), the session key it belongs to (`luong.Wa_concat`), what a
valid value is, and how the value is kept (a widget, a matrix editor, a records table, a plain
session key).
`encode` turns values into `{parameter: text}`; `decode` reads what it can and reports, as codes,
what it ignored. Nothing is evaluated or unpickled: numbers go through a strict pattern and
`float`, text through UTF-8, tables through `json.loads` and a shape check.

Format, version 1 (`v=1`; `lang` belongs to the frame and is read there):
- choice, integer, number: the value as text (`score=dot`, `n=3`, `tau=0.5`);
- flag: `1` or `0`; text: the text itself (the address percent-encodes it);
- number set: numbers joined by `_` (`taus=0.25_1_4`);
- matrix: rows joined by `~`, cells by `_` (`Q=1_0~0_1`); an empty cell is a cleared cell;
  a tick grid writes each row as `1`/`0` characters (`mask=110~011`);
- records and text lists: JSON, deflated, base64url without padding (names in any script stay
  short: a kanji costs about 1.4 characters instead of 9 percent-encoded ones).
The characters used are the ones `urllib.parse.quote_plus` leaves alone, so the address stays as
short as the state.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import unicodedata
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

VERSION = 1
VERSION_PARAM = "v"
LANGUAGE_PARAM = "lang"  # read by attention_ui.frame, not here
# The largest whole number a field (a seed, a size) holds: a 32-bit signed integer, which
# every seed's generator and Streamlit's number inputs take.
MAX_INT = 2**31 - 1
MAX_PARAMS = 60  # more than any page has; a longer address is cut to its first parameters
MAX_VALUE_LENGTH = 60_000  # per parameter, before decoding (50 records of 2 × 100 emoji: 55 k)
MAX_JSON_BYTES = 64_000  # a records table, inflated
_NUMBER = re.compile(r"-?(\d+\.?\d*|\.\d+)([eE][-+]?\d{1,3})?")

# What `decode` reports about a parameter it did not use.
UNKNOWN = "unknown"  # not a parameter of this page
UNREADABLE = "unreadable"  # not in the field's format
OUT_OF_RANGE = "out_of_range"  # a number or choice the page does not offer
TOO_LONG = "too_long"  # longer than the page allows (cut or left out)
NEWER_VERSION = "newer_version"  # written by a later version: nothing but the language is read
TOO_MANY = "too_many"  # parameters beyond MAX_PARAMS
WRONG_SHAPE = "wrong_shape"  # a grid whose size is not the one the state's other values give


class UnreadableError(ValueError):
    """A parameter's text that does not hold a valid value (`code` says how)."""

    def __init__(self, code: str = UNREADABLE) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Ignored:
    """A parameter that `decode` did not use, and why (one of the codes above)."""

    param: str
    code: str


@dataclass(frozen=True)
class Field:
    """One piece of a page's state. `store` says how the page keeps it: "widget" (a widget key,
    kept by Streamlit), "matrix" (a matrix editor), "records" (a records table), "plain" (a
    plain session key)."""

    param: str
    key: str
    store: str = field(default="widget", kw_only=True)
    # (key, value): only in the address while another field has that value (e.g. the gallery's
    # borrowed Q only while its grid shows the Luong page's weights)
    only_if: tuple[str, Any] | None = field(default=None, kw_only=True)
    # store "custom": how the page reads the value and stores one (None: back to its default)
    read: Callable[[], Any] | None = field(default=None, kw_only=True, compare=False)
    write: Callable[[Any], None] | None = field(default=None, kw_only=True, compare=False)

    def encode(self, value: Any) -> str | None:  # None: leave the parameter out
        raise NotImplementedError

    def decode(self, text: str) -> Any:
        raise NotImplementedError

    def accepts(self, value: Any) -> bool:
        """Whether `value` (as a widget holds it) is one this field can hold."""
        try:
            text = self.encode(value)
            return text is not None and _same(self.decode(text), value)
        except (UnreadableError, TypeError, ValueError, OverflowError):
            return False


@dataclass(frozen=True)
class Choice(Field):
    """One of a fixed list of options (strings or numbers), written as the option's text."""

    options: tuple = ()

    def encode(self, value: Any) -> str | None:
        return _number_text(value) if isinstance(value, int | float) else str(value)

    def decode(self, text: str) -> Any:
        for option in self.options:
            if text == self.encode(option):
                return option
        raise UnreadableError(OUT_OF_RANGE)

    def accepts(self, value: Any) -> bool:
        return any(type(value) is type(option) and value == option for option in self.options) or (
            isinstance(value, int)
            and not isinstance(value, bool)
            and float(value) in [o for o in self.options if isinstance(o, float)]
        )


@dataclass(frozen=True)
class Integer(Field):
    low: int = 0
    high: int = MAX_INT

    def encode(self, value: Any) -> str | None:
        return str(int(value))

    def accepts(self, value: Any) -> bool:
        # A whole float too (600.0): a number box (kit.state.number_box) is a decimal box.
        whole = isinstance(value, float) and value.is_integer()
        return (
            (isinstance(value, int | np.integer) or whole)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def decode(self, text: str) -> int:
        if not re.fullmatch(r"-?\d{1,12}", text):
            raise UnreadableError()
        return _within(int(text), self.low, self.high)


@dataclass(frozen=True)
class Number(Field):
    low: float = -1e6
    high: float = 1e6

    def encode(self, value: Any) -> str | None:
        return _number_text(value)

    def accepts(self, value: Any) -> bool:
        return (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(value)
            and self.low <= value <= self.high
        )

    def decode(self, text: str) -> float:
        return _within(_parse_number(text), self.low, self.high)


@dataclass(frozen=True)
class Flag(Field):
    def encode(self, value: Any) -> str | None:
        return "1" if value else "0"

    def accepts(self, value: Any) -> bool:
        return isinstance(value, bool)

    def decode(self, text: str) -> bool:
        if text not in ("0", "1"):
            raise UnreadableError()
        return text == "1"


@dataclass(frozen=True)
class Text(Field):
    max_length: int = 400

    def encode(self, value: Any) -> str | None:
        return None if value is None else str(value)

    def accepts(self, value: Any) -> bool:
        return readable(value) and len(value) <= self.max_length

    def decode(self, text: str) -> str:
        if len(text) > self.max_length:
            raise UnreadableError(TOO_LONG)
        return _printable(text)


@dataclass(frozen=True)
class NumberSet(Field):
    """Several of a fixed list of numbers (a multiselect), joined by `_`."""

    options: tuple = ()

    def encode(self, value: Any) -> str | None:
        return "_".join(_number_text(v) for v in value)

    def decode(self, text: str) -> list:
        if text == "":
            return []
        chosen = []
        for part in text.split("_")[: len(self.options) + 1]:
            matches = [option for option in self.options if _number_text(option) == part]
            if not matches:
                raise UnreadableError(OUT_OF_RANGE)
            if matches[0] not in chosen:
                chosen.append(matches[0])
        return chosen


@dataclass(frozen=True)
class Matrix(Field):
    """A matrix of at most max_rows × max_cols numbers (NaN: a cleared cell), or of ticks,
    with at least min_cols columns (a table whose columns mean something, such as x and y)."""

    max_rows: int = 8
    max_cols: int = 8
    min_cols: int = 1
    ticks: bool = False
    store: str = field(default="matrix", kw_only=True)

    def encode(self, value: Any) -> str | None:
        if value is None:
            return None
        values = np.asarray(value, dtype=float)
        if self.ticks:
            return "~".join("".join("1" if v > 0.5 else "0" for v in row) for row in values)
        return "~".join(
            "_".join("" if math.isnan(v) else _number_text(v) for v in row) for row in values
        )

    def decode(self, text: str) -> np.ndarray:
        rows = text.split("~")
        if len(rows) > self.max_rows:
            raise UnreadableError(TOO_LONG)
        if self.ticks:
            cells = [list(row) for row in rows]
            if any(cell not in "01" for row in cells for cell in row):
                raise UnreadableError()
            values = [[float(cell) for cell in row] for row in cells]
        else:
            values = [
                [math.nan if cell == "" else _parse_number(cell) for cell in row.split("_")]
                for row in rows
            ]
        widths = {len(row) for row in values}
        if len(widths) != 1 or 0 in widths:
            raise UnreadableError()
        width = widths.pop()
        if width > self.max_cols:
            raise UnreadableError(TOO_LONG)
        if width < self.min_cols:
            raise UnreadableError()
        return np.array(values, dtype=float)


@dataclass(frozen=True)
class Records(Field):
    """Rows of (key, value, number or None): a records table, as packed JSON."""

    max_rows: int = 50
    max_text: int = 100
    number_limit: float = 1e6
    store: str = field(default="records", kw_only=True)

    def encode(self, value: Any) -> str | None:
        if value is None:
            return None
        return pack([[str(k), str(v), None if n is None else float(n)] for k, v, n in value])

    def decode(self, text: str) -> list[tuple[str, str, float | None]]:
        rows = unpack(text)
        if not isinstance(rows, list) or len(rows) > self.max_rows:
            raise UnreadableError(TOO_LONG if isinstance(rows, list) else UNREADABLE)
        records = []
        for row in rows:
            if not (
                isinstance(row, list)
                and len(row) == 3
                and isinstance(row[0], str)
                and isinstance(row[1], str)
            ):
                raise UnreadableError()
            key, value, number = row
            if len(key) > self.max_text or len(value) > self.max_text:
                raise UnreadableError(TOO_LONG)
            if number is not None and (
                isinstance(number, bool)
                or not isinstance(number, int | float)
                or not abs(number) <= self.number_limit
            ):
                raise UnreadableError(OUT_OF_RANGE)
            records.append(
                (_printable(key), _printable(value), None if number is None else float(number))
            )
        return records


@dataclass(frozen=True)
class TextList(Field):
    """A few short texts (e.g. queries), as packed JSON."""

    max_items: int = 10
    max_text: int = 100
    store: str = field(default="plain", kw_only=True)

    def encode(self, value: Any) -> str | None:
        return None if value is None else pack([str(text) for text in value])

    def decode(self, text: str) -> list[str]:
        items = unpack(text)
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            raise UnreadableError()
        if len(items) > self.max_items or any(len(item) > self.max_text for item in items):
            raise UnreadableError(TOO_LONG)
        return [_printable(item) for item in items]


@dataclass(frozen=True)
class PageSchema:
    """Everything of one page that goes into its address.

    `prepare(values)` (optional) runs before the fields are stored, e.g. to load the preset the
    other fields start from; `baseline(values)` (optional) gives the matrices that preparing
    produces, so that `encode` leaves out a matrix or table the learner has not changed;
    `shapes(values)` (optional) gives the shape each grid must have for the other values (sizes,
    tokens): `decode` leaves out a grid of another shape (WRONG_SHAPE) instead of letting the
    page redraw or resize it without a word.
    """

    page: str
    fields: tuple[Field, ...]
    prepare: Callable[[Mapping[str, Any]], None] | None = None
    # each setting's default by its widget key: a crafted value goes back to it
    defaults: Mapping[str, Any] = field(default_factory=dict)
    baseline: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None
    shapes: Callable[[Mapping[str, Any]], Mapping[str, tuple[int, ...]]] | None = None

    def field(self, param: str) -> Field | None:
        return next((f for f in self.fields if f.param == param), None)


@dataclass
class Decoded:
    """What `decode` read: values by session key, and the parameters it ignored."""

    values: dict[str, Any] = field(default_factory=dict)
    ignored: list[Ignored] = field(default_factory=list)


def encode(schema: PageSchema, values: Mapping[str, Any]) -> dict[str, str]:
    """The address's parameters for `values` (by session key): `v` first, then each field.
    A matrix or table equal to the schema's baseline is left out."""
    base = schema.baseline(values) if schema.baseline else {}
    params = {VERSION_PARAM: str(VERSION)}
    for f in schema.fields:
        value = values.get(f.key)
        if value is None or (f.key in base and _same(value, base[f.key])):
            continue
        if f.only_if is not None and values.get(f.only_if[0]) != f.only_if[1]:
            continue
        text = f.encode(value)
        if text is not None:
            params[f.param] = text
    return params


def decode(schema: PageSchema, params: Mapping[str, Any]) -> Decoded:
    """Read the address's parameters field by field; what cannot be read is ignored (and said).

    `params` maps a name to its text (or a list of texts: the last one counts); anything else
    is left out by `guard`. Without `v`, an address or a file is read as version 1 (the format
    of the first version that had one).
    """
    decoded = Decoded()
    if not _version_ok(params):
        decoded.ignored.append(Ignored(VERSION_PARAM, NEWER_VERSION))
        return decoded
    texts, decoded.ignored = guard({k: v for k, v in params.items() if k != VERSION_PARAM})
    names = [name for name in texts if name != LANGUAGE_PARAM]
    if len(names) > MAX_PARAMS:
        decoded.ignored.append(Ignored(f"{len(names) - MAX_PARAMS}", TOO_MANY))
        names = names[:MAX_PARAMS]
    for name in names:
        f = schema.field(name)
        if f is None:
            decoded.ignored.append(Ignored(name, UNKNOWN))
            continue
        try:
            decoded.values[f.key] = _read(f, texts[name])
        except UnreadableError as problem:
            decoded.ignored.append(Ignored(name, problem.code))
    if schema.shapes is not None:
        _leave_out_misfits(schema, decoded)
    return decoded


def _read(f: Field, text: str) -> Any:
    """One parameter's value, as its field reads it (not beyond MAX_VALUE_LENGTH)."""
    if len(text) > MAX_VALUE_LENGTH:
        raise UnreadableError(TOO_LONG)
    return f.decode(text)


def _leave_out_misfits(schema: PageSchema, decoded: Decoded) -> None:
    """A grid whose shape is not the one the state's sizes give is left out, and said."""
    expected = schema.shapes(decoded.values)
    for f in schema.fields:
        shape = expected.get(f.key)
        value = decoded.values.get(f.key)
        if shape is not None and value is not None and np.shape(value) != tuple(shape):
            del decoded.values[f.key]
            decoded.ignored.append(Ignored(f.param, WRONG_SHAPE))


def pack(data: Any) -> str:
    """JSON, deflated, base64url without padding."""
    raw = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = squeezer.compress(raw) + squeezer.flush()
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def unpack(text: str) -> Any:
    """The inverse of `pack`, refusing anything that inflates beyond MAX_JSON_BYTES."""
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise UnreadableError()
    try:
        packed = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        inflater = zlib.decompressobj(-15)
        raw = inflater.decompress(packed, MAX_JSON_BYTES)
        if inflater.unconsumed_tail:
            raise UnreadableError(TOO_LONG)
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError, RecursionError) as error:
        if isinstance(error, UnreadableError):
            raise
        raise UnreadableError() from error


def _no_constant(name: str) -> None:
    raise UnreadableError()  # NaN and Infinity are not JSON


def _version_ok(params: Mapping[Any, Any]) -> bool:
    """Version 1, or no version at all (read as 1): an address's `v` is text, a file's a
    number."""
    value = params.get(VERSION_PARAM, VERSION)
    if isinstance(value, int) and not isinstance(value, bool):
        return value == VERSION
    return _text(value) == str(VERSION)


def guard(params: Mapping[Any, Any]) -> tuple[dict[str, str], list[Ignored]]:
    """Where an address's or a file's entries come in: the ones that are text (or a list of
    texts, of which the last counts), by name; every other one as ignored, under a name that
    can be shown (a lone surrogate cannot be sent to a browser, a list is not a name)."""
    texts: dict[str, str] = {}
    ignored = []
    for name, value in params.items():
        text = _text(value)
        if readable(name) and text is not None and readable(text):
            texts[name] = text
        else:
            ignored.append(Ignored(shown_name(name), UNREADABLE))
    return texts, ignored


def readable(text: Any) -> bool:
    """Whether `text` is text that can be shown and sent (UTF-8: no lone surrogate)."""
    if not isinstance(text, str):
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown_name(name: Any, limit: int = 40) -> str:
    """A parameter's name as a notice may show it: text, without what cannot be shown."""
    text = name if isinstance(name, str) else repr(name)
    text = text.encode("utf-8", "replace").decode("utf-8")  # a lone surrogate becomes "?"
    return _printable(text)[:limit]


def _text(value: Any) -> str | None:
    """An entry's text: a string, or the last of a list of strings (None: not text)."""
    if isinstance(value, list | tuple):
        value = value[-1] if value else ""
    return value if isinstance(value, str) else None


def _number_text(value: Any) -> str:
    """The shortest text that reads back as the same float: 2 for 2.0, 0.1 for 0.1."""
    number = float(value)
    if number.is_integer() and abs(number) < 1e16:
        return str(int(number)) if number or math.copysign(1, number) > 0 else "-0"
    return repr(number)


def _within(value: Any, low: Any, high: Any) -> Any:
    if not low <= value <= high:
        raise UnreadableError(OUT_OF_RANGE)
    return value


def _parse_number(text: str) -> float:
    if len(text) > 32 or not _NUMBER.fullmatch(text):
        raise UnreadableError()
    value = float(text)
    if not math.isfinite(value):
        raise UnreadableError(OUT_OF_RANGE)
    return value


# Characters that change how the text around them is shown (a right-to-left override makes
# "txt.exe" read "exe.txt"): dropped. Joiners, the soft hyphen and other format characters
# belong to the text (👩‍💻, می‌خواهم) and are kept.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _shown_as_text(char: str) -> bool:
    return unicodedata.category(char) not in ("Cc", "Cs") and char not in _BIDI_CONTROLS


def _printable(text: str) -> str:
    """Text without control characters (a NUL, a line feed, a right-to-left override, a lone
    surrogate): they are dropped; everything else a learner types is kept."""
    return "".join(c for c in text if _shown_as_text(c))


@dataclass(frozen=True)
class NotKept:
    """A field whose value the address cannot give back as it is: `dropped` lists the
    characters the reader leaves out, or is empty when the whole value is left out."""

    param: str
    dropped: str = ""


def not_kept(schema: PageSchema, values: Mapping[str, Any]) -> list[NotKept]:
    """What an address written for `values` would not reopen as it is (read back field by
    field, as `decode` reads it), so that the page can say so."""
    lost = []
    for param, text in encode(schema, values).items():
        f = schema.field(param)
        if f is None:
            continue
        try:
            back = _read(f, text)
        except UnreadableError:
            lost.append(NotKept(param))
            continue
        if not _same(back, values[f.key]):
            dropped = "".join(c for c in _strings(values[f.key]) if not _shown_as_text(c))
            lost.append(NotKept(param, dropped))
    return lost


def _strings(value: Any) -> str:
    """Every text inside a value (a text, a table's cells), joined."""
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple):
        return "".join(_strings(item) for item in value)
    return ""


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        # np.array_equal's own checks cost more than comparing a few cells (the address
        # compares every grid with its example's after each edit)
        return a.shape == b.shape and bool(((a == b) | (np.isnan(a) & np.isnan(b))).all())
    if isinstance(a, list | tuple) and a and isinstance(a[0], list | tuple):
        return [tuple(r) for r in a] == [tuple(r) for r in b]
    return list(a) == list(b) if isinstance(a, list | tuple) else a == b
