"""attention_ui: what the pages of Attention Explorer share.

- `i18n`: the English/Japanese catalogs and `t(key)`.
- `frame`: the language switch, page headers, error display.
- `matrix_editor`: an editable, server-validated matrix grid (on `kit.grids`, the app's one
  grid editor and its one store).
- `figures`: Plotly figure builders (pure functions).
- `text`: making user text inert inside Markdown.
"""
