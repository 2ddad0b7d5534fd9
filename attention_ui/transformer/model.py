"""The transformer page's pure parts: a sentence into tokens, seeded embeddings and weights,
token labels, and the checks of what the learner typed. No Streamlit here, so tests call it.

Problems are codes and numbers (`Problem`); the view turns them into sentences in the
learner's language.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field

import numpy as np

from attention_ui.transformer.japanese import japanese_words

# 12 tokens fit an ordinary sentence split into words (吾輩は猫である。名前はまだ無い。 is 11)
MIN_TOKENS, MAX_TOKENS = 2, 12
MAX_TOKEN_LENGTH = 12
MIN_D_MODEL, MAX_D_MODEL = 2, 16  # 16: the training page's default model fits
MAX_HEADS = 8
MAX_SENTENCE_LENGTH = 200  # the text box stops here in the browser; checked again here
PROJECTIONS = ("W_Q", "W_K", "W_V", "W_O")
EXAMPLES = {"en": "the cat sat on the mat", "ja": "猫がマットの上の箱に座った"}


@dataclass(frozen=True)
class Problem:
    """What is wrong with the sentence: a code (a catalog key's last part) and its numbers."""

    code: str
    params: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Tokens:
    """The sentence split into tokens, how it was split, and what is wrong with it."""

    tokens: list[str]
    split: str  # "spaces", "words" (Japanese, by janome) or "none" (nothing typed)
    problems: list[Problem]

    @property
    def ok(self) -> bool:
        return not self.problems


def split_sentence(text: object) -> Tokens:
    """Split on spaces; text with kana or kanji (Japanese, written without spaces) is split
    into words by janome's morphological analyser instead (its dictionary ships inside the
    package; at most MAX_SENTENCE_LENGTH characters reach it, a few milliseconds).

    A sentence needs MIN_TOKENS to MAX_TOKENS tokens of at most MAX_TOKEN_LENGTH characters.
    """
    text = unicodedata.normalize("NFC", text if isinstance(text, str) else "")
    text = text[:MAX_SENTENCE_LENGTH]
    if _has_cjk(text):
        tokens, split = japanese_words(text), "words"
    else:
        tokens = text.split()
        split = "spaces" if tokens else "none"
    problems = []
    if not tokens:
        problems.append(Problem("no_tokens", {"low": MIN_TOKENS, "high": MAX_TOKENS}))
    elif len(tokens) < MIN_TOKENS:
        problems.append(Problem("too_few", {"count": len(tokens), "low": MIN_TOKENS}))
    elif len(tokens) > MAX_TOKENS:
        problems.append(Problem("too_many", {"count": len(tokens), "high": MAX_TOKENS}))
    for index, token in enumerate(tokens[: MAX_TOKENS + 1], start=1):
        if len(token) > MAX_TOKEN_LENGTH:
            numbers = {
                "index": index,
                "token": token,
                "length": len(token),
                "limit": MAX_TOKEN_LENGTH,
            }
            problems.append(Problem("token_too_long", numbers))
    return Tokens(tokens, split, problems)


def _has_cjk(text: str) -> bool:
    """Kana, CJK ideographs or full-width forms: scripts written without spaces."""
    return any(
        "\u3040" <= ch <= "\u30ff"
        or "\u3400" <= ch <= "\u9fff"
        or "\uf900" <= ch <= "\ufaff"
        or "\uff00" <= ch <= "\uffef"
        for ch in text
    )


def token_labels(tokens: list[str]) -> list[str]:
    """'1 · the', '2 · cat', …: numbered, so a repeated word keeps its own row and column
    (a chart's category axis would merge two equal labels)."""
    return [f"{i + 1} · {token}" for i, token in enumerate(tokens)]


def divisors(d_model: int) -> list[int]:
    """The head counts that split d_model evenly."""
    return [h for h in range(1, d_model + 1) if d_model % h == 0]


def _token_seed(token: str) -> int:
    """A stable number for a token (Python's hash() changes from run to run)."""
    return int.from_bytes(hashlib.sha256(token.encode("utf-8")).digest()[:4], "big")


def embeddings(tokens: list[str], d_model: int, seed: int) -> np.ndarray:
    """n × d_model: each token's row drawn from (seed, the token), rounded to one decimal.

    The same word gets the same row wherever it stands, as an embedding table gives it: only
    the positional encodings tell two equal words apart.
    """
    rows = [
        np.random.default_rng([seed, _token_seed(token)]).normal(size=d_model) for token in tokens
    ]
    return np.round(np.array(rows), 1).reshape(len(tokens), d_model)


def projections(d_model: int, seed: int) -> dict[str, np.ndarray]:
    """W_Q, W_K, W_V, W_O (each d_model × d_model) drawn from the seed, rounded to one decimal.

    Entries have spread 1/√d_model, so the projected rows keep the size of X's rows.
    """
    rng = np.random.default_rng([seed, d_model, 7])
    scale = 1.0 / np.sqrt(d_model)
    return {
        name: np.round(rng.normal(scale=scale, size=(d_model, d_model)), 1) for name in PROJECTIONS
    }
