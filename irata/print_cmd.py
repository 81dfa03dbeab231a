"""``irata print``, ``irata check``, ``irata inventory`` and ``irata calibrate``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from components import Game, list_games, load
from components.errors import InputError, attempt, collecting, found_so_far
from components.loader import read_once
from irata.errors import writing_into
from irata.options import BLEED, DPI, MARGIN, BoundedInt, components_option

if TYPE_CHECKING:
    # the bar click.progressbar gives: click.termui imports its class for type checkers
    # only, without exporting it
    from click._termui_impl import ProgressBar

GAME_HELP = "Game names: mule, mule-goes-crazy, muli, mutagen, outer-earth (none: all of them)."


def parse_offset(value: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in value.split(","))
    except ValueError:
        raise InputError(f"--back-offset takes X,Y in mm (for example 0.5,-1), not '{value[:40]}'"
                         ) from None
    if not (abs(x) <= 20 and abs(y) <= 20):  # NaN fails this too
        raise InputError(f"--back-offset {value[:40]}: more than 20 mm is not a printer's drift")
    return (x, y)


def games_to_use(names: tuple[str, ...], root: Path | None) -> list[Game]:
    if root is not None and not root.is_dir():
        raise InputError(f"--components {root}: no such folder")
    chosen = list(names) or list_games(root)
    if not chosen:
        raise InputError(f"no games found in {root}" if root else "no bundled games found")
    return [load(name, root) for name in chosen]


def _allow_pieces(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    from components.schema import LIMITS

    LIMITS.allow(value or 0)  # this command's limit, the defaults unless given
    return value


max_pieces_option = click.option(
    "--max-pieces", type=BoundedInt(1, 20_000), callback=_allow_pieces, is_eager=True,
    expose_value=False, metavar="N",
    help="Allow a game of up to N pieces (default 3000, at most 20000): for a large deck of "
         "your own; the default keeps a shared game folder's print within seconds.")


@click.command("print")
@click.argument("games", nargs=-1)
@click.option("--paper", type=click.Choice(["a4", "letter", "a3", "tabloid"]), default="a4",
              show_default=True, help="Paper size; the orientation that fits most is chosen.")
@click.option("--format", "formats", default="pdf,svg", show_default=True,
              help="pdf, svg, png or a list (pdf,svg,png); png rasterises the PDF's pages.")
@click.option("--dpi", "png_dpi", type=DPI, default=150.0, show_default=True,
              help="Resolution of the PNG sheets.")
@click.option("--duplex", type=click.Choice(["long", "short", "fold", "none"]), default="long",
              show_default=True,
              help="How backs print: turn over the long edge, the short edge, fold the page, "
                   "or no backs.")
@click.option("--back-offset", default="0,0", show_default=True, metavar="X,Y",
              help="Shift the backs by X,Y mm to undo a printer's drift (see irata calibrate).")
@click.option("--bleed", type=BLEED, default=3.0, show_default=True, help="Bleed in mm (0 ok).")
@click.option("--margin", type=MARGIN, default=6.0, show_default=True,
              help="The printer's non-printable margin in mm.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
              default=Path("output"), show_default=True, help="Output folder.")
@components_option
@max_pieces_option
@click.option("--strict", is_flag=True,
              help="Fail if any text does not fit its box or any image prints below 200 dpi.")
@click.option("--cut-lines", is_flag=True, help="Draw thin dashed cut lines on every trim.")
@click.option("--stamp", type=click.Choice(["none", "qr"]), default="none", show_default=True,
              help="qr: stamp every component with its version QR code.")
@click.option("--since", metavar="EDITION",
              help="Only the components changed by errata after EDITION, plus a notice sheet.")
@click.option("--ink", type=click.Choice(["full", "saver"]), default="full", show_default=True,
              help="saver: large dark areas print as light tints and outlines (text and "
                   "icons stay legible), for a fraction of the ink.")
@click.option("--cmyk", is_flag=True,
              help="PDFs in CMYK for press (PDF/X-1a:2003, coated FOGRA39 profile): colours "
                   "and images converted, large black areas in rich black.")
@click.option("--jobs", type=BoundedInt(1, 64), default=None, metavar="N",
              help="Render sheets in N processes (default: the machine's cores); the files "
                   "are the same for any N.")
@click.option("--json", "as_json", is_flag=True, help="Print a summary as JSON.")
@click.option("--watch", is_flag=True,
              help="Keep running: rebuild when a definition, image or font of the game changes "
                   "(Ctrl-C to stop).")
def print_cmd(games: tuple[str, ...], paper: str, formats: str, png_dpi: float, duplex: str,
              back_offset: str,
              bleed: float, margin: float, out: Path, components_dir: Path | None, strict: bool,
              cut_lines: bool, stamp: str, since: str | None, ink: str, cmyk: bool,
              jobs: int | None, as_json: bool, watch: bool) -> None:
    """Print GAMES as PDF and SVG sheets into OUT/GAME/ (GAME.pdf, svg/, manifest.json).

    Sheets with backs go to GAME.pdf (print it double-sided, flipping on the --duplex edge);
    one-sided sheets to GAME-single-sided.pdf (print it one-sided). --since V writes
    GAME-errata-V.pdf and manifest-errata-V.json beside the full print.

    \b
    Examples:
      irata print                      every bundled game, A4, duplex long edge
      irata print mule --paper letter  M.U.L.E. on US Letter
      irata print mutagen --duplex fold --bleed 0
      irata print outer-earth --ink saver
      irata print --components my-games mygame --watch   rebuild on every save
    """
    from generator.build import BuildOptions
    from generator.layout import Settings

    fmts = tuple(f.strip() for f in formats.split(",") if f.strip())
    bad = [f for f in fmts if f not in ("pdf", "svg", "png")]
    if bad or not fmts:
        raise InputError(f"unknown format '{formats}' (expected pdf, svg, png or a "
                         "comma-separated list such as pdf,svg,png)")
    settings = Settings(paper, duplex, bleed, margin, parse_offset(back_offset), cut_lines)
    settings.check()
    import os

    jobs = jobs or os.cpu_count() or 1
    if watch:
        if as_json:
            raise InputError("--watch reports as it goes: leave out --json")
        _watch(games, components_dir, out,
               watch_printer(BuildOptions(settings, fmts, out, stamp == "qr", since,
                                          png_dpi=png_dpi, ink=ink, cmyk=cmyk, jobs=jobs),
                             strict))
        return
    with collecting() as found:  # every mistake of every game, before anything is printed
        with read_once():  # (each game is read this once)
            loaded = list(_each_game(games, components_dir))
        if found:  # the faces of what did load, for their mistakes too
            from generator.build import draw_all, select
            from generator.draw import Options

            for game, _ in loaded:
                with attempt():
                    draw_all(game, select(game, since), Options())
    chosen = [game for game, _ in loaded]
    summary = []
    failed = False
    for game in chosen:
        opts = BuildOptions(settings, fmts, out, stamp == "qr", since, png_dpi=png_dpi,
                            ink=ink, cmyk=cmyk, jobs=jobs)
        entry = _print_one(game, opts, as_json)
        summary.append(entry)
        failed = failed or bool(entry["overflow"]) or bool(entry["low_resolution"])
    if as_json:
        click.echo(json.dumps({"games": summary}, indent=1))
    if strict and failed:
        raise InputError(strict_failure(summary))


def counted(n: int, word: str) -> str:
    """``1 page``, ``2 pages``."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def strict_failure(summary: list[dict[str, Any]]) -> str:
    """What --strict refuses in a print's summary: texts that do not fit, soft images."""
    n = sum(len(s["overflow"]) for s in summary)
    k = sum(len(s["low_resolution"]) for s in summary)
    what = [f"{n} text(s) do not fit their boxes"] if n else []
    what += [f"{k} image(s) print below 200 dpi"] if k else []
    return f"--strict: {' and '.join(what)} (listed above)"


def watch_printer(opts: Any, strict: bool) -> Callable[..., None]:
    """How --watch prints a game: as ``irata print`` does, with the same options (ink
    included); under --strict a rebuild with text that does not fit or soft images says so
    as an error line, and the watch goes on (its files are written, as without --watch)."""
    import time

    def print_game(game: Game, started: float | None = None) -> None:
        started = started if started is not None else time.perf_counter()
        entry = _print_one(game, opts, False, progress=False, rebuilt=started)
        if strict and (entry["overflow"] or entry["low_resolution"]):
            click.echo(f"error: {strict_failure([entry])}", err=True)

    return print_game


def changed_pages(changed: dict[str, list[int]]) -> str:
    """``GAME.pdf pages 3-4, 9; GAME-single-sided.pdf page 1`` (or ``no page changed``)."""
    parts = []
    for name, pages in changed.items():
        if not pages:
            continue
        runs: list[list[int]] = []
        for p in pages:
            if runs and p == runs[-1][1] + 1:
                runs[-1][1] = p
            else:
                runs.append([p, p])
        shown = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:8])
        if len(runs) > 8:
            shown += f" and {sum(b - a + 1 for a, b in runs[8:])} more"
        parts.append(f"{name} page{'s' if len(pages) > 1 else ''} {shown}")
    return "; ".join(parts) or "no page changed"


def how_to_print(name: str, duplex: str) -> str:
    """How to print one of irata's PDFs: the one-sided file one-sided, the other flipped on
    the chosen edge (with fold or none, every page prints one-sided)."""
    if name.endswith("-single-sided.pdf") or duplex in ("fold", "none"):
        return "one-sided"
    return f"double-sided, flip on the {duplex} edge"


def _print_one(game: Game, opts: Any, as_json: bool, progress: bool = True,
               rebuilt: float | None = None) -> dict[str, Any]:
    """Build one game; say what was written and what shrank, overflowed or prints soft.
    ``rebuilt``: the time a watch's rebuild started: the first line then says how long it
    took and which pages changed."""
    from generator.build import backs_report, build, fit_report, image_report
    from generator.ink import TINT

    if opts.ink == "saver" and not game.ink_saver:
        click.echo(f"note: {game.key} has no ink_saver palette in game.yaml: its large areas "
                   f"print in automatic tints (each colour mixed with {TINT:.0%} white)",
                   err=True)
    if progress and sys.stderr.isatty():  # a bar on a terminal; a log gets no stray label
        with click.progressbar(length=1, label=f"{game.key:16}", file=sys.stderr,
                               show_pos=True) as bar:
            def set_total(n: int, bar: ProgressBar[int] = bar) -> None:
                bar.length = n

            with writing_into(opts.out / game.key):
                result = build(game, opts, bar.update, set_total)
    else:
        with writing_into(opts.out / game.key):
            result = build(game, opts)
    shrunk, overflow = fit_report(result.fits)
    low_res = image_report(result.fits)
    pages = len(result.sheets)
    if not as_json:
        line = (f"{game.key}: {counted(result.components, 'component')}, "
                f"{counted(result.copies, 'piece')}, {counted(pages, 'page')} -> "
                f"{result.folder}")
        if rebuilt is not None:
            import time

            line += (f"; built in {time.perf_counter() - rebuilt:.2f} s, changed: "
                     f"{changed_pages(result.changed)} "
                     f"({counted(result.rendered_pages, 'page')} rendered)")
        click.echo(line)
    if not as_json and rebuilt is None:
        for pdf in result.pdfs:
            click.echo(f"  {pdf.name}: print {how_to_print(pdf.name, opts.settings.duplex)}")
    if not as_json:
        for line in shrunk:
            click.echo(f"  shrank: {line}", err=True)
        for line in overflow:
            click.echo(f"  does not fit: {line}", err=True)
        for line in low_res:
            click.echo(f"  low resolution: {line}", err=True)
        for line in backs_report(result.sheets, opts.settings.duplex):
            click.echo(f"  no back: {line}", err=True)
        for art in result.flattened:
            click.echo(f"  flattened: {art}: its half-transparent parts print opaque in CMYK "
                       "(over white, in a raster): PDF/X-1a has no transparency", err=True)
    return {"game": game.key, "components": result.components, "pieces": result.copies,
            "pages": pages, "pdf": str(result.pdf) if result.pdf else None,
            "pdfs": [str(p) for p in result.pdfs], "ink": opts.ink, "cmyk": opts.cmyk,
            "flattened": result.flattened,
            "manifest": str(result.manifest), "shrunk": shrunk, "overflow": overflow,
            "low_resolution": low_res}


def _watch(names: tuple[str, ...], root: Path | None, out: Path,
           print_game: Callable[..., Any]) -> None:
    """Print the games, then again whenever one of their files changes (see irata.watch)."""
    from components import game_folder
    from irata.watch import Rebuilder, run

    if root is not None and not root.is_dir():
        raise InputError(f"--components {root}: no such folder")
    chosen = list(names) or list_games(root)
    if not chosen:
        raise InputError(f"no games found in {root}" if root else "no bundled games found")
    import time

    folders = {name: game_folder(name, root) for name in chosen}

    def build(name: str) -> None:
        started = time.perf_counter()  # the line's time counts reading the game too
        # (the game as the loader keeps it: a build changes nothing of it)
        print_game(load(name, root, shared=True), started)

    rebuilder = Rebuilder(folders, out, build, lambda line, err: click.echo(line, err=err))
    run(rebuilder)


@click.command("check")
@click.argument("games", nargs=-1)
@components_option
@max_pieces_option
@click.option("--strict", is_flag=True,
              help="Fail, as irata print --strict does, if any text does not fit its box or "
                   "any image prints below 200 dpi.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def check_cmd(games: tuple[str, ...], components_dir: Path | None, strict: bool,
              as_json: bool) -> None:
    """Validate GAMES' definitions: the YAML, the layouts, the counts, every face drawn.

    A mistake prints FILE:LINE:COL: what is wrong, and exits with code 2 (with --strict,
    so does a text that does not fit or an image below 200 dpi).
    """
    from generator.build import draw_all
    from generator.draw import Options
    from generator.fonts import check_sheet_text

    report: list[dict[str, Any]] = []
    with collecting() as found:  # every mistake of every game, one line each
        for game, clean in _each_game(games, components_dir):
            before = len(found)
            with attempt():  # (a game read with mistakes: its other components' faces too)
                faces = draw_all(game, [c for c in game.components if c.printed], Options())
                check_sheet_text(game)
            if clean and len(found) == before:
                _report_check(game, faces, report, as_json)
    if as_json:
        click.echo(json.dumps({"games": report}, indent=1))
    if strict and any(r["overflow"] or r["low_resolution"] for r in report):
        raise InputError(strict_failure(report))


def _each_game(names: tuple[str, ...], root: Path | None) -> Iterator[tuple[Game, bool]]:
    """The games, each loaded alone, and whether it loaded without a mistake: while
    collecting, a game read with mistakes comes without the components they are in (and a
    game whose game.yaml or files cannot be read not at all); the next game is read after."""
    if root is not None and not root.is_dir():
        raise InputError(f"--components {root}: no such folder")
    chosen = list(names) or list_games(root)
    if not chosen:
        raise InputError(f"no games found in {root}" if root else "no bundled games found")
    for name in chosen:
        before = found_so_far()
        game: Game | None = None
        with attempt():
            game = load(name, root)
        if game is not None:
            yield game, found_so_far() == before


def _report_check(game: Game, faces: list[Any], report: list[dict[str, Any]],
                  as_json: bool) -> None:
    """What irata check says of a game whose definitions are right."""
    from generator.build import fit_report, image_report

    shrunk, overflow = fit_report([r for f in faces for r in f.fits])
    low_res = image_report([r for f in faces for r in f.fits])
    report.append({"game": game.key, "edition": game.edition,
                   "components": len(game.components),
                   "pieces": sum(c.count for c in game.components),
                   "shrunk": len(shrunk), "overflow": overflow,
                   "low_resolution": low_res})
    if not as_json:
        click.echo(f"{game.key}: ok, {len(game.components)} components, "
                   f"{sum(c.count for c in game.components)} pieces, edition "
                   f"{game.edition}" + (f", {len(overflow)} text(s) do not fit"
                                        if overflow else ""))
        for line in overflow:
            click.echo(f"  does not fit: {line}", err=True)
        for line in low_res:
            click.echo(f"  low resolution: {line}", err=True)


@click.command("inventory")
@click.argument("game")
@components_option
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
def inventory_cmd(game: str, components_dir: Path | None, as_json: bool) -> None:
    """List GAME's component groups and counts, named as in its rulebook."""
    g = load(game, components_dir)
    counts = g.counts()
    rows = [{"group": i.group, "count": i.count if not i.printed else counts.get(i.group, 0),
             "printed": i.printed, "note": i.note} for i in g.inventory]
    if not rows:
        rows = [{"group": k, "count": v, "printed": True, "note": ""}
                for k, v in counts.items()]
    if as_json:
        click.echo(json.dumps([{"group": r["group"], "count": r["count"]} for r in rows],
                              indent=1))
        return
    width = max(len(str(r["group"])) for r in rows)
    click.echo(f"{g.name}, edition {g.edition}")
    for r in rows:
        note = "" if r["printed"] else "  (not printed" + (f": {r['note']})" if r["note"]
                                                          else ")")
        if r["printed"] and r["note"]:
            note = f"  ({r['note']})"
        click.echo(f"  {r['group']:<{width}}  {r['count']:>4}{note}")


@click.command("calibrate")
@click.option("--paper", type=click.Choice(["a4", "letter", "a3", "tabloid"]), default="a4",
              show_default=True)
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long",
              show_default=True, help="The edge your printer turns the page over.")
@click.option("--margin", type=MARGIN, default=6.0, show_default=True)
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
              default=Path("output"), show_default=True)
def calibrate_cmd(paper: str, duplex: str, margin: float, out: Path) -> None:
    """Print a duplex alignment sheet (OUT/calibrate-PAPER-DUPLEX.pdf).

    Print it double-sided, hold it to the light, read the vernier scales, and pass the
    reading to irata print --back-offset X,Y.
    """
    from generator.backends.pdf import write_pdf
    from generator.build import _atomic_write
    from generator.calibrate import calibration_sheets
    from generator.layout import Settings

    settings = Settings(paper, duplex, 0.0, margin)
    settings.check()
    sheets = calibration_sheets(settings)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"calibrate-{paper}-{duplex}.pdf"
    with writing_into(path):
        _atomic_write(path, lambda tmp: write_pdf(sheets, tmp, lambda name, colour: [],
                                                  "irata duplex calibration"))
    click.echo(f"wrote {path}: print it double-sided ({duplex} edge) at 100%, hold it to the "
               "light, and read the scales")
