"""Definitions -> printable files: drawing, imposition, PDF and SVG backends, the build."""
