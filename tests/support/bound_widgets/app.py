"""A throw-away app for tests/browser/test_bound_address.py: what Streamlit's
bind="query-params" does to a language switch like ours and to a page setting, in a multipage
app served from pages/ as ours is (each page draws the shared widgets itself)."""

import streamlit as st

st.switch_page("pages/one.py")
