"""Cards, tiles, sheets and boards: flat rectangles, one or two faces from their layouts.

Reference sheets and boards always carry their QR stamp (the errata format's rule); other
kinds when ``--stamp qr`` asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components import Component, Game
from generator.draw.common import face, has_qr, qr_stamp, version_mark
from generator.draw.elements import FitRecord
from generator.drawing import Drawing
from generator.hexgrid import outline_path

if TYPE_CHECKING:
    from generator.draw import Options


def draw(game: Game, comp: Component, opts: Options,
         fits: list[FitRecord]) -> tuple[Drawing, Drawing | None]:
    w, h = comp.size
    front = face(game, comp, comp.front, w, h, opts.bleed, "front", fits)
    back = face(game, comp, comp.back, w, h, opts.bleed, "back", fits) if comp.back else None
    if comp.shape == "hex":  # a hex tile: its cut line, shared with its neighbours'
        for d in (front, back):
            if d is not None:
                d.add(outline_path(w, h))
    if opts.version_mark:
        version_mark(front, comp, safe=opts.safe_zone)
    if (opts.stamp_qr or comp.kind in ("sheet", "board")) and not has_qr(front):
        qr_stamp(front, game, comp, opts.safe_zone)
    return front, back
