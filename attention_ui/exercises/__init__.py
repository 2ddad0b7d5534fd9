"""The exercises page: d2l's four exercises, live (state.py holds its keys, view.py draws it)."""
