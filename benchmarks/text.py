"""Text fitting speed: Latin card texts (measured with the fonts' metrics, as always) and,
where the fonts are installed, Arabic and Hebrew ones (shaped by HarfBuzz), each fitted to a
card's text box from scratch (caches cleared between rounds, as a new build starts).

Prints milliseconds per text box. No asserts on time: compare figures within one machine.

    python benchmarks/text.py [--boxes 2000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from generator import text as t

LATIN = ("Each Land producing Food makes two more this turn and every Mule on a Smithore "
         "plot adds one unit of ore when the Colony ships goods to the store before the "
         "auction closes for the round").split()
ARABIC = "بادل التوابل بفانوسين في سوق القاهرة ثم تحرك القافلة إلى المدينة التالية".split()
HEBREW = "החלף תבלינים בשני פנסים בשוק ואז הזז את השיירה אל העיר הבאה".split()


def texts(words: list[str], n: int, seed: int) -> list[str]:
    rnd = random.Random(seed)
    return [" ".join(rnd.choice(words) for _ in range(40)) + f" {i}" for i in range(n)]


def clear() -> None:
    for fn in (t.fitted, t.tokenize, t._width):
        fn.cache_clear()
    for name in ("_mixed_width", "segments"):
        fn = getattr(t, name, None)
        if fn is not None:
            fn.cache_clear()


def run(label: str, boxes: list[str], fonts: tuple[str, str], rounds: int) -> None:
    times = []
    for _ in range(rounds):
        clear()
        start = time.process_time()
        for text in boxes:
            t.fit(text, fonts, frozenset(), 53.5, 20, 9, 5, 1.2)
        times.append((time.process_time() - start) / len(boxes) * 1000)
    print(f"  {label:<28} {statistics.median(times):.3f} ms per box "
          f"({min(times):.3f}-{max(times):.3f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boxes", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"{args.boxes} text boxes of 40 words, 53.5 x 20 mm from 9 pt down, "
          f"{args.rounds} rounds")
    run("Latin, Helvetica", texts(LATIN, args.boxes, 1), ("Helvetica", "Helvetica-Bold"),
        args.rounds)
    try:
        import fontpkg

        from components.fontfiles import font_name
        from components.schema import FontFile
        from generator import fonts as fontreg
    except ImportError:
        return
    for family, words in (("Noto Sans Arabic", ARABIC), ("Heebo", HEBREW)):
        try:
            from pathlib import Path

            path = Path(fontpkg.select_file(fontpkg.family(family), 400, "normal").path)
        except Exception:  # noqa: BLE001 - the package is not installed: nothing to measure
            print(f"  {family}: not installed")
            continue
        ff = FontFile(font_name(path), path, 0, family, "", 0, 0)
        fontreg.register(ff, set("".join(words)) | set("0123456789 "))
        run(f"{family}, shaped", texts(words, args.boxes, 2), (ff.name, ff.name), args.rounds)


if __name__ == "__main__":
    main()
