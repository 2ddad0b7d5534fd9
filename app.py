"""Attention Explorer: the router. It sets the page, the language and the navigation; the
pages in pages/ do the rest."""

import streamlit as st

from attention_ui.frame import language_switch, setup_language
from attention_ui.i18n import t

st.set_page_config(page_title="Attention Explorer", page_icon="🔍", layout="wide")
setup_language()
pages = [
    st.Page("pages/home.py", title=t("nav.home"), icon="🏠", url_path="home", default=True),
    st.Page("pages/luong.py", title=t("nav.luong"), icon="🧮", url_path="luong"),
    st.Page("pages/database.py", title=t("nav.database"), icon="🗂️", url_path="database"),
    st.Page("pages/gallery.py", title=t("nav.gallery"), icon="🖼️", url_path="gallery"),
]
page = st.navigation(pages)
language_switch()
page.run()
