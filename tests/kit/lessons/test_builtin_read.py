"""The built-in lessons are read once per process and set of pages: a reading against other
pages (none at all, as the class's lesson picker once asked for its titles) never stands in for
the app's, whichever came first in the process; and their feedback leaves the verdict to the app."""

from __future__ import annotations

from attention_ui.kit.lessons.builtin import IDS, builtin
from attention_ui.kit.lessons.format import NO_STEPS
from attention_ui.kit.text.i18n import catalog
from attention_ui.page_list import SCHEMAS


def test_a_reading_without_the_apps_pages_does_not_replace_the_apps_reading():
    for lesson_id in IDS:
        assert builtin(lesson_id, {}).problem == NO_STEPS  # no page: no step opens
        opened = builtin(lesson_id, SCHEMAS)
        assert opened.lesson is not None and opened.left_out == []
        assert builtin(lesson_id, {}).lesson is None


def test_no_feedback_says_its_verdict_again_after_the_apps_own():
    """The bar and the class's reveal put "Right." / "Not quite." before an option's feedback:
    a feedback that starts with a verdict of its own ("Right: …", "正解です。…") says it twice."""
    for lang in ("en", "ja"):
        words = catalog(lang)
        verdicts = {words["lessons.right"].rstrip(".。"), words["lessons.wrong"].rstrip(".。")}
        verdicts |= {"Right", "Wrong", "正解", "不正解"}
        for lesson_id in IDS:
            for step in builtin(lesson_id, SCHEMAS).lesson.steps:
                question = step.question
                for option in question.options if question and question.kind == "choice" else ():
                    said = option.feedback.get(lang)
                    assert not any(said.startswith(v) for v in verdicts), (lesson_id, said[:40])
