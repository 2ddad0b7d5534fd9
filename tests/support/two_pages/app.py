"""A two-page app for the checks of what Streamlit's persist_state="session" keeps
(tests/kit/state/test_persist_state.py, tests/browser/test_persist_state.py)."""

import streamlit as st

st.navigation([st.Page("pages/one.py"), st.Page("pages/two.py")]).run()
