"""Built-in vector icons, drawn as elements in a 10 x 10 box (the same format a game uses for
its own icons under ``icons:`` in game.yaml). Colour names resolve through the game's palette
first, so a game that names ``food`` in its palette recolours the Food icon too.
"""

from __future__ import annotations

from typing import Any

DEFAULT_COLOURS: dict[str, str] = {
    "black": "#000000",
    "white": "#ffffff",
    "grey": "#808080",
    "gray": "#808080",
    "lightgrey": "#d9d9d9",
    "red": "#c62828",
    "green": "#2e7d32",
    "blue": "#1565c0",
    "yellow": "#f9a825",
    "orange": "#ef6c00",
    "purple": "#6a1b9a",
    "pink": "#d81b60",
    "brown": "#6d4c41",
    "food": "#3c9a3c",
    "energy": "#e6a817",
    "smithore": "#8d6e63",
    "crystite": "#1e88e5",
    "money": "#c9a227",
    "shard": "#8e44ad",
    "ink": "#222222",
    "paper": "#ffffff",
}

BUILTIN: dict[str, list[dict[str, Any]]] = {
    "food": [
        {"type": "ellipse", "cx": 5, "cy": 5.8, "rx": 3.9, "ry": 3.7, "fill": "food"},
        {"type": "path", "d": "M5 2.6 C5.2 1.2 6.4 0.4 8 0.6 C7.8 2 6.6 2.8 5 2.6 Z",
         "fill": "food"},
        {"type": "line", "x1": 5, "y1": 2.2, "x2": 5, "y2": 3.4, "stroke": "brown",
         "stroke_width": 0.6},
    ],
    "energy": [
        {"type": "path", "d": "M6.2 0.4 L1.8 5.8 L4.6 5.8 L3.4 9.6 L8.2 3.9 L5.3 3.9 Z",
         "fill": "energy", "stroke": "#8a5a00", "stroke_width": 0.35},
    ],
    "smithore": [
        {"type": "path", "d": "M0.8 7.8 L2.6 3.2 L7.4 3.2 L9.2 7.8 Z", "fill": "smithore",
         "stroke": "#4e342e", "stroke_width": 0.35},
        {"type": "line", "x1": 2.6, "y1": 3.2, "x2": 3.4, "y2": 7.8, "stroke": "#bcaaa4",
         "stroke_width": 0.35},
    ],
    "crystite": [
        {"type": "path", "d": "M5 0.6 L9 4.2 L5 9.4 L1 4.2 Z", "fill": "crystite",
         "stroke": "#0d47a1", "stroke_width": 0.35},
        {"type": "path", "d": "M1 4.2 L9 4.2 M3.2 4.2 L5 0.6 L6.8 4.2 L5 9.4 L3.2 4.2",
         "stroke": "#bbdefb", "stroke_width": 0.3},
    ],
    "money": [
        {"type": "ellipse", "cx": 5, "cy": 5, "r": 4.4, "fill": "money", "stroke": "#7a5c00",
         "stroke_width": 0.4},
        {"type": "path", "d": "M6.6 3.3 C6 2.6 3.6 2.5 3.6 3.9 C3.6 5.3 6.6 4.6 6.6 6.2 "
                              "C6.6 7.6 4 7.5 3.3 6.7 M5 1.9 L5 8.1",
         "stroke": "#ffffff", "stroke_width": 0.7},
    ],
    "mule": [
        {"type": "rect", "x": 1.5, "y": 3, "w": 6, "h": 3.4, "radius": 0.8, "fill": "ink"},
        {"type": "rect", "x": 6.6, "y": 1.2, "w": 2.6, "h": 2.6, "radius": 0.5, "fill": "ink"},
        {"type": "rect", "x": 2, "y": 6.2, "w": 0.9, "h": 2.8, "fill": "ink"},
        {"type": "rect", "x": 5.8, "y": 6.2, "w": 0.9, "h": 2.8, "fill": "ink"},
        {"type": "ellipse", "cx": 8.2, "cy": 2.3, "r": 0.45, "fill": "energy"},
    ],
    "shard": [
        {"type": "path", "d": "M4.2 0.5 L8.6 3.6 L6.4 9.5 L1.4 6.8 Z", "fill": "shard",
         "stroke": "#4a148c", "stroke_width": 0.35},
        {"type": "path", "d": "M4.2 0.5 L4.8 5.2 L8.6 3.6 M4.8 5.2 L6.4 9.5 M4.8 5.2 L1.4 6.8",
         "stroke": "#e1bee7", "stroke_width": 0.3},
    ],
    "star": [
        {"type": "path", "d": "M5 0.5 L6.3 3.6 L9.6 3.8 L7 6 L7.9 9.3 L5 7.5 L2.1 9.3 L3 6 "
                              "L0.4 3.8 L3.7 3.6 Z", "fill": "yellow", "stroke": "#8a5a00",
         "stroke_width": 0.3},
    ],
    "vp": [
        {"type": "path", "d": "M1 1 L9 1 L9 5.5 C9 8 7 9.2 5 9.7 C3 9.2 1 8 1 5.5 Z",
         "fill": "#2e5e8c", "stroke": "#12324f", "stroke_width": 0.35},
        {"type": "path", "d": "M3 3.6 L5 7 L7 3.6", "stroke": "#ffffff", "stroke_width": 0.9},
    ],
    "card": [
        {"type": "rect", "x": 2.2, "y": 0.8, "w": 5.6, "h": 8.4, "radius": 0.8,
         "fill": "#ffffff", "stroke": "ink", "stroke_width": 0.5},
        {"type": "rect", "x": 3.2, "y": 1.8, "w": 3.6, "h": 2.6, "fill": "lightgrey"},
    ],
    "x": [
        {"type": "path", "d": "M2 2 L8 8 M8 2 L2 8", "stroke": "red", "stroke_width": 1.4},
    ],
}
