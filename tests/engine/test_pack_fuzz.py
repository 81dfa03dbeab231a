"""The packer on random mixes of pieces: it places every copy once, inside the printable
area, no piece's bleed on another's trim, backs only behind upright pieces, and it never
hangs or fails with anything but a one-line ValueError for a piece no sheet can hold."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from components.schema import Component
from generator.draw import Faces
from generator.drawing import Drawing
from generator.layout import Settings
from generator.pack import impose_game

piece = st.tuples(
    st.floats(8, 260), st.floats(8, 260),  # size
    st.sampled_from([0.0, 3.0]),  # bleed
    st.booleans(),  # a back
    st.integers(1, 6),  # copies
    st.sampled_from(["tile", "card", "standee", "board", "sheet"]),
)


def _faces(pieces: list[tuple[float, float, float, bool, int, str]]) -> list[Faces]:
    out = []
    for k, (w, h, bleed, back, count, kind) in enumerate(pieces):
        w, h = round(w, 1), round(h, 1)
        comp = Component(id=f"p{k}", kind=kind, size=(w, h), count=count, group=f"G{k}",
                         front="f", back="b" if back else None, fields={}, file="x.yaml",
                         line=k + 1)
        out.append(Faces(comp, Drawing(w, h, bleed, key=f"p{k}/front"),
                         Drawing(w, h, bleed, key=f"p{k}/back") if back else None))
    return out


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return (a[0] < b[0] + b[2] - 1e-6 and b[0] < a[0] + a[2] - 1e-6
            and a[1] < b[1] + b[3] - 1e-6 and b[1] < a[1] + a[3] - 1e-6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(piece, min_size=1, max_size=7), st.sampled_from(["letter", "a4"]),
       st.sampled_from(["long", "short", "fold", "none"]))
def test_random_pieces_pack_cleanly(pieces: list[tuple[float, float, float, bool, int, str]],
                                    paper: str, duplex: str) -> None:
    s = Settings(paper=paper, duplex=duplex)
    faces = _faces(pieces)
    try:
        sheets = impose_game(faces, s)
    except ValueError as e:  # a piece too large for any sheet: said in one line
        assert "\n" not in str(e) and "fit" in str(e)
        event("refused")
        return
    event("packed")
    placed: dict[tuple[str, int, str], int] = {}
    for sheet in sheets:
        for i, p in enumerate(sheet.placements):
            if p.part in ("", "A1"):  # a board's first part stands for the board
                key = (p.comp.id, p.copy, p.face)
                placed[key] = placed.get(key, 0) + 1
            x, y, w, h = p.trim
            assert x >= s.margin - 1e-6 and y >= s.margin - 1e-6
            assert x + w <= sheet.w - s.margin + 1e-6 and y + h <= sheet.h - s.margin + 1e-6
            assert p.turn in (0, 90, 180)
            if p.turn == 90:
                assert p.comp.back is None and not p.part
            for q in sheet.placements[i + 1:]:
                assert not _overlap(p.trim, q.trim)
                assert not _overlap(p.clip, q.trim) and not _overlap(q.clip, p.trim)
    for f in faces:  # every copy once, and its back once where the sheets have backs
        for copy in range(1, f.comp.count + 1):
            assert placed.get((f.comp.id, copy, "front")) == 1
            if f.back is not None and duplex in ("long", "short", "fold"):
                assert placed.get((f.comp.id, copy, "back"), 0) <= 1
