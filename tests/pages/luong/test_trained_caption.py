"""After the training page sends its weights, the Luong page says what the numbers are: the
example box and the story under the charts say "trained, at step S" (not "random, drawn from
the seed"), until an edit makes them the learner's own, and an example or a seed brings
seeded numbers back. The hand-over is emulated as train/view.send leaves the page: the random
example, the grids replaced, and kit/grids/trained's note."""

from __future__ import annotations

import numpy as np

from attention_ui.kit.grids.matrix_editor import set_matrix
from attention_ui.kit.grids.trained import Trained
from attention_ui.kit.text.i18n import catalog
from tests.conftest import open_app_page
from tests.support.grids import type_cell

EN = catalog("en")
SENT_Q = np.array([[0.25, -1.5], [2.0, 0.75]])  # d_h = 2 × T = 2, not the seed's numbers


def handed_over(layers: str = "1"):
    at = open_app_page("luong")
    at.selectbox(key="luong.preset").set_value("random").run()
    set_matrix("luong.Q", SENT_Q, at.session_state)
    at.session_state["luong.trained"] = Trained(
        grids={"luong.Q": SENT_Q},
        words={"task": "train.settings.task_options.previous", "score": "engine.value.score.dot"},
        numbers={"step": "30", "head": "1", "tokens": "a b c", "layers": layers},
    )
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at) -> list[str]:
    return [e.value for kind in ("info", "markdown", "caption") for e in at.get(kind)]


def example_label(at) -> str:
    box = at.selectbox(key="luong.preset")
    return box.format_func(box.value)


def test_trained_numbers_are_called_trained_not_seeded():
    at = handed_over()
    assert example_label(at) == EN["luong.trained.example"].format(step="30")
    story = EN["luong.trained.why"].format(
        head="1", task=EN["train.settings.task_options.previous"], step="30", tokens="a b c"
    )
    assert story in texts(at)
    assert EN["luong.preset.random.why"] not in texts(at)
    assert EN["luong.preset.random.name"] not in example_label(at)


def test_an_edit_makes_them_the_learners_and_a_new_seed_makes_them_seeded_again():
    at = handed_over()
    type_cell(at, "luong.Q", 0, "q1", 0.5)
    at.run()  # AppTest applies the edit when it draws Q (no callback), after the example box:
    at.run()  # in a browser the grid's callback applies it first, and reruns the whole page
    assert example_label(at) == EN["luong.trained.edited_example"]
    assert EN["luong.trained.edited"] in texts(at)
    assert EN["luong.preset.random.why"] not in texts(at)
    at.button(key="luong.redraw").click().run()
    assert example_label(at) == EN["luong.preset.random.name"]
    assert EN["luong.preset.random.why"] in texts(at)


def test_a_two_layer_models_numbers_are_said_to_hold_layer_ones_output():
    """Induction's last layer reads its input X plus layer 1's output (the residual stream):
    its Q, K and V are not made from the embeddings alone, as the one-layer story says."""
    story = {
        "head": "1",
        "task": EN["train.settings.task_options.previous"],
        "step": "30",
        "tokens": "a b c",
    }
    two = handed_over(layers="2")
    assert EN["luong.trained_layers.why"].format(**story) in texts(two)
    assert EN["luong.trained.why"].format(**story) not in texts(two)
    one = handed_over(layers="1")
    assert EN["luong.trained.why"].format(**story) in texts(one)
    assert EN["luong.trained_layers.why"].format(**story) not in texts(one)
