"""What every kind shares: a face drawn from its layout, the version mark, the QR stamp."""

from __future__ import annotations

from typing import Any

from components import Component, Game
from generator.draw.elements import Context, FitRecord, draw_elements
from generator.drawing import PT, QR, Drawing, Text, walk

MARK_SIZE = 3.6  # points: the version mark


def payload(game: Game, comp: Component) -> str:
    """The QR stamp's payload: ``irata:GAME/COMPONENT-ID@VERSION``."""
    return f"irata:{game.key}/{comp.id}@{comp.version}"


def face(game: Game, comp: Component, spec: Any, w: float, h: float, bleed: float,
         name: str, fits: list[FitRecord], extra: dict[str, Any] | None = None) -> Drawing:
    fields = dict(comp.fields)
    fields.setdefault("version", comp.version)
    fields.setdefault("edition", game.edition)
    fields.setdefault("game_name", game.name)
    fields.setdefault("qr", payload(game, comp))
    fields.setdefault("data", game.data)  # ${data.price_track.food.buy_min}: one source
    if extra:
        fields.update(extra)
    ctx = Context(game, comp, fields, w, h, bleed, name, fits)
    d = Drawing(w, h, bleed, draw_elements(ctx, spec), key=f"{comp.id}#{name}")
    return d


def version_mark(d: Drawing, comp: Component, y: float | None = None,
                 safe: float = 0.0) -> None:
    """The component's version, small and grey, centred near the bottom edge (a layout that
    shows ``$version`` itself sets ``version_mark: false`` on the component); with ``safe``,
    raised to keep that far inside the trim (a print shop's safe zone)."""
    if not comp.version or comp.fields.get("version_mark") is False:
        return
    base = d.h - 1.1 if y is None else y
    if safe > 0:
        base = min(base, d.h - safe - 0.4)  # the glyphs' descent stays inside too
    d.add(Text(d.w / 2, base, f"v{comp.version}", "Helvetica", MARK_SIZE, "#8a8a8a", "middle"))


def qr_stamp(d: Drawing, game: Game, comp: Component, safe: float = 0.0) -> None:
    """A small QR code in the bottom-left corner, inside the trim; with ``safe``, at least
    that far inside it (a print shop's safe zone)."""
    side = max(8.0, min(12.0, min(d.w, d.h) * 0.16))
    d.add(QR(payload(game, comp), max(2.0, safe),
             d.h - side - max(2.0 + MARK_SIZE * PT, safe), side))


def has_qr(d: Drawing) -> bool:
    """True when the face's own layout already places its QR stamp (``payload: $qr``)."""
    return any(isinstance(p, QR) for p in walk(d.items))
