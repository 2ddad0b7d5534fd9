"""Small things a hostile review found: formulas with tiny numbers, labels of long names,
control characters in text the app echoes."""

from attention_core.formatting import fmt_latex
from attention_ui.database.view import pooled_formula
from attention_ui.gallery.view import query_labels, record_labels
from attention_ui.kit.text.markdown import escape_markdown, without_controls


def test_a_power_of_ten_raises_its_whole_exponent_in_latex():
    assert fmt_latex(4.2e-44, 3) == r"4.2 \times 10^{-44}"
    assert fmt_latex(-1.5) == "-1.5" and fmt_latex(2e6) == r"2 \times 10^{6}"


def test_the_pooled_formula_raises_exponents_and_puts_long_terms_on_their_own_line():
    formula = pooled_formula([4.2e-44, 0.5, 0.5], [10.0, 20.0, -30.0], 5.0)
    assert r"10^{-44}" in formula and "10^-" not in formula and "−" not in formula
    lines = formula.split(r"\\")
    assert r"4.2 \times 10^{-44} \times 10" in lines[0] and "20" not in lines[0]
    assert r"0.5 \times 20 + 0.5 \times (-30)" in lines[1]
    short = pooled_formula([0.25] * 4, [1.0, 2.0, 3.0, 4.0], 2.5)
    assert short.count(r"\\") == 2  # two short terms a line, then the total


def test_gallery_labels_keep_long_names_that_start_alike_apart():
    queries = ["Alexandrovich-Smith", "Alexandrovich-Jones"]
    assert len(set(query_labels(queries))) == 2
    assert len(set(record_labels([("Li", "Mu"), ("Li", "Mo")]))) == 2


def test_control_characters_are_stripped_from_echoed_text():
    assert without_controls("ab\u202ecd\u0007\x1b[31m") == "abcd[31m"
    assert without_controls("a\nb\tc") == "a b c"
    assert without_controls("محمد 👨\u200d👩") == "محمد 👨\u200d👩"  # letters and joiners stay
    assert "\u202e" not in escape_markdown("\u202eevil" * 1000, 20)
    assert escape_markdown("x" * 10_000_000, 20) == "x" * 20 + "…"
