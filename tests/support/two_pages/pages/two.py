"""The other page: it draws none of page one's widgets and reads their values."""

import streamlit as st

st.write(f"two: s = {st.session_state.get('s')}, n = {st.session_state.get('n')}")
