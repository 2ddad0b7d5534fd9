"""Every grid of the app: one editor (`cell_grid`, a custom component of real <input> cells)
and one store behind it (`store`)."""
