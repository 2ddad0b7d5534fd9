"""Class codes, teacher keys and seats: how they are made and checked (pure).

A class code is short enough to read out and type (6 characters from an alphabet without
look-alikes: no 0/O, 1/I/L, 2/Z, 5/S, 8/B), so it is a public name, not a secret: guessing is
slowed by the store's rate limit. The teacher key (behind the teacher's button, never in an
address bar) and each student's seat are secrets from `secrets`, 128 bits or more; the store
keeps only the key's SHA-256 and compares it with `hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{22,64}")  # secrets.token_urlsafe(16..48)


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normal_code(text: object) -> str | None:
    """A typed or addressed code as stored ('ab c-d4 e' → 'ABCD4E'), or None if it cannot be
    one (any value from an address or a widget goes through here)."""
    if not isinstance(text, str) or len(text) > 4 * CODE_LENGTH:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if _CODE.fullmatch(code) else None


def new_key() -> str:
    """A teacher key or a seat: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def is_token(text: object) -> bool:
    return isinstance(text, str) and _TOKEN.fullmatch(text) is not None


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_matches(key: object, stored_hash: object) -> bool:
    """True when `key` is the key whose hash is stored (constant time in the hash)."""
    if not is_token(key) or not isinstance(stored_hash, str):
        return False
    return hmac.compare_digest(key_hash(key), stored_hash)
