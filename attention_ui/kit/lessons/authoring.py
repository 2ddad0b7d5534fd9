"""Writing a lesson, in the sidebar's "Write a lesson" box on every page: "Add this view to the
lesson" takes the page's state (what its address holds) as a step; the teacher writes its prompt
and, if they wish, a question (choices, each with its feedback, or the page's own predict
question); steps move up and down, are edited and removed; the lesson downloads as JSON, is
taken at once, and opens from a file (which also makes it the draft, to edit).

The draft is kept as the file's document; everything taken or downloaded goes through
`format.read_lesson` first, so a draft is trusted no more than a file (what it leaves out is
said in one sentence). A text is written in the language the teacher works in; a text the draft
already has in the other language is kept."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from attention_ui.kit.export.panel import deferred
from attention_ui.kit.folds import folded
from attention_ui.kit.lessons import bar
from attention_ui.kit.lessons.format import (
    FILE_LIMIT,
    FORMAT,
    LIMITS,
    MAX_STEPS,
    VERSION,
    address_form,
    lesson_json,
    read_lesson,
)
from attention_ui.kit.lessons.format import document as lesson_document
from attention_ui.kit.share.codec import LANGUAGE_PARAM, VERSION_PARAM, PageSchema
from attention_ui.kit.text.i18n import current_language, t
from attention_ui.kit.text.markdown import escape_markdown

DRAFT = "lessons.draft"  # {"title": {lang: text}, "steps": [step documents]}
EDITING = "lessons.editing"  # the step open in the editor (0-based), or None
_VERSION = "lessons.draft.version"  # bumped when the editor and the uploader must start anew
_BOX = "lessons.author"
_KEPT_OPEN = "lessons.author.kept_open"  # the box's state, which a page switch forgets
OPTION_SLOTS = 4  # option rows in the editor (a question needs 2 to MAX_OPTIONS)
PREDICT_PARAM = "predict"  # a page's predict-then-reveal switch in its address
KINDS = ("none", "choice", "page")


def _draft() -> dict[str, Any]:
    return st.session_state.setdefault(DRAFT, {"title": {}, "steps": []})


def _version() -> int:
    return st.session_state.get(_VERSION, 0)


def _bump() -> None:
    st.session_state[_VERSION] = _version() + 1


def panel(page: str, state_now: Mapping[str, str], schemas: Mapping[str, PageSchema]) -> None:
    """The sidebar's "Write a lesson" box (built only while open)."""
    if _BOX not in st.session_state and st.session_state.get(_KEPT_OPEN):
        st.session_state[_BOX] = True  # the teacher collects views page by page: still open
    box = folded(t("lessons.author.title"), key=_BOX, where=st.sidebar, icon=":material/edit_note:")
    st.session_state[_KEPT_OPEN] = box.open
    if not box.open:
        return
    with box.box:
        st.caption(t("lessons.author.help"))
        draft = _draft()
        st.text_input(
            t("lessons.author.lesson_title"),
            value=draft["title"].get(current_language(), ""),
            max_chars=LIMITS["title"],
            key=f"lessons.author.title.{_version()}",
            on_change=_set_title,
            args=(f"lessons.author.title.{_version()}",),
        )
        st.button(
            t("lessons.author.add"),
            key="lessons.author.add",
            on_click=_add,
            args=(page, dict(state_now)),
            disabled=len(draft["steps"]) >= MAX_STEPS,
            icon=":material/add_a_photo:",
            width="stretch",
        )
        _step_list(draft)
        editing = st.session_state.get(EDITING)
        if editing is not None and editing < len(draft["steps"]):
            _editor(editing, draft["steps"][editing], schemas)
        _finish(draft, schemas)
        st.file_uploader(
            t("lessons.author.open"),
            type=["json"],
            key=f"lessons.author.upload.{_version()}",
            on_change=_open_file,
            args=(f"lessons.author.upload.{_version()}", schemas),
            help=t("lessons.author.open_help", limit=FILE_LIMIT // 1000),
        )


def _set_title(key: str) -> None:
    _draft()["title"][current_language()] = str(st.session_state.get(key, ""))


def _add(page: str, params: dict[str, str]) -> None:
    state = {k: v for k, v in params.items() if k not in (LANGUAGE_PARAM, VERSION_PARAM)}
    steps = _draft()["steps"]
    steps.append({"page": page, "state": state, "prompt": {}})
    st.session_state[EDITING] = len(steps) - 1
    _bump()


def _move(index: int, by: int) -> None:
    steps = _draft()["steps"]
    other = index + by
    if 0 <= other < len(steps):
        steps[index], steps[other] = steps[other], steps[index]
        st.session_state[EDITING] = other if st.session_state.get(EDITING) == index else None
        _bump()


def _remove(index: int) -> None:
    _draft()["steps"].pop(index)
    st.session_state[EDITING] = None
    _bump()


def _edit(index: int) -> None:
    st.session_state[EDITING] = None if st.session_state.get(EDITING) == index else index
    _bump()


def _step_list(draft: dict[str, Any]) -> None:
    lang = current_language()
    for index, step in enumerate(draft["steps"]):
        prompt = step.get("prompt", {}).get(lang) or next(iter(step.get("prompt", {}).values()), "")
        line = t("lessons.author.step_line", n=index + 1, page=t(f"{step['page']}.menu"))
        st.markdown(f"**{line}** {escape_markdown(prompt, 60)}")
        up, down, edit, remove = st.columns(4)
        buttons = (
            (up, "up", ":material/arrow_upward:", _move, (index, -1), index == 0),
            (
                down,
                "down",
                ":material/arrow_downward:",
                _move,
                (index, 1),
                index == len(draft["steps"]) - 1,
            ),
            (edit, "edit", ":material/edit:", _edit, (index,), False),
            (remove, "remove", ":material/delete:", _remove, (index,), False),
        )
        for column, name, icon, action, args, disabled in buttons:
            column.button(
                "",
                key=f"lessons.author.{name}.{index}",
                icon=icon,
                help=t(f"lessons.author.{name}"),
                on_click=action,
                args=args,
                disabled=disabled,
            )


def _has_predict(step: dict[str, Any], schemas: Mapping[str, PageSchema]) -> bool:
    schema = schemas.get(step["page"])
    return schema is not None and schema.field(PREDICT_PARAM) is not None


def _editor(index: int, step: dict[str, Any], schemas: Mapping[str, PageSchema]) -> None:
    """One step's prompt and question, as a form: nothing changes until it is saved."""
    lang, key = current_language(), f"lessons.author.form.{_version()}"
    question = step.get("question") or {}
    options = question.get("options", [])
    kinds = KINDS if _has_predict(step, schemas) else KINDS[:2]
    with st.form(key, border=True):
        st.markdown(t("lessons.author.editing", n=index + 1))
        st.text_area(
            t("lessons.author.prompt"),
            value=step.get("prompt", {}).get(lang, ""),
            max_chars=LIMITS["prompt"],
            key=f"{key}.prompt",
        )
        kind = question.get("kind", "none")
        st.radio(
            t("lessons.author.kind"),
            kinds,
            index=kinds.index(kind) if kind in kinds else 0,
            format_func=lambda k: t(f"lessons.author.kinds.{k}"),
            key=f"{key}.kind",
        )
        if _has_predict(step, schemas):
            st.checkbox(
                t("lessons.author.hide"),
                value=step["state"].get(PREDICT_PARAM) == "1",
                key=f"{key}.hide",
            )
        st.text_input(
            t("lessons.author.question"),
            value=question.get("text", {}).get(lang, ""),
            max_chars=LIMITS["question"],
            key=f"{key}.question",
        )
        for slot in range(OPTION_SLOTS):
            given = options[slot] if slot < len(options) else {}
            st.text_input(
                t("lessons.author.option", n=slot + 1),
                value=given.get("text", {}).get(lang, ""),
                max_chars=LIMITS["option"],
                key=f"{key}.option.{slot}",
            )
            st.checkbox(
                t("lessons.author.right"), value=bool(given.get("right")), key=f"{key}.right.{slot}"
            )
            st.text_input(
                t("lessons.author.feedback", n=slot + 1),
                value=given.get("feedback", {}).get(lang, ""),
                max_chars=LIMITS["feedback"],
                key=f"{key}.feedback.{slot}",
            )
        st.form_submit_button(
            t("lessons.author.save"), on_click=_save_step, args=(index, key), icon=":material/save:"
        )


def _save_step(index: int, key: str) -> None:
    """The form's values into the draft's step (texts in the current language)."""
    state, lang = st.session_state, current_language()
    step = _draft()["steps"][index]
    step["prompt"] = {**step.get("prompt", {}), lang: str(state.get(f"{key}.prompt", ""))}
    if f"{key}.hide" in state:
        if state[f"{key}.hide"] or state.get(f"{key}.kind") == "page":
            step["state"][PREDICT_PARAM] = "1"
        else:
            step["state"].pop(PREDICT_PARAM, None)
    kind = state.get(f"{key}.kind", "none")
    if kind == "none":
        step.pop("question", None)
    elif kind == "page":
        step["question"] = {"kind": "page"}
    else:
        old = step.get("question") or {}
        old_options = old.get("options", [])
        options = []
        for slot in range(OPTION_SLOTS):
            words = str(state.get(f"{key}.option.{slot}", "")).strip()
            if not words:
                continue
            given = old_options[slot] if slot < len(old_options) else {}
            options.append(
                {
                    "text": {**given.get("text", {}), lang: words},
                    "right": bool(state.get(f"{key}.right.{slot}")),
                    "feedback": {
                        **given.get("feedback", {}),
                        lang: str(state.get(f"{key}.feedback.{slot}", "")),
                    },
                }
            )
        text = {**old.get("text", {}), lang: str(state.get(f"{key}.question", ""))}
        step["question"] = {"kind": "choice", "text": text, "options": options}
    st.session_state[EDITING] = None
    _bump()


def _document(draft: dict[str, Any]) -> dict[str, Any]:
    title = {k: v for k, v in draft["title"].items() if v}
    return {"format": FORMAT, "version": VERSION, "title": title or None, "steps": draft["steps"]}


def _finish(draft: dict[str, Any], schemas: Mapping[str, PageSchema]) -> None:
    """What the draft opens as: the sentence of what it leaves out, Download and Take it."""
    if not draft["steps"]:
        st.caption(t("lessons.author.empty"))
        return
    opened = read_lesson(_document(draft), schemas)
    if opened.left_out:
        st.warning(bar.left_out_sentence(opened.left_out))
    if opened.lesson is None:
        return
    download, take = st.columns(2)
    download.download_button(
        t("lessons.author.download"),
        data=deferred(lesson_json(opened.lesson)),
        file_name="attention-explorer-lesson.json",
        mime="application/json",
        key="lessons.author.download",
        on_click="ignore",
        icon=":material/download:",
        width="stretch",
    )
    take.button(
        t("lessons.author.take"),
        key="lessons.author.take",
        on_click=bar.open_lesson,
        args=(opened, address_form(opened.lesson)),
        icon=":material/play_arrow:",
        width="stretch",
    )
    if address_form(opened.lesson) is None:
        st.caption(t("lessons.author.too_long"))


def _open_file(key: str, schemas: Mapping[str, PageSchema]) -> None:
    """A lesson file: taken at once from its first step, and made the draft (to edit)."""
    upload = st.session_state.get(key)
    if upload is None:
        return
    _bump()
    data = upload.getvalue() if upload.size <= FILE_LIMIT else b" " * (FILE_LIMIT + 1)
    opened = read_lesson(data, schemas)
    if opened.lesson is not None:
        document = lesson_document(opened.lesson)
        st.session_state[DRAFT] = {"title": document.get("title", {}), "steps": document["steps"]}
        st.session_state[EDITING] = None
    bar.open_lesson(opened, address_form(opened.lesson) if opened.lesson else None)
