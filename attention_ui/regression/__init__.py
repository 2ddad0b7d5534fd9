"""The Nadaraya–Watson regression page: data presets and claims (data.py), the engine runs
(compute.py), widget keys and defaults (state.py), charts (figures.py) and sections (view.py)."""
