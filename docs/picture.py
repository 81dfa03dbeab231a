"""Makes docs/sheet.png, the README's picture: a few printed sheets side by side.

    irata print && python docs/picture.py      (needs pymupdf and pillow: pip install -e '.[test]')
"""

from __future__ import annotations

import sys
from pathlib import Path

import pymupdf
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
# (game, page number in its PDF): a player board, cards, tiles, a board part
PAGES = [("mule", 1), ("mule", 17), ("mutagen", 1), ("outer-earth", 19)]


def main() -> None:
    out = ROOT / "output"
    ims = []
    for game, page in PAGES:
        pdf = out / game / f"{game}.pdf"
        if not pdf.is_file():
            sys.exit(f"{pdf} is missing: run 'irata print' first")
        doc = pymupdf.open(pdf)
        p = doc[min(page, doc.page_count) - 1]
        pix = p.get_pixmap(dpi=50)
        ims.append(Image.frombytes("RGB", (pix.width, pix.height), pix.samples))
    h = max(im.height for im in ims)
    gap = 12
    sheet = Image.new("RGB", (sum(im.width for im in ims) + gap * (len(ims) + 1), h + 2 * gap),
                      "#d0d0d0")
    x = gap
    for im in ims:
        sheet.paste(im, (x, gap + (h - im.height) // 2))
        x += im.width + gap
    sheet.save(ROOT / "docs" / "sheet.png", optimize=True)
    print(f"wrote docs/sheet.png ({sheet.width} x {sheet.height})")


if __name__ == "__main__":
    main()
