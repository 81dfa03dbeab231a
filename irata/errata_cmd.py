"""``irata errata``: list a game's errata, compare two editions, check a QR stamp.

A thin shell over ``components.errata``; every command also takes ``--json``.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import click

components_option = click.option(
    "--components", "components_dir", type=click.Path(file_okay=False, path_type=Path),
    help="A folder of your own game folders (or one game folder) instead of the bundled games.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def _value(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _field_lines(fields: list[dict[str, Any]], indent: str = "    ") -> list[str]:
    out = []
    for f in fields:
        out.append(f"{indent}{f['field']}:")
        out.append(f"{indent}  before: {_value(f['before'])}")
        out.append(f"{indent}  after:  {_value(f['after'])}")
    if not fields:
        out.append(f"{indent}(no field differs: the erratum confirms the values printed)")
    return out


@click.group()
def errata() -> None:
    """List, compare and check a game's errata (errata.yaml in its folder).

    \b
    Examples:
      irata errata list mutagen
      irata errata diff mule --from 1.0 --to 1.1
      irata errata check irata:mule/production/acid-rain-storm@1.0
    """


@errata.command("list")
@click.argument("game")
@components_option
@json_option
def list_cmd(game: str, components_dir: Path | None, as_json: bool) -> None:
    """List GAME's errata, oldest first: edition, date, summary, components changed."""
    from components import load

    g = load(game, components_dir)
    rows = [e.as_dict() | {"components": e.components} for e in g.errata]
    if as_json:
        click.echo(json.dumps({"game": g.key, "base_edition": g.base_edition,
                               "edition": g.edition, "errata": rows}, indent=1))
        return
    click.echo(f"{g.name}: edition {g.edition} (game.yaml: {g.base_edition}), "
               f"{len(rows)} errat{'um' if len(rows) == 1 else 'a'}")
    for e in g.errata:
        date = f", {e.date}" if e.date else ""
        click.echo(f"  {e.id}  v{e.version}{date}: {e.summary}")
        named = [c for c in e.components if c not in e.readers]
        printed = f" (printed on {', '.join(e.readers)})" if e.readers else ""
        targets = named + [f"rule data '{c.data}'{printed}" for c in e.changes if c.data]
        click.echo(f"      changes: {', '.join(targets) if targets else 'no component'}")


@errata.command("diff")
@click.argument("game")
@click.option("--from", "old", required=True, metavar="EDITION", help="The older edition.")
@click.option("--to", "new", metavar="EDITION", help="The newer edition (default: current).")
@components_option
@json_option
def diff_cmd(game: str, old: str, new: str | None, components_dir: Path | None,
             as_json: bool) -> None:
    """What changed in GAME from edition --from to --to: each component, field by field."""
    from components import load
    from components.errata import diff

    g = load(game, components_dir)
    base = load(game, components_dir, errata=False)
    out = diff(g, base, old, new or g.edition)
    if as_json:
        click.echo(json.dumps(out, indent=1))
        return
    click.echo(f"{g.name}: edition {out['from']} -> {out['to']}, "
               f"{len(out['errata'])} errat{'um' if len(out['errata']) == 1 else 'a'}, "
               f"{len(out['components'])} component(s) changed")
    for e in out["errata"]:
        click.echo(f"  {e['id']} (v{e['version']}): {e['summary']}")
    for c in out["components"]:
        click.echo(f"{c['component']} (now v{c['version']}; {', '.join(c['errata'])})")
        for line in _field_lines(c["fields"]):
            click.echo(line)
    for d in out["data"]:
        on = f"; printed on {', '.join(d['printed_on'])}" if d["printed_on"] else ""
        click.echo(f"rule data '{d['data']}' ({', '.join(d['errata'])}{on})")
        for line in _field_lines(d["fields"]):
            click.echo(line)


@errata.command("check")
@click.argument("payload")
@components_option
@json_option
def check_cmd(payload: str, components_dir: Path | None, as_json: bool) -> None:
    """Is the component stamped PAYLOAD (irata:GAME/ID@VERSION, its QR code) current?

    Exit code 0 either way; the answer says what changed since, if anything.
    """
    from components import load
    from components.errata import check, parse_payload

    game, cid, version = parse_payload(payload)
    g = load(game, components_dir)
    base = load(game, components_dir, errata=False)
    out = check(g, base, cid, version)
    if as_json:
        click.echo(json.dumps(out, indent=1))
        return
    if out["current"]:
        click.echo(f"current: {cid} v{version} is the latest version of {g.name} "
                   f"(edition {g.edition})")
        return
    if not out["fields"]:
        click.echo(f"re-issued: {cid} v{version}; the current version is v{out['version']} "
                   f"(edition {g.edition}), but no field of it differs: the copy in hand "
                   "reads as the current one")
    else:
        click.echo(f"outdated: {cid} v{version}; the current version is v{out['version']} "
                   f"(edition {g.edition}). Reprint it: irata print {g.key} --since {version}"
                   + (f" --components {shlex.quote(str(components_dir))}"
                      if components_dir is not None else ""))
    for e in out["errata"]:
        date = f", {e['date']}" if e["date"] else ""
        click.echo(f"  {e['id']} (v{e['version']}{date}): {e['summary']}")
    if out["fields"]:
        for line in _field_lines(out["fields"], "  "):
            click.echo(line)
