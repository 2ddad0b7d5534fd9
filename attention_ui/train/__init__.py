"""Watch attention learn: train a tiny attention model and scrub through its training."""
