"""The database page's formulas (divide by the sum with its power of τ, the pooled output with
tiny numbers) and the words of its table and story."""

from __future__ import annotations

from attention_ui.database.view import divide_by_sum_latex, pooled_formula
from attention_ui.kit.text.i18n import catalog

EN, JA = catalog("en"), catalog("ja")


def test_divide_by_sum_shows_d2ls_formula_and_marks_the_power_as_this_apps():
    d2l = r"\alpha_i = \frac{a(q, k_i)}{\sum_j a(q, k_j)}"
    assert divide_by_sum_latex(1.0) == (d2l,)
    formulas = divide_by_sum_latex(0.1)
    assert formulas[0] == d2l and "1/\\tau" in formulas[1]
    for texts in (EN, JA):
        assert "{power}" in texts["database.normalization.power_note"]


def test_the_pooled_formula_raises_exponents_and_puts_long_terms_on_their_own_line():
    formula = pooled_formula([4.2e-44, 0.5, 0.5], [10.0, 20.0, -30.0], 5.0)
    assert r"10^{-44}" in formula and "10^-" not in formula and "−" not in formula
    lines = formula.split(r"\\")
    assert r"4.2 \times 10^{-44} \times 10" in lines[0] and "20" not in lines[0]
    assert r"0.5 \times 20 + 0.5 \times (-30)" in lines[1]
    short = pooled_formula([0.25] * 4, [1.0, 2.0, 3.0, 4.0], 2.5)
    assert short.count(r"\\") == 2  # two short terms a line, then the total


def test_the_number_column_is_not_called_a_score():
    assert "Score" not in EN["database.table.number"]
    assert "点数" not in JA["database.table.number"] and "スコア" not in JA["database.table.number"]


def test_the_story_says_the_temperature_step_is_this_apps_not_d2ls():
    assert "one step of d2l's argument" not in EN["database.story.intro"]
    assert "step 4" in EN["database.story.intro"] and "ステップ 4" in JA["database.story.intro"]
