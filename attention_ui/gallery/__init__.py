"""The weights gallery's own pieces (pages/gallery.py draws them).

- `cases`: d2l's four special cases of the weights and whether each output lands where the
  case says it must (pure NumPy, tested in tests/pages/gallery/test_cases.py).
- `state`: the session-state keys, value presets, the widget values kept across visits to
  other pages, and the inputs borrowed from the Luong and database pages.
- `view`: the page's sections, in the order the page draws them.
"""
