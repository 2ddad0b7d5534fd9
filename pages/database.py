import streamlit as st

st.title("Under construction")
