"""A page that draws given Plotly chart specs and nothing else: bench/browser.py's baseline for
opening a page of the app in a fresh browser (the same charts, none of the page's other work).

    streamlit run bench/specs_app.py -- SPECS.json

SPECS.json maps a page's name to the list of chart specs (Plotly JSON, as the app sent them
when that page opened); `?page=<name>` draws that page's list. Not part of the app.
"""

import json
import sys
from pathlib import Path

import streamlit as st

SPECS = json.loads(Path(sys.argv[1]).read_text()) if len(sys.argv) > 1 else {}

for number, spec in enumerate(SPECS.get(st.query_params.get("page", ""), [])):
    st.plotly_chart(json.loads(spec), key=f"specs.{number}")
