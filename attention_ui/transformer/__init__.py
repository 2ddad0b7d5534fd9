"""The self-attention and multi-head page: sections (view), keys and callbacks (state), pure
helpers (model) and figures (figures)."""
