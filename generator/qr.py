"""QR codes: the module matrix is computed once per payload (cached), never once per copy."""

from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode.constants import ERROR_CORRECT_M

QUIET = 2  # modules of quiet zone, part of the given size


@lru_cache(maxsize=1024)
def matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    q = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    q.add_data(payload)
    q.make(fit=True)
    return tuple(tuple(bool(v) for v in row) for row in q.get_matrix())


@lru_cache(maxsize=1024)
def _runs(payload: str) -> tuple[tuple[int, int, int], ...]:
    """Dark modules as horizontal runs (row, first column, length): fewer, larger rectangles."""
    out: list[tuple[int, int, int]] = []
    for r, row in enumerate(matrix(payload)):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                out.append((r, start, c - start))
            else:
                c += 1
    return tuple(out)


def qr_rects(payload: str, x: float, y: float,
             size: float) -> list[tuple[float, float, float, float]]:
    """Dark rectangles (x, y, w, h) in mm for a code of side ``size`` (quiet zone included)."""
    n = len(matrix(payload)) + 2 * QUIET
    m = size / n
    ox, oy = x + QUIET * m, y + QUIET * m
    return [(ox + c * m, oy + r * m, k * m, m) for r, c, k in _runs(payload)]
