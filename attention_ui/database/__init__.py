"""The database lookup page's own pieces (pages/database.py draws them).

- `state`: the session-state keys, the table presets, the guided story and the callbacks
  that load them, and the widget values kept across visits to other pages.
- `view`: the page's sections, in the order the page draws them.
"""
