"""The Luong explorer's own pieces (pages/luong.py draws them).

- `model`: sizes, labels, masks and parameter shapes: pure functions of the settings.
- `presets`: the example matrices that each tell one story, and the seeded random fill.
- `compare`: every score function that applies to the current Q and K, side by side.
- `formulas`: the LaTeX of each score function in both layouts.
- `state`: the session-state callbacks (load a preset, switch layout, keep d_q = d_k) and
  the per-cell mask editor.
"""
