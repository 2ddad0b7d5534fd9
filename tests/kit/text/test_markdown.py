"""User text echoed by the app: control and bidirectional characters stripped, Markdown made
inert and long text cut."""

from attention_ui.kit.text.markdown import escape_markdown, without_controls


def test_control_characters_are_stripped_from_echoed_text():
    assert without_controls("ab\u202ecd\u0007\x1b[31m") == "abcd[31m"
    assert without_controls("a\nb\tc") == "a b c"
    assert without_controls("محمد 👨\u200d👩") == "محمد 👨\u200d👩"  # letters and joiners stay
    assert "\u202e" not in escape_markdown("\u202eevil" * 1000, 20)
    assert escape_markdown("x" * 10_000_000, 20) == "x" * 20 + "…"
