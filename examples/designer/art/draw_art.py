"""Draws this example's raster art (landscape.png): run it to make the picture again.

The picture is the project's own: flat shapes drawn with Pillow, 1200 x 800 pixels, enough
for 200 dpi and more on a poker card's art box.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

W, H = 1200, 800


def landscape() -> Image.Image:
    im = Image.new("RGB", (W, H))
    d = ImageDraw.Draw(im)
    for y in range(H):  # a dawn sky, deep blue to pale gold
        t = y / H
        d.line([(0, y), (W, y)], fill=(int(40 + 200 * t), int(60 + 140 * t), int(140 - 20 * t)))
    d.ellipse([760, 250, 1000, 490], fill=(255, 196, 64))  # the sun, low on the right
    d.polygon([(0, 560), (260, 380), (520, 600), (0, 800)], fill=(70, 90, 120))
    d.polygon([(300, 620), (640, 330), (980, 640), (1200, 500), (1200, 800), (300, 800)],
              fill=(52, 72, 98))
    d.polygon([(0, 680), (400, 600), (800, 700), (1200, 640), (1200, 800), (0, 800)],
              fill=(40, 110, 70))
    for x in range(80, W, 160):  # a caravan's lanterns along the road
        d.ellipse([x, 700, x + 26, 726], fill=(255, 220, 120))
    return im


if __name__ == "__main__":
    landscape().save(Path(__file__).with_name("landscape.png"), optimize=True)
