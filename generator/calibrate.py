"""The duplex alignment sheet: vernier scales on both axes, a main scale on the front and a
vernier on the back, placed by the same mirror rule the backs of components follow.

Print it duplex, hold it to the light, and read each scale: the main-scale number just before
the vernier's zero, plus the tenth given by the vernier line that lines up with a main-scale
line. The labels are signed so that the two readings are exactly what ``--back-offset X,Y``
takes.
"""

from __future__ import annotations

from generator.drawing import Line, Primitive, Rect, Style, Text
from generator.layout import Settings, Sheet, footer, mirror, page_size

INK = Style(stroke="#000000", width=0.12)
HALF = 10  # the main scale runs from -10 to +10 mm


def _main_scale(cx: float, cy: float, horizontal: bool, sign: int) -> list[Primitive]:
    out: list[Primitive] = []
    for i in range(-HALF, HALF + 1):
        t = 4.0 if i % 5 == 0 else 2.5
        if horizontal:
            out.append(Line(cx + i, cy - t, cx + i, cy, INK))
            if i % 5 == 0:
                out.append(Text(cx + i, cy - t - 0.8, f"{sign * i:+d}".replace("+0", "0"),
                                "Helvetica", 5, "#000000", "middle"))
        else:
            out.append(Line(cx - t, cy + i, cx, cy + i, INK))
            if i % 5 == 0:
                out.append(Text(cx - t - 0.8, cy + i + 0.6, f"{sign * i:+d}".replace("+0", "0"),
                                "Helvetica", 5, "#000000", "end"))
    return out


def _vernier(cx: float, cy: float, horizontal: bool) -> list[Primitive]:
    """Ten divisions over 9 mm: the k-th line lines up with the main scale at k tenths."""
    out: list[Primitive] = []
    for k in range(11):
        # towards the back's negative side: seen through the paper, that is the direction in
        # which the front's labels count up, on a mirrored axis and a plain one alike
        off = -k * 0.9
        t = 4.0 if k in (0, 5, 10) else 2.5
        if horizontal:
            out.append(Line(cx + off, cy, cx + off, cy + t, INK))
            if k in (0, 5, 10):
                out.append(Text(cx + off, cy + t + 2.2, str(k), "Helvetica", 5, "#000000",
                                "middle"))
        else:
            out.append(Line(cx, cy + off, cx + t, cy + off, INK))
            if k in (0, 5, 10):
                out.append(Text(cx + t + 0.8, cy + off + 0.6, str(k), "Helvetica", 5, "#000000"))
    return out


def calibration_sheets(s: Settings) -> list[Sheet]:
    if s.duplex in ("none", "fold"):
        s = Settings(s.paper, "long", s.bleed, s.margin, (0.0, 0.0))
    W, H = page_size(s.paper, False)
    front = Sheet(W, H, "front", "Duplex calibration")
    back = Sheet(W, H, "back", "Duplex calibration")
    # a reading r seen from the front means the back landed r off; the offset undoes it, and
    # a mirrored axis turns the sign once more
    zero = Settings(s.paper, s.duplex, s.bleed, s.margin, (0.0, 0.0))
    probe = mirror((10.0, 10.0, 0.0, 0.0), W, H, zero, False)
    mirrored_x = abs(probe[0] - 10.0) > 1e-9
    mirrored_y = abs(probe[1] - 10.0) > 1e-9
    sx = 1 if mirrored_x else -1
    sy = 1 if mirrored_y else -1
    spots = [(W / 2, H * 0.3), (W * 0.3, H * 0.65), (W * 0.7, H * 0.65)]
    for cx, cy in spots:
        front.marks.extend(_main_scale(cx - 0.0, cy, True, sx))
        front.marks.extend(_main_scale(cx - 25, cy + 15, False, sy))
        # the back's scales, at the mirror image of where the front's zero lines are
        bx, by, _, _ = mirror((cx, cy, 0.0, 0.0), W, H, zero, False)
        vx, vy, _, _ = mirror((cx - 25, cy + 15, 0.0, 0.0), W, H, zero, False)
        back.marks.extend(_vernier(bx, by, True))
        back.marks.extend(_vernier(vx, vy, False))
    m = s.margin + 6
    lines = [
        "Duplex calibration: print this page double-sided at 100% with the same settings you "
        f"will use ({s.duplex} edge), then hold it to the light.",
        "On each horizontal scale: take the front's number just before the back's 0 line "
        "(counting up), then add the tenths of the back's line (0-10) that lines up best "
        "with a front line.",
        "Do the same on the vertical scales. Pass the two readings to irata print as "
        "--back-offset X,Y (for example --back-offset 1.3,-0.4).",
        "Three places are given: if they disagree, the printer also rotates or scales the "
        "back; use the top reading and cut a little inside the lines.",
    ]
    for i, text in enumerate(lines):
        front.marks.append(Text(m, m + 6 + i * 5, text, "Helvetica", 7 if i else 8.5,
                                "#222222"))
    front.marks.append(Rect(W / 2 - 40, H * 0.82, 80, 20, Style(stroke="#000000", width=0.2)))
    front.marks.append(Text(W / 2, H * 0.82 + 12, "Front", "Helvetica-Bold", 20, "#000000",
                            "middle"))
    b = mirror((W / 2 - 40, H * 0.82, 80, 20), W, H, zero, False)
    back.marks.append(Rect(*b, Style(stroke="#000000", width=0.2)))
    back.marks.append(Text(b[0] + 40, b[1] + 12, "Back", "Helvetica-Bold", 20, "#000000",
                           "middle"))
    for i, sh in enumerate((front, back)):
        sh.page = i + 1
        footer(sh, f"irata duplex calibration · {s.paper} · {s.duplex} edge · "
                   f"{'front' if i == 0 else 'back'} · print at 100% (actual size)", s)
    return [front, back]
