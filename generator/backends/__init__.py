"""Backends: a Sheet -> PDF pages (reportlab) or SVG files (svgwrite)."""
