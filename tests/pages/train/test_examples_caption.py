"""Key lookup's step-0 screen says where the drawn examples' answers stand, from the task's own
`attend`: that the answer moves is said only when it does."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from attention_ui.kit.text.i18n import catalog
from attention_ui.train import compute, player
from tests.conftest import APP

EN = catalog("en")


def test_the_step_0_caption_names_the_positions_of_the_drawn_answers():
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.switch_page("pages/train.py").run()
    assert not at.exception, [e.value for e in at.exception]
    task = compute.task_of("lookup", 0)
    where = [int(task.attend[e][0]) + 1 for e in range(player.STACKED)]
    if len(set(where)) > 1:
        said = EN["watch.examples"].format(count=len(where), positions=", ".join(map(str, where)))
    else:
        said = EN["watch.examples_same"].format(count=len(where), positions=str(where[0]))
    assert said in [c.value for c in at.caption]


def _same_script() -> None:
    from types import SimpleNamespace

    from attention_ui.train.watch import _task_caption

    # a task whose drawn examples all have their answer at position 2
    _task_caption(SimpleNamespace(outputs=1, layers=1, attend=[[1]] * 8))


def test_an_answer_that_does_not_move_is_not_said_to_move():
    at = AppTest.from_function(_same_script, default_timeout=30).run()
    assert [c.value for c in at.caption] == [
        EN["watch.examples_same"].format(count=player.STACKED, positions="2")
    ]
