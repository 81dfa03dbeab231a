"""The Game Crafter's punchouts, tiles, boards and standees: which of a game's pieces it makes,
and their faces as the shop's images.

The sizes are The Game Crafter's product images, in pixels at 300 dpi with 1/8" bleed on every
side (its templates: ``thegamecrafter.com/make/products/<Identity>``), so a product's trim is
its pixels / 300 less 1/4" each way: a Quad-Fold Game Board of 5475 x 5475 px is 18" square, a
Large Circle Chit of 375 x 375 px is 1" across.

The rule is the cards' (``generator.export.pod``): a piece whose trim is within 0.5 mm of a
product's (either orientation) is exported, drawn at its own size and resampled to the
product's exact pixels (the manifest says so); any other piece is named with its size and the
sizes the shop makes in that shape, and never scaled. A landscape piece is turned a quarter
clockwise to the product's portrait image, as a card is.

What the shop makes decides the sides: a chit, tile, standee or flat board has a face and a
back (a piece whose definition has no back gets its face alone, as a one-sided card does), a
folding board its face alone (a definition's back is named, not exported). A standee is its
figure, front and back upright (its front again where it has no back, as on irata's printed
strip), without the base and folds irata prints for home: the shop's standees stand in a
plastic base.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from components import Component, Game

if TYPE_CHECKING:
    from generator.draw import Faces
    from generator.draw.elements import FitRecord
    from generator.drawing import Drawing

INCH = 25.4
DPI = 300.0
BLEED_MM = INCH / 8
TOLERANCE_MM = 0.5
URL = "https://www.thegamecrafter.com/make/products/"


@dataclass(frozen=True)
class Product:
    """One of The Game Crafter's products: its identity (its page's last part), its name,
    the irata kinds and shape it takes, its image in pixels (portrait, bleed included), and
    whether it prints a back."""

    identity: str
    name: str
    kinds: tuple[str, ...]
    shape: str
    pixels: tuple[int, int]
    two_sided: bool = True

    @property
    def trim_mm(self) -> tuple[float, float]:
        w, h = self.pixels
        return (round(w / DPI * INCH - 2 * BLEED_MM, 3), round(h / DPI * INCH - 2 * BLEED_MM, 3))

    @property
    def url(self) -> str:
        return URL + self.identity


CHITS = ("token", "tile")
PRODUCTS: tuple[Product, ...] = (
    Product("SmallCircleChit", "Small Circle Chit", CHITS, "round", (225, 225)),
    Product("MediumCircleChit", "Medium Circle Chit", CHITS, "round", (300, 300)),
    Product("LargeCircleChit", "Large Circle Chit", CHITS, "round", (375, 375)),
    Product("MiniCircleTile", "Mini Circle Tile", CHITS, "round", (450, 450)),
    Product("SmallSquareChit", "Small Square Chit", CHITS, "square", (225, 225)),
    Product("MediumSquareChit", "Medium Square Chit", CHITS, "square", (300, 300)),
    Product("LargeSquareChit", "Large Square Chit", CHITS, "square", (375, 375)),
    Product("MiniSquareTile", "Mini Square Tile", CHITS, "square", (450, 450)),
    Product("SmallSquareTile", "Small Square Tile", CHITS, "square", (675, 675)),
    Product("MediumSquareTile", "Medium Square Tile", CHITS, "square", (825, 825)),
    Product("LargeSquareTile", "Large Square Tile", CHITS, "square", (1125, 1125)),
    Product("DominoChit", "Domino Chit", CHITS, "square", (375, 675)),
    Product("StripChit", "Strip Chit", CHITS, "square", (375, 975)),
    Product("DominoTile", "Domino Tile", CHITS, "square", (675, 1275)),
    # flat-topped, corner to corner across: 95.25 x 82.55 mm, a regular hexagon (82.55 mm flat
    # to flat, irata's ``shape: hex, size: 82.55``). The shop's smaller hex tiles are left
    # out: their images less 1/8" a side are no regular hexagon (Small 50.8 x 44.45 mm,
    # Medium 63.5 x 57.15), so their bleed is not known here.
    Product("LargeHexTile", "Large Hex Tile", CHITS, "hex", (1200, 1050)),
    Product("SmallStandee", "Small Standee", ("standee",), "square", (225, 525)),
    Product("MediumStandee", "Medium Standee", ("standee",), "square", (300, 750)),
    Product("LargeStandee", "Large Standee", ("standee",), "square", (375, 975)),
    Product("QuarterBoard", "Quarter Board", ("board",), "square", (1575, 1575)),
    Product("SmallSquareBoard", "Small Square Board", ("board",), "square", (1275, 1275)),
    Product("SquareBoard", "Square Board", ("board",), "square", (2475, 2475)),
    Product("LargeSquareBoard", "Large Square Board", ("board",), "square", (3075, 3075)),
    Product("SliverBoard", "Sliver Board", ("board",), "square", (675, 2475)),
    Product("StripBoard", "Strip Board", ("board",), "square", (675, 3075)),
    Product("SkinnyBoard", "Skinny Board", ("board",), "square", (1275, 3075)),
    Product("DominoBoard", "Domino Board", ("board",), "square", (1275, 2475)),
    Product("HalfBoard", "Half Board", ("board",), "square", (1575, 3075)),
    Product("AccordionBoard", "Accordion Board", ("board",), "square", (2475, 4875)),
    Product("BiFoldBoard", "Bi-Fold Game Board", ("board",), "square", (2775, 5475), False),
    Product("QuadFoldBoard", "Quad-Fold Game Board", ("board",), "square", (5475, 5475), False),
    Product("MediumSixFoldBoard", "Medium Six-Fold Game Board", ("board",), "square",
            (4875, 4875), False),
    Product("LargeQuadFoldBoard", "Large Quad-Fold Game Board", ("board",), "square",
            (6075, 6075), False),
    Product("SixFoldBoard", "Six-Fold Game Board", ("board",), "square", (5475, 8175), False),
)
KINDS = ("token", "tile", "standee", "board")


def shape_of(comp: Component) -> str:
    """The shape a product must have for ``comp``: a token's or tile's own, else square."""
    return comp.shape if comp.kind in CHITS else "square"


def match(comp: Component) -> tuple[Product, bool] | None:
    """The product that makes ``comp`` at its size, and whether the piece is turned from
    landscape to the product's portrait image; None when the shop makes no such piece."""
    w, h = comp.size
    for p in PRODUCTS:
        if comp.kind not in p.kinds or p.shape != shape_of(comp):
            continue
        pw, ph = p.trim_mm
        if abs(w - pw) <= TOLERANCE_MM and abs(h - ph) <= TOLERANCE_MM:
            return p, False
        if abs(w - ph) <= TOLERANCE_MM and abs(h - pw) <= TOLERANCE_MM:
            return p, True
    return None


def why_not(comps: list[Component]) -> list[str]:
    """Why each of ``comps`` is not exported, one line for the pieces of one kind, shape and
    size (a game's 46 Land tiles are one reason), naming the sizes the shop makes."""
    alike: dict[tuple[object, ...], list[Component]] = {}
    for c in comps:
        key = (c.kind, shape_of(c), *c.size) if c.kind in KINDS else (c.kind,)
        alike.setdefault(key, []).append(c)
    return [_why_not(group) for group in alike.values()]


def _size(w: float, h: float, shape: str = "square") -> str:
    if w != h:
        return f"{w:g} x {h:g} mm"
    return f"{w:g} mm across" if shape == "round" else f"{w:g} mm square"


def _why_not(comps: list[Component]) -> str:
    comp = comps[0]
    where = f"{comp.id} ({comp.file}:{comp.line})"
    if len(comps) > 1:
        alike = " of its size" if comp.kind in KINDS else ""
        where = (f"{comp.id} ({comp.file}:{comp.line}) and {len(comps) - 1} more "
                 f"{comp.kind}{'s' if len(comps) > 2 else ''}{alike}")
    if comp.kind not in KINDS:
        return (f"{where}: The Game Crafter makes no {comp.kind} as irata prints it "
                f"(it exports cards, tokens, tiles, standees and boards)")
    shape = shape_of(comp)
    sizes = [f"{p.name} {_size(*p.trim_mm, shape)}" for p in PRODUCTS
             if comp.kind in p.kinds and p.shape == shape]
    what = f"{shape} {comp.kind}" if comp.kind in CHITS else comp.kind
    return (f"{where}: {_size(*comp.size, shape)} is not the size of a The Game Crafter {what} "
            f"({', '.join(sizes)}); not scaled")


def faces_of(game: Game, f: Faces, safe: float) -> list[tuple[str, Drawing]]:
    """The faces the shop prints of one piece, with bleed: a standee's figure drawn anew
    (irata's home strip has no bleed), any other piece's faces as ``irata print`` draws them."""
    comp = f.comp
    if comp.kind == "standee":
        from generator.draw.common import face, version_mark

        w, h = comp.size
        fits: list[FitRecord] = []
        front = face(game, comp, comp.front, w, h, BLEED_MM, "front", fits)
        version_mark(front, comp, safe=safe)
        back_spec = comp.back if comp.back is not None else comp.front
        return [("front", front), ("back", face(game, comp, back_spec, w, h, BLEED_MM, "back",
                                                fits))]
    out = [("front", f.front)]
    if f.back is not None:
        out.append(("back", f.back))
    return out
