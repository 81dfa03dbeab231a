"""Exports for where people play and print beyond the home printer.

``tts``: Tabletop Simulator deck sheets, token/tile/board images and a saved object.
``pod``: print-on-demand faces for The Game Crafter, MakePlayingCards and DriveThruCards.
``common``: what both share: drawing the faces, confined paths, the manifest.
Every image is a PDFium raster of a PDF page written by irata's own PDF backend
(``generator.raster``).
"""
