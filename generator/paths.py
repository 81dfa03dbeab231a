"""SVG path data (M L H V C Q Z, absolute and relative) -> absolute path commands."""

from __future__ import annotations

import re

from generator.drawing import PathCmd

_TOKEN = re.compile(r"[MLHVCQZmlhvcqz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "Q": 4, "Z": 0}


def parse_path(d: str) -> tuple[PathCmd, ...]:
    """Parse path data into absolute ("M"|"L"|"C"|"Z", ...) commands; quadratics become cubics."""
    tokens = _TOKEN.findall(d)
    leftover = _TOKEN.sub("", d).replace(",", "").strip()
    if leftover:
        raise ValueError(f"unexpected '{leftover[:10]}' in path data")
    out: list[PathCmd] = []
    i = 0
    cmd = ""
    x = y = sx = sy = 0.0
    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            cmd = tok
            i += 1
            if cmd in "Zz":
                out.append(("Z",))
                x, y = sx, sy
                continue
        elif not cmd:
            raise ValueError("path data must start with M")
        up = cmd.upper()
        rel = cmd.islower()
        n = _ARITY[up]
        args = tokens[i:i + n]
        if len(args) < n:
            raise ValueError(f"'{cmd}' needs {n} numbers")
        try:
            v = [float(a) for a in args]
        except ValueError:
            raise ValueError(f"'{cmd}' needs numbers") from None
        i += n
        if up == "M":
            x, y = (x + v[0], y + v[1]) if rel else (v[0], v[1])
            sx, sy = x, y
            out.append(("M", x, y))
            cmd = "l" if rel else "L"  # further pairs are line-tos
        elif up == "L":
            x, y = (x + v[0], y + v[1]) if rel else (v[0], v[1])
            out.append(("L", x, y))
        elif up == "H":
            x = x + v[0] if rel else v[0]
            out.append(("L", x, y))
        elif up == "V":
            y = y + v[0] if rel else v[0]
            out.append(("L", x, y))
        elif up == "C":
            pts = [(x + v[k], y + v[k + 1]) if rel else (v[k], v[k + 1]) for k in (0, 2, 4)]
            out.append(("C", *pts[0], *pts[1], *pts[2]))
            x, y = pts[2]
        elif up == "Q":
            qx, qy = (x + v[0], y + v[1]) if rel else (v[0], v[1])
            ex, ey = (x + v[2], y + v[3]) if rel else (v[2], v[3])
            out.append(("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                        ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey))
            x, y = ex, ey
    if out and out[0][0] != "M":
        raise ValueError("path data must start with M")
    return tuple(out)
