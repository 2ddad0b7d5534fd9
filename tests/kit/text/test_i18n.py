"""The catalogs: both languages hold the same keys and placeholders, every engine error and
step has Japanese that formats with what the engine really passes, and every key the code asks
for exists."""

from __future__ import annotations

import re
import string
import tomllib
from collections.abc import Callable

import numpy as np
import pytest

from attention_core import AttentionInputError, attention, multi_head, nadaraya_watson
from attention_core.attention import SCORES
from attention_core.errors import ERROR_CODES
from attention_core.formatting import fmt
from attention_core.lookup import SIMILARITIES, explain_similarity
from attention_core.multi_head import MULTI_HEAD_STEP_KEYS
from attention_core.regression import KERNELS
from attention_core.regression_steps import NW_STEP_KEYS
from attention_core.steps import STEP_KEYS
from attention_core.validation import as_matrix
from attention_ui.kit.text.i18n import (
    LANGUAGES,
    UNDERFLOW_STEPS,
    catalog,
    error_text,
    language_from_tag,
    step_sentence,
    step_title,
    t,
)
from tests.conftest import REPO
from tests.support.engine_errors import ERROR_CASES


def engine_keys() -> set[str]:
    """The keys every catalog must have to word every engine error and step (the
    `engine.value.*` and `engine.reason.*` wordings of parameter codes come on top)."""
    keys = {f"engine.error.{code}" for code in ERROR_CODES}
    for step_key in (*STEP_KEYS, *NW_STEP_KEYS, *MULTI_HEAD_STEP_KEYS):
        keys |= {f"engine.step.{step_key}.title", f"engine.step.{step_key}.sentence"}
    keys |= {f"engine.step.{step_key}.sentence_underflow" for step_key in UNDERFLOW_STEPS}
    keys |= {
        f"engine.step.nw_kernel.sentence_{kernel}" for kernel in KERNELS if kernel != "gaussian"
    }
    return keys


LOCALES = REPO / "attention_ui" / "locales"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def namespaces(lang: str) -> set[str]:
    return {path.stem for path in (LOCALES / lang).glob("*.toml")}


def keys_of(lang: str, namespace: str) -> set[str]:
    return {key for key in catalog(lang) if key.split(".")[0] == namespace}


def placeholders(template: str) -> set[str]:
    return {
        name.split(".")[0].split("[")[0]
        for _, name, _, _ in string.Formatter().parse(template)
        if name
    }


def unescape(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


# ---------------------------------------------------------------------------------------------
# The files and their keys


@pytest.mark.parametrize(
    "path", sorted(LOCALES.glob("*/*.toml")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_every_catalog_file_is_valid_toml_of_nonempty_strings(path):
    with path.open("rb") as file:
        tree = tomllib.load(file)

    def leaves(node, prefix):
        for name, value in node.items():
            if isinstance(value, dict):
                yield from leaves(value, f"{prefix}.{name}")
            else:
                yield f"{prefix}.{name}", value

    for key, value in leaves(tree, path.stem):
        assert isinstance(value, str), f"{key} is {type(value).__name__}, not text"
        assert value.strip(), f"{key} is empty"


def test_both_languages_have_the_same_namespaces():
    assert set(LANGUAGES) == {p.name for p in LOCALES.iterdir() if p.is_dir()}
    shared = namespaces("en") | namespaces("ja")
    for namespace in shared:
        expected = set(LANGUAGES)
        present = {lang for lang in LANGUAGES if namespace in namespaces(lang)}
        assert present == expected, f"namespace {namespace!r} is in {present}, not {expected}"


@pytest.mark.parametrize("namespace", sorted(namespaces("en")))
def test_every_key_exists_in_english_and_japanese(namespace):
    english, japanese = keys_of("en", namespace), keys_of("ja", namespace)
    assert sorted(english - japanese) == [], "keys missing in Japanese"
    assert sorted(japanese - english) == [], "keys missing in English"


@pytest.mark.parametrize("namespace", sorted(namespaces("en")))
def test_placeholders_agree_between_english_and_japanese(namespace):
    en, ja = catalog("en"), catalog("ja")
    mismatched = {
        key: (placeholders(en[key]), placeholders(ja[key]))
        for key in keys_of("en", namespace) & keys_of("ja", namespace)
        if placeholders(en[key]) != placeholders(ja[key])
    }
    assert mismatched == {}


def test_japanese_text_is_japanese():
    """A value copied from the English catalog and never translated is caught here."""
    en, ja = catalog("en"), catalog("ja")
    same = [
        key
        for key in set(en) & set(ja)
        if en[key] == ja[key]
        and re.search(r"[A-Za-z]{4,}", re.sub(r"\{\w+\}", "", en[key]))
        and not JAPANESE.search(en[key])
    ]
    assert same == []


def test_japanese_engine_catalog_covers_exactly_the_engine_codes_and_steps():
    japanese = keys_of("ja", "engine")
    extras = {key for key in japanese if key.startswith(("engine.value.", "engine.reason."))}
    assert japanese - extras == engine_keys()
    assert keys_of("en", "engine") == japanese
    assert {f"engine.error.{code}" for code in ERROR_CODES} <= engine_keys()
    assert {f"engine.step.{key}.title" for key in STEP_KEYS} <= engine_keys()


def test_the_interface_uses_the_textbook_terms():
    text = " ".join(catalog("ja").values())
    terms = ["クエリ", "キー", "バリュー", "アテンション", "ソフトマックス", "重み", "内積", "温度"]
    assert [term for term in terms if term not in text] == []


# ---------------------------------------------------------------------------------------------
# Keys used by the code

_T_CALL = re.compile(r"""\bt\(\s*(f?)(["'])(.+?)\2""")
_PAGE_HEADER = re.compile(r"""\bpage_header\(\s*["']([\w]+)["']""")


def keys_used_in_code() -> list[tuple[str, str]]:
    """(file, key pattern) for every literal t("…") and page_header("…") in the app's code;
    an f-string's {…} parts match one dotted segment."""
    files = [
        REPO / "app.py",
        *sorted((REPO / "pages").glob("*.py")),
        *sorted((REPO / "attention_ui").rglob("*.py")),
    ]
    used = []
    for path in files:
        source = path.read_text(encoding="utf-8")
        for is_f, _, literal in _T_CALL.findall(source):
            if is_f:
                parts = re.split(r"\{[^}]*\}", literal)
                pattern = "[^.]+".join(re.escape(part) for part in parts)
            else:
                pattern = re.escape(literal)
            used.append((path.name, pattern))
        for namespace in _PAGE_HEADER.findall(source):
            used += [
                (path.name, re.escape(f"{namespace}.title")),
                (path.name, re.escape(f"{namespace}.intro")),
            ]
    return used


def test_the_scan_finds_the_keys_the_frame_uses():
    patterns = {pattern for _, pattern in keys_used_in_code()}
    assert re.escape("common.language") in patterns
    assert "[^.]+\\.menu" in patterns  # each page's menu label, in its own catalog


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_key_the_code_asks_for_is_in_the_catalog(lang):
    keys = list(catalog(lang))
    missing = [
        (file, pattern)
        for file, pattern in keys_used_in_code()
        if not any(re.fullmatch(pattern, key) for key in keys)
    ]
    assert missing == []


def test_a_missing_key_shows_itself_and_a_present_one_is_filled_in():
    assert t("nav.no_such_key", lang="ja") == "nav.no_such_key"
    assert t("common.language_names.ja", lang="ja") == "日本語"
    assert "«x»" in t("common.unknown_language", lang="en", value="«x»", language="English")


@pytest.mark.parametrize(
    ("tag", "expected"),
    [
        ("ja", "ja"),
        ("JA", "ja"),
        ("ja-JP", "ja"),
        ("ja_JP", "ja"),
        (" en-GB ", "en"),
        ("en-US", "en"),
        ("fr-FR", None),
        ("", None),
        (None, None),
        ("j" * 100, None),
        ("jaa", None),
        (["ja"], None),
    ],
)
def test_language_tags_are_read_by_their_primary_language(tag, expected):
    assert language_from_tag(tag) == expected


# ---------------------------------------------------------------------------------------------
# Engine errors, raised for real


def _raises(call: Callable[[], object]) -> AttentionInputError:
    with pytest.raises(AttentionInputError) as info:
        call()
    return info.value


Q2 = [[1.0, 0.0], [0.0, 1.0]]
K3 = [[1.0, 0.0, 2.0], [0.5, 1.0, 0.0]]
V3 = [[10.0, 20.0, 30.0]]
USER_TEXT = "**x** <b>y</b> $z$"

# Words Japanese messages may keep in Latin letters: names of matrices, functions and options.
KEPT_IN_LATIN = {
    "NaN",
    "nan",
    "inf",
    "True",
    "False",
    "None",
    "tanh",
    "exp",
    "softmax",
    "sum",
    "column",
    "row",
    "dot",
    "scaled",
    "general",
    "concat",
    "location",
    "exact",
    "ngram",
    "edit",
    "yes",
    "three",
    "diagonal",
    "max",
    "soundex",
    "sigmoid",
    "train",
    "query",
    "LOO",
    "model",  # d_model
    "seed",  # the scaling demo's
    "lookup",  # the toy tasks' names, as the engine takes them
    "reverse",
    "previous",
    "induction",
    "inputs",  # a trained model's token arrays, named as the engine names them
    "targets",
    *KERNELS,
}  # x_train, y_train, x_query: engine names
CASE_IDS = [case.id for case in ERROR_CASES]
# What the error table types where a name or a number belongs: shown back as typed.
TYPED_IN_THE_TABLE = {"abc", "cosine", "hot", "Smola", "relu", "sort"}
# The table's rows of entries that are not numbers, not finite, ragged, of the wrong number of
# axes or empty: their English names the matrix and the cell.
ENTRY_CODES = {"not_numeric", "not_finite", "ragged", "bad_ndim", "empty"}


@pytest.mark.parametrize(("call", "code"), [case.values[:2] for case in ERROR_CASES], ids=CASE_IDS)
def test_every_engine_error_reads_in_japanese(call, code):
    error = _raises(call)
    assert error.code == code
    text = unescape(error_text(error, "ja"))
    assert JAPANESE.search(text), text
    leftover = set(re.findall(r"[A-Za-z]{3,}", text)) - KEPT_IN_LATIN - TYPED_IN_THE_TABLE
    assert leftover == set(), f"English left in {text!r}"
    english = catalog("en")[f"engine.error.{code}"]
    for name in {"matrix", "row", "col", "query", "key", "index"} & placeholders(english):
        if name in error.params:  # what to fix, and where, survives the translation
            assert str(error.params[name]) in text, (name, text)


ENTRY_CASES = [case for case in ERROR_CASES if case.values[1] in ENTRY_CODES]


@pytest.mark.parametrize(
    "call", [case.values[0] for case in ENTRY_CASES], ids=[case.id for case in ENTRY_CASES]
)
def test_english_errors_name_what_the_engine_reports(call):
    error = _raises(call)
    text = unescape(error_text(error, "en"))
    assert not re.search(r"\{\w+\}", text), text  # every placeholder filled
    for name in {"matrix", "row", "col", "query", "key", "index", "shape", "K_shape", "V_shape"}:
        if name in error.params:
            assert str(error.params[name]) in text, (name, text)


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_user_text_in_an_error_is_escaped_not_rendered(lang):
    error = _raises(lambda: as_matrix("Q", [[USER_TEXT]]))
    text = error_text(error, lang)
    for raw in ("**x**", "<b>", "$z$"):
        assert raw not in text
    assert r"\*\*x\*\*" in text and r"\<b\>" in text and r"\$z\$" in text


def test_the_engine_error_itself_holds_a_code_and_numbers_not_a_sentence():
    error = _raises(lambda: attention([[1.0], [2.0]], [[1.0, 0.0]], [[1.0, 2.0]], "dot"))
    assert error.code == "query_key_size"
    assert str(error).startswith("query_key_size(")
    assert {
        "d_q": 2,
        "d_k": 1,
        "Q_shape": "2 × 1",
        "K_shape": "1 × 2",
    }.items() <= error.params.items()
    with pytest.raises(KeyError):
        AttentionInputError("not_a_code")


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_error_numbers_are_written_as_the_app_writes_them(lang):
    """Found 10: a negative score showed as -0.10047396331229035."""
    error = _raises(
        lambda: attention([[1.0]], [[1.0, -0.10047396331229035]], [[1.0, 2.0]], normalization="sum")
    )
    text = unescape(error_text(error, lang))
    assert "0.10047396331229035" not in text
    assert fmt(-0.10047396331229035) in text  # −0.1005


def test_parameter_shape_explains_why_in_both_languages():
    error = _raises(
        lambda: attention([[1.0], [2.0]], [[1.0, 0.0]], [[1.0, 2.0]], "general", W=[[1.0]])
    )
    english, japanese = unescape(error_text(error, "en")), unescape(error_text(error, "ja"))
    assert "d_q = 2" in english and "d_k = 1" in english
    assert "d_q = 2" in japanese and "d_k = 1" in japanese and "写します" in japanese


def test_key_value_count_names_the_shapes_of_k_and_v():
    error = _raises(lambda: attention([[1.0]], [[1.0, 2.0]], [[1.0, 2.0, 3.0]]))
    for lang in LANGUAGES:
        text = unescape(error_text(error, lang))
        assert "1 × 2" in text and "1 × 3" in text, text


# ---------------------------------------------------------------------------------------------
# Engine steps, computed for real


def all_steps():
    runs = [
        attention(
            Q2,
            K3,
            V3,
            score,
            W=np.ones((2, 2)),
            Wa=np.ones((3, 2)) if score == "location" else np.ones((2, 4)),
            va=[1.0, -1.0],
        )
        for score in SCORES
    ]
    runs.append(attention(Q2, K3, V3, "dot", temperature=0.5, mask=[[True, True]] * 3))
    runs.append(
        attention(
            [[1.0], [1.0]],
            K3,
            V3,
            "dot",
            normalization="sum",
            temperature=2.0,
            mask=[[True], [False], [True]],
        )
    )
    return [step for run in runs for step in run.steps]


def test_the_step_runs_cover_every_step_text():
    assert {step.key for step in all_steps()} == set(STEP_KEYS)


@pytest.mark.parametrize("step", all_steps(), ids=lambda s: s.key)
def test_every_engine_step_reads_in_japanese_with_its_numbers(step):
    title, sentence = step_title(step, "ja"), step_sentence(step, "ja")
    assert JAPANESE.search(title) and JAPANESE.search(sentence)
    for value in step.params.values():  # d_k = 2, τ = 0.5 … appear in the sentence
        assert fmt(value) in sentence
    english = step_sentence(step, "en")
    assert not JAPANESE.search(english) and "{" not in english


# Symbols of the arithmetic that are the same in every language.
MATH_WORDS = {"max", "exp", "tanh", "lev"}


@pytest.mark.parametrize("step", all_steps(), ids=lambda s: s.key)
def test_the_engines_arithmetic_is_symbols_and_numbers_only(step):
    """No regular expression translates engine text: it holds no words to translate."""
    rows, cols = step.value.shape
    for r in range(rows):
        for c in range(cols):
            text = step.entry(r, c)
            assert set(re.findall(r"[A-Za-z]{3,}", text)) <= MATH_WORDS, text


@pytest.mark.parametrize("similarity", SIMILARITIES)
@pytest.mark.parametrize(("query", "key"), [("Li", "Lipton"), ("佐藤", "佐藤さん"), ("Li", "Li")])
def test_the_similarity_arithmetic_is_symbols_and_numbers_only(similarity, query, key):
    text = explain_similarity(query, key, similarity)
    words = set(re.findall(r"[A-Za-z]{3,}", text)) - MATH_WORDS
    assert words <= {query.lower(), key.lower(), query, key}, text


def test_masked_and_summed_entries_say_what_happens_in_symbols():
    run = attention([[1.0], [1.0]], K3, V3, "dot", mask=[[True], [False], [True]])
    assert run.step("masked").entry(1, 0).endswith("a₂₁ = 0")
    assert run.step("sums").entry(0, 0).startswith("Σᵢ eᵢ₁ = ")


def test_engine_messages_name_score_functions_as_the_luong_page_does():
    for lang in LANGUAGES:
        texts = catalog(lang)
        for score in SCORES:  # the engine passes the code, e.g. scaled_dot
            assert texts[f"engine.value.score.{score}"] == texts[f"luong.score_name.{score}"]


def nadaraya_watson_steps():
    return [
        step
        for kernel in KERNELS
        for step in nadaraya_watson([0.0, 5.0], [0.0, 1.0], [1.0, 2.0], kernel, 0.5).steps
    ]


def test_the_regression_step_runs_cover_every_regression_step_text():
    assert {step.key for step in nadaraya_watson_steps()} == set(NW_STEP_KEYS)


@pytest.mark.parametrize("step", nadaraya_watson_steps(), ids=lambda s: s.key)
def test_every_regression_step_reads_in_japanese_with_its_numbers(step):
    title, sentence = step_title(step, "ja"), step_sentence(step, "ja")
    assert JAPANESE.search(title) and JAPANESE.search(sentence)
    for value in step.params.values():
        assert isinstance(value, str) or fmt(value) in sentence


def multi_head_steps():
    return list(multi_head(Q2, Q2, Q2, Q2, Q2, 2, positions=True).steps)


def test_the_multi_head_step_run_covers_every_multi_head_step_text():
    assert [step.key for step in multi_head_steps()] == list(MULTI_HEAD_STEP_KEYS)


@pytest.mark.parametrize("step", multi_head_steps(), ids=lambda s: s.key)
def test_every_multi_head_step_reads_in_both_languages_with_its_numbers(step):
    title, sentence = step_title(step, "ja"), step_sentence(step, "ja")
    assert JAPANESE.search(title) and JAPANESE.search(sentence)
    for value in step.params.values():
        assert isinstance(value, str) or fmt(value) in sentence
    english = step_sentence(step, "en")
    assert not JAPANESE.search(english) and "{" not in english
    rows, cols = step.value.shape
    for r in range(rows):
        for c in range(cols):
            assert set(re.findall(r"[A-Za-z]{3,}", step.entry(r, c))) <= MATH_WORDS
