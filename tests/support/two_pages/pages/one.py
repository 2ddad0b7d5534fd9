"""A page with keyed widgets kept by Streamlit: a slider with a default set before it is drawn,
a number box that the checkbox hides, and a button whose callback sets the number box."""

import streamlit as st


def set_number() -> None:
    st.session_state["n"] = 42.0


st.session_state.setdefault("s", 5)
st.button("set", key="b", on_click=set_number)
st.slider("s", 0, 10, key="s", persist_state="session")
if not st.session_state.get("hide", False):
    st.number_input("n", key="n", persist_state="session")
st.checkbox("hide", key="hide", persist_state="session")
st.write(f"n read: {st.session_state.get('n')}")
