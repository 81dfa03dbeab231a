"""``irata export tts|pod`` and ``irata preview``: images of what prints, for virtual tables,
print-on-demand shops and a designer's quick look."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import click

from components.errors import InputError
from irata.errors import writing_into
from irata.options import BLEED, DPI, MARGIN, components_option

out_option = click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
                          default=Path("output"), show_default=True,
                          help="Output folder (files go to OUT/GAME/...).")


def _with_bar(label: str, run: Callable[[Callable[[int], None], Callable[[int], None]], object]
              ) -> object:
    if not sys.stderr.isatty():  # a bar on a terminal; a log gets no stray label
        return run(lambda n: None, lambda n: None)
    with click.progressbar(length=1, label=f"{label:16}", file=sys.stderr,
                           show_pos=True) as bar:
        def set_total(n: int) -> None:
            bar.length = max(1, n)

        return run(bar.update, set_total)


@click.group("export")
def export() -> None:
    """Export a game for Tabletop Simulator or a print-on-demand shop."""


@export.command("tts")
@click.argument("game")
@out_option
@components_option
@click.option("--dpi", type=DPI, default=150.0, show_default=True,
              help="Resolution of the images (lowered per deck to keep sheets within 4096 px).")
@click.option("--url-base", metavar="URL",
              help="Where the images will be hosted (https://...); default: file:/// paths "
                   "on this computer.")
@click.option("--image-format", "fmt", type=click.Choice(["png", "jpg"]), default="png",
              show_default=True, help="Deck sheets as PNG or JPEG (pieces stay PNG).")
@click.option("--hidden-cell", is_flag=True,
              help="Show the sheet's last cell for cards in a hand (BackIsHidden false) "
                   "instead of each card's back.")
@click.option("--json", "as_json", is_flag=True, help="Print a summary as JSON.")
def tts_cmd(game: str, out: Path, components_dir: Path | None, dpi: float,
            url_base: str | None, fmt: str, hidden_cell: bool, as_json: bool) -> None:
    """Export GAME for Tabletop Simulator into OUT/GAME/tts/.

    Writes a card sheet per deck (10 x 7 cells at most), an image per token, tile and board,
    a front and a back per standee, an image of its six faces per die, and GAME.json: copy
    it into Tabletop Simulator's "Saves/Saved Objects" folder and spawn it from Objects >
    Saved Objects.
    """
    from components import load
    from generator.export.tts import check_options, export_tts

    check_options(dpi, url_base, fmt)
    g = load(game, components_dir)
    with writing_into(out / g.key / "tts"):
        result = _with_bar(g.key, lambda tick, total: export_tts(
            g, out, dpi, url_base, fmt, not hidden_cell, tick, total))
    from generator.export.tts import Exported

    assert isinstance(result, Exported)
    w = result.written
    for line in w.skipped:
        click.echo(f"  not exported: {line}", err=True)
    if as_json:
        click.echo(json.dumps({"game": g.key, "saved_object": str(result.save),
                               "manifest": str(result.manifest), "decks": result.decks,
                               "cards": result.cards, "pieces": result.pieces,
                               "files": len(w.files), "not_exported": w.skipped}, indent=1))
        return
    click.echo(f"{g.key}: {result.decks} decks ({result.cards} cards), {result.pieces} other "
               f"pieces, {len(w.files)} files -> {w.folder}")
    click.echo(f"  saved object: {result.save} (copy it into Tabletop Simulator's "
               "Saves/Saved Objects folder)")


@export.command("pod")
@click.argument("game")
@click.option("--vendor", type=click.Choice(["tgc", "mpc", "dtc"]), required=True,
              help="tgc: The Game Crafter, mpc: MakePlayingCards, dtc: DriveThruCards.")
@out_option
@components_option
@click.option("--strict", is_flag=True,
              help="Fail when text or art crosses the vendor's safe zone, or a card size "
                   "matches none of the vendor's sizes.")
@click.option("--json", "as_json", is_flag=True, help="Print a summary as JSON.")
def pod_cmd(game: str, vendor: str, out: Path, components_dir: Path | None, strict: bool,
            as_json: bool) -> None:
    """Export GAME's cards for a print-on-demand shop into OUT/GAME/pod-VENDOR/.

    \b
    tgc  one RGB PNG per face at 300 dpi with 1/8" bleed (poker 825 x 1125 px, ...);
         tokens, tiles, standees and boards too, as The Game Crafter's chits, tiles,
         standees and boards (Large Circle Chit 375 x 375 px, Quad-Fold Board, ...)
    mpc  one RGB PNG per face, 822 x 1122 px for poker cards
    dtc  one PDF per deck, 1/8" bleed each side, pages back 1, front 1, back 2, ...

    Pieces whose size matches none of the vendor's sizes are not exported (never scaled):
    the export names them, with the sizes the vendor makes.
    """
    from components import load
    from generator.export.pod import PodResult, export_pod

    g = load(game, components_dir)
    with writing_into(out / g.key / f"pod-{vendor}"):
        result = _with_bar(g.key, lambda tick, total: export_pod(g, vendor, out, tick, total))
    assert isinstance(result, PodResult)
    w = result.written
    for line in w.skipped:
        click.echo(f"  not exported: {line}", err=True)
    for line in w.warnings:
        click.echo(f"  outside the safe zone: {line}", err=True)
    for line in w.notes:
        click.echo(f"  note: {line}", err=True)
    if as_json:
        click.echo(json.dumps({"game": g.key, "vendor": vendor, "manifest": str(result.manifest),
                               "faces": result.faces, "files": len(w.files),
                               "not_exported": w.skipped, "safe_zone": w.warnings,
                               "notes": w.notes}, indent=1))
    else:
        files = f"{len(w.files)} file" + ("" if len(w.files) == 1 else "s")
        click.echo(f"{g.key}: {result.faces} faces, {files} -> {w.folder}")
    if strict and (w.skipped or w.warnings):
        raise InputError(f"--strict: {len(w.warnings)} element(s) cross the safe zone, "
                         f"{len(w.skipped)} line(s) of what was not exported (listed above)")


SETTINGS = ("paper", "duplex", "bleed", "margin")


@click.command("preview")
@click.argument("game")
@click.argument("component")
@click.option("--face", type=click.Choice(["front", "back"]), default="front",
              show_default=True)
@click.option("--dpi", type=DPI, default=150.0, show_default=True)
@click.option("--trim", is_flag=True, help="Cut the image to the trim (no bleed).")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The PNG file to write.")
@click.option("--printed", type=click.Path(file_okay=False, path_type=Path),
              help="The output folder GAME was printed into (irata print --out): the face "
                   "as printed there, with that print's paper, duplex, bleed and margin, "
                   "drawn at once from what the print recorded.")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3", "tabloid"]), default="a4",
              show_default=True, help="As irata print --paper.")
@click.option("--duplex", type=click.Choice(["long", "short", "fold", "none"]), default="long",
              show_default=True, help="As irata print --duplex.")
@click.option("--bleed", type=BLEED, default=3.0, show_default=True,
              help="As irata print --bleed.")
@click.option("--margin", type=MARGIN, default=6.0, show_default=True,
              help="As irata print --margin.")
@components_option
@click.pass_context
def preview_cmd(ctx: click.Context, game: str, component: str, face: str, dpi: float,
                trim: bool, out: Path, printed: Path | None, paper: str, duplex: str,
                bleed: float, margin: float, components_dir: Path | None) -> None:
    """Render one face of COMPONENT as a PNG: the pixels of the PDF that irata print writes
    with the same options, at DPI.

    COMPONENT is its id (mule: production/acid-rain-storm) or the part after the last /.

    \b
    Example:
      irata print mule
      irata preview mule acid-rain-storm --printed output --dpi 200 --out acid-rain.png
    """
    from generator import raster

    if out.suffix.lower() != ".png":
        raise InputError(f"--out {out}: the preview is a PNG file (name it ....png)")
    raster.check_dpi(dpi)
    if not out.parent.is_dir():
        raise InputError(f"--out {out}: no such folder {out.parent}")
    values: dict[str, object] = {"paper": paper, "duplex": duplex, "bleed": bleed,
                                 "margin": margin}
    given = {k: v for k, v in values.items()
             if ctx.get_parameter_source(k) != click.core.ParameterSource.DEFAULT}
    if printed is not None:
        done = _from_record(printed, game, component, face, dpi, trim, out, given,
                            components_dir)
        if done:
            return
        values.update(_recorded_settings(printed, game, given))
    _preview_whole(game, component, face, dpi, trim, out, values, components_dir)


def _from_record(printed: Path, game: str, component: str, face: str, dpi: float,
                 trim: bool, out: Path, given: dict[str, object],
                 components_dir: Path | None) -> bool:
    """The face drawn from the record the print into ``printed`` left, when it holds the face
    and nothing it was made from changed since (``generator.preview_record``); False when
    the face must be drawn the whole way."""
    from components import bundled_root
    from generator.preview_record import BadRecord, draw, recorded, save_png

    got = recorded(printed, game, components_dir or bundled_root(), component, face, given)
    if got is None:
        return False
    comp_id, rec = got
    try:
        img = draw(rec, dpi, trim)
    except (BadRecord, ValueError, KeyError, OSError):  # a damaged record: the whole way
        return False
    with writing_into(out):
        save_png(img, out, dpi)
    click.echo(f"wrote {out}: {comp_id} {face} as printed, {img.width} x {img.height} px at "
               f"{dpi:g} dpi")
    return True


def _recorded_settings(printed: Path, game: str, given: dict[str, object]) -> dict[str, object]:
    """The print's own paper, duplex, bleed and margin (those the command did not give), as
    its record says, when they are ones irata print takes."""
    import math

    from generator.preview_record import printed_settings

    rec = printed_settings(printed, game)
    ok = {"paper": ("a4", "letter", "a3", "tabloid"), "duplex": ("long", "short", "fold", "none")}
    out: dict[str, object] = {}
    for k in SETTINGS:
        v = rec.get(k)
        if k in given or v is None:
            continue
        if k in ok and v in ok[k] or k == "bleed" and _within(v, 0, 10) or \
                k == "margin" and _within(v, 0, 30):
            out[k] = v
    out = {k: v for k, v in out.items() if not isinstance(v, float) or math.isfinite(v)}
    if rec.get("ink") in ("full", "saver") and "ink" not in given:
        out["ink"] = rec["ink"]
    return out


def _within(v: object, low: float, high: float) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and low <= v <= high


def _preview_whole(game: str, component: str, face: str, dpi: float, trim: bool, out: Path,
                   values: dict[str, object], components_dir: Path | None) -> None:
    """The face drawn the whole way: the game loaded, drawn and imposed as irata print does."""
    from components import load
    from generator import raster
    from generator.export.common import find_component
    from generator.layout import Settings
    from generator.preview import preview

    settings = Settings(str(values["paper"]), str(values["duplex"]),
                        float(values["bleed"]), float(values["margin"]))  # type: ignore[arg-type]
    settings.check()
    g = load(game, components_dir)
    comp = find_component(g, component)
    if not comp.printed:
        raise InputError(f"{comp.id} is not printed (supply your own)")
    if face == "back" and comp.kind in ("standee", "die"):
        what = ("its back prints on the same strip as its front" if comp.kind == "standee"
                else "its six faces print on one net")
        raise InputError(f"{comp.id} is a {comp.kind}: {what}; preview --face front shows "
                         "it whole")
    if face == "back" and not comp.two_sided:
        raise InputError(f"{comp.id} is one-sided: it has no back")
    img, how = preview(g, comp, face, settings, dpi, trim, str(values.get("ink", "full")))
    with writing_into(out):
        raster.save_png(img, out, dpi)
    click.echo(f"wrote {out}: {comp.id} {face} {how}, {img.width} x {img.height} px at "
               f"{dpi:g} dpi")
