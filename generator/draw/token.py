"""Tokens: round, hex or square counters, one or two sided. Round ones carry their cut circle,
hex ones their cut hexagon."""

from __future__ import annotations

from typing import TYPE_CHECKING

from components import Component, Game
from generator.draw.common import face, has_qr, qr_stamp, version_mark
from generator.draw.elements import FitRecord
from generator.drawing import Drawing, Ellipse, Style
from generator.hexgrid import outline_path

if TYPE_CHECKING:
    from generator.draw import Options

CUT = Style(stroke="#555555", width=0.15)


def draw(game: Game, comp: Component, opts: Options,
         fits: list[FitRecord]) -> tuple[Drawing, Drawing | None]:
    w, h = comp.size
    front = face(game, comp, comp.front, w, h, opts.bleed, "front", fits)
    back = face(game, comp, comp.back, w, h, opts.bleed, "back", fits) if comp.back else None
    for d in (front, back):
        if d is not None and comp.shape == "round" and opts.cut_line:
            d.add(Ellipse(w / 2, h / 2, w / 2, h / 2, CUT))
        elif d is not None and comp.shape == "hex":
            d.add(outline_path(w, h))  # the cut line it shares with its neighbours
    if opts.version_mark and min(w, h) >= 20:
        version_mark(front, comp, h * 0.9 if comp.shape == "round" else None, opts.safe_zone)
    if opts.stamp_qr and min(w, h) >= 40 and not has_qr(front):
        qr_stamp(front, game, comp, opts.safe_zone)
    return front, back
