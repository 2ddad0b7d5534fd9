"""Attention Explorer's entry point (`streamlit run app.py`).

Streamlit serves every script in pages/ at /<file name> (luong.py at /luong, and so on); the
pages themselves draw the shared frame (language, translated menu: attention_ui/frame.py), and
attention_ui/page_list.py lists them. The bare address opens the home page, keeping the query
string (`/?lang=ja` opens the home page in Japanese).
"""

import streamlit as st

from attention_ui.page_list import HOME

st.switch_page(HOME.path, query_params=st.query_params.to_dict())
