"""The Luong explorer's own pieces, which pages/luong.py draws: each module says what it holds
(docs/ARCHITECTURE.md follows an edit through them)."""
