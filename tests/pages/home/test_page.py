"""The home page: the database picture, a live example computed by the engine, every page linked."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import attention
from attention_core.formatting import fmt
from attention_ui.kit.text.i18n import t
from attention_ui.page_list import PAGES
from tests.conftest import APP, REPO
from tests.plotly_json import figures
from tests.support.pages import open_fold, open_page

KEYS = [[1.0, 0.0, -1.0], [0.0, 1.0, 0.0]]
VALUES = [[10.0, 20.0, 30.0]]


@pytest.fixture
def home() -> AppTest:
    return AppTest.from_file(str(APP), default_timeout=30).run()


def _weights_figure(at: AppTest) -> dict:
    charts = figures(at)
    assert len(charts) == 1
    return charts[0]


def test_home_runs_and_links_every_page(home):
    assert not home.exception
    assert home.title[0].value == "Attention Explorer"
    links = [link.proto.page for link in home.main.get("page_link")]
    assert links == [page.name for page in PAGES[1:]]


def test_every_page_of_the_pages_folder_is_in_the_translated_menu(home):
    """Streamlit serves every script in pages/; the sidebar menu (its own is hidden) must list
    each of them, in menu order, with its catalog label."""
    on_disk = sorted(path.stem for path in (REPO / "pages").glob("*.py"))
    assert sorted(page.name for page in PAGES) == on_disk
    menu = home.sidebar.get("page_link")
    assert [link.proto.page for link in menu] == [page.name for page in PAGES]
    assert [link.proto.label for link in menu] == [
        t(f"{page.name}.menu", lang="en") for page in PAGES
    ]


@pytest.mark.parametrize(("q1", "q2"), [(2.0, 0.5), (-3.0, 0.0), (0.0, 3.0)])
def test_moving_the_query_shows_the_engines_weights_and_output(home, q1, q2):
    home.slider(key="home.q1").set_value(q1)
    home.slider(key="home.q2").set_value(q2).run()
    assert not home.exception
    expected = attention([[q1], [q2]], KEYS, VALUES, "dot")
    weights = np.array(_weights_figure(home)["data"][0]["z"], dtype=float)
    np.testing.assert_allclose(weights, expected.weights, rtol=1e-12)
    output_text = next(m.value for m in home.markdown if m.value.startswith("Output"))
    assert fmt(expected.output[0, 0]) in output_text
    assert f"k{int(np.argmax(expected.weights[:, 0])) + 1}" in output_text


def test_weight_hover_spells_out_the_softmax(home):
    hover = _weights_figure(home)["data"][0]["customdata"]
    assert hover[0][0].startswith("a₁₁<br>= e₁₁ / Σ")


# d2l's reason for attention, in the seed's words (the Japanese d2l section, 003_*.txt).
SEED_PHRASES = (
    "入力が明確に定義されたサイズであることに本質的に依存",
    "224 × 224 ピクセル",
    "1 トークンずつ順に処理するか、特別に設計された畳み込みカーネル",
    "情報量もさまざま",
    "追跡し続けることが非常に難しくなり",
    "学習すべきパラメータが多すぎない",
    "任意に大きなデータベースに対して動作できる",
    "集合から要素を選択し、それに対応する表現の重み付き和を構成するための *微分可能* な制御手段",
)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_home_page_says_why_attention_as_d2l_does(lang):
    at = open_fold(open_page("home", lang), "home.why")
    (box,) = [e for e in at.expander if e.label == t("home.why.title", lang)]
    said = "\n".join(m.value for m in box.markdown)
    for part in ("fixed", "concise", "select"):
        assert t(f"home.why.{part}", lang) in said
    if lang == "ja":
        for phrase in SEED_PHRASES:
            assert phrase in said, phrase
    else:
        english = ("well-defined size", "varying information content", "long sequences")
        english += ("too many parameters to learn", "*differentiable* means of control")
        for phrase in english:
            assert phrase in said, phrase
