"""The shared UI kit: what every page uses, grouped by what it is."""
