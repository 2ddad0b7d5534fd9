"""Page one of the throw-away app: the bound widgets and what they hold."""

from bound import draw

draw("one")
