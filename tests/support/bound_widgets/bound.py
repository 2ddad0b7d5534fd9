"""The widgets each page of the throw-away app draws, bound to the address: the language switch
as attention_ui/frame.py draws it (the app's codes, shown by name) and the transformer page's
d_model (its session key, its range and default)."""

import streamlit as st
from streamlit.errors import StreamlitAPIException

LANGUAGES = {"en": "English", "ja": "日本語"}  # attention_ui.kit.text.i18n.LANGUAGES


def draw(page: str) -> None:
    st.sidebar.radio(
        "Language",
        options=list(LANGUAGES),
        format_func=LANGUAGES.get,
        key="lang",
        horizontal=True,
        bind="query-params",
        persist_state="session",
    )
    st.number_input(
        "d_model",
        1,
        64,
        8,
        key="transformer.d_model",
        bind="query-params",
        persist_state="session",
    )
    if st.button("rewrite the address"):  # as kit/share/address.update_address does
        try:
            st.query_params.from_dict({"lang": "ja", "v": "1", "d": "5"})
        except StreamlitAPIException as error:
            st.write(f"refused: {type(error).__name__}")
    # A menu link as attention_ui.kit.state.navigation.link_params builds it.
    other = "two" if page == "one" else "one"
    st.page_link(f"pages/{other}.py", label=f"menu: {other}", query_params={"lang": "ja"})
    st.page_link(f"pages/{other}.py", label=f"bare: {other}")
    shown = {"lang": st.session_state["lang"], "d_model": st.session_state["transformer.d_model"]}
    st.write(f"{page}: {shown}")
