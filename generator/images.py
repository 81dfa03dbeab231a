"""Images a definition names are verified before anything draws them.

A game folder is untrusted, so an image may be empty, corrupt, of another format than its name
says, or a "decompression bomb" (a small file that decodes to billions of pixels).
:func:`verify_image` reads the header, refuses what the printers cannot place or what is too
large, then decodes the file once in full so a damaged one is refused here rather than in the
middle of a PDF. Pillow (already reportlab's own image library) does the reading.
"""

from __future__ import annotations

import os
import warnings
from functools import lru_cache
from pathlib import Path

MAX_IMAGE_BYTES = 50_000_000  # the file
MAX_IMAGE_PIXELS = 40_000_000  # width x height: 8000 x 5000, ample for 600 dpi on A3
FORMATS = {"PNG": "PNG", "JPEG": "JPEG"}  # what both the PDF and the SVG sheets can carry


def verify_image(path: Path) -> str | None:
    """None when ``path`` is a readable PNG or JPEG within the limits; else what is wrong."""
    try:
        st = os.stat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    return _verify(str(path), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=256)
def _verify(path: str, size: int, mtime: int) -> str | None:
    from PIL import Image, UnidentifiedImageError

    if size == 0:
        return "the file is empty"
    if size > MAX_IMAGE_BYTES:
        return f"the file is larger than {MAX_IMAGE_BYTES // 1_000_000} MB"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                fmt = im.format or "?"
                if fmt not in FORMATS:
                    return f"a {fmt} image; use PNG or JPEG"
                w, h = im.size
                if w < 1 or h < 1 or w * h > MAX_IMAGE_PIXELS:
                    return (f"{w} x {h} pixels is too large (at most "
                            f"{MAX_IMAGE_PIXELS // 1_000_000} million pixels)")
                im.load()  # decode it all: a damaged file fails here, not mid-print
    except UnidentifiedImageError:
        return "not a PNG or JPEG image (or a damaged one)"
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return "too many pixels (a decompression bomb?)"
    except (OSError, ValueError, SyntaxError, EOFError, MemoryError) as exc:
        return f"a damaged image ({type(exc).__name__})"
    return None
