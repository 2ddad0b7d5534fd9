"""The weights gallery (pages/gallery.py): d2l's special cases of the weights in the plane."""
