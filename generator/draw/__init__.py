"""One component -> its faces as Drawings, by kind.

Flat kinds (card, tile, sheet, board) draw each face from its layout (``flat``); tokens add
their cut circle (``token``); dice become a cube net (``die``); standees a fold strip
(``standee``). Every face gets the component's small version mark and, when asked, a QR stamp.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from components import Component, Game
from generator.draw import die, flat, standee, token
from generator.draw.elements import FitRecord
from generator.drawing import Drawing


@dataclass
class Options:
    """Drawing options that come from the command line."""

    bleed: float = 3.0
    stamp_qr: bool = False
    version_mark: bool = True
    ink: str = "full"  # or "saver": see generator.ink
    safe_zone: float = 0.0  # mm inside the trim irata's own marks keep to (a shop's, on export)
    cut_line: bool = True  # a round token's cut circle, for scissors (a shop's die needs none)


INKS = ("full", "saver")


@dataclass(slots=True)
class Faces:
    """A component's drawings: ``front`` always, ``back`` for two-sided ones."""

    comp: Component
    front: Drawing
    back: Drawing | None
    fits: list[FitRecord] = field(default_factory=list)


def draw_component(game: Game, comp: Component, opts: Options) -> Faces:
    fits: list[FitRecord] = []
    if comp.kind == "die":
        front, back = die.draw(game, comp, opts, fits), None
    elif comp.kind == "standee":
        front, back = standee.draw(game, comp, opts, fits), None
    elif comp.kind == "token":
        front, back = token.draw(game, comp, opts, fits)
    else:
        front, back = flat.draw(game, comp, opts, fits)
    if opts.ink == "saver":
        from generator.ink import saver

        round_face = comp.kind == "token" and comp.shape == "round"
        front = saver(game, front, round_face)
        back = saver(game, back, round_face) if back is not None else None
    return Faces(comp, front, back, fits)
