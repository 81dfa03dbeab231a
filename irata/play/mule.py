"""``irata play mule``: M.U.L.E.'s arithmetic at the table, and its saved games.

A thin shell: parse what a person typed (a sum such as ``3+6+2`` wherever a number goes), call
the pure rule functions of ``companion.mule``, print a few lines or ``--json``. Nothing heavy is
imported here: the rule numbers come from ``companion.mule.data`` (cached from the YAML). The
calculators live in ``irata.play.mule_calculators`` and the moves' commands are generated from
the declaration (``irata.play.declared``), each only when asked for, so a command defines only
what it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from components.errors import InputError
from irata.lazy import LazyGroup
from irata.options import DB, GAME, JSON, SEED, emit, names, open_store, pick
from irata.play.declared import add_moves, stopped

if TYPE_CHECKING:
    from companion.mule.state import State


def _data() -> Any:
    from companion.mule import data

    return data.load()


# -- the group ----------------------------------------------------------------------------------

# the calculators (irata.play.mule_calculators), imported only when one runs
CALCULATORS: dict[str, tuple[str, str]] = {
    name: (f"irata.play.mule_calculators:{name}", summary) for name, summary in (
        ("spoilage", "Usage and Spoilage for one Colonist's Stocks after the..."),
        ("price", "The Pricing Phase for one GOOD, from The Store's current..."),
        ("rank", "Ranking: the new order of wealth; ties keep the previous..."),
        ("colony", "Colony Success and Retirement (Tournament): the rating of..."),
        ("production", "Production for one Colonist."),
        ("store", "M.U.L.E. Production in The Store: Smithore into M.U.L.E.s."),
        ("market", "Market, Priority to Buy: lower-ranking Colonists buy from..."),
        ("sellout", "The final turn's Market: everyone sells all Goods to The..."))}


class MuleGroup(LazyGroup):
    """M.U.L.E.'s commands: the calculators imported when one runs, the saved game's defined
    here, and the moves and ``next`` generated from the declaration when one of them (or the
    list of commands) is asked for, so that a command defines only what it runs."""

    def _moves(self, name: str | None = None) -> None:
        """Generate the commands of the moves (and ``next``): the one named, or all."""
        from companion.mule.moves import MOVES

        specs = tuple(m for m in MOVES if m.command not in self.commands
                      and (name is None or m.command == name))
        if specs or "next" not in self.commands:
            add_moves(self, "mule", "M.U.L.E.", START, specs)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.lazy and cmd_name not in self.commands:
            self._moves(cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._moves()
        return super().list_commands(ctx)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # every command (those irata.play adds for saved games too), the calculators by
        # their summaries, without importing them
        rows = []
        for name in self.list_commands(ctx):
            if name in self.lazy:
                rows.append((name, self.lazy[name][1]))
                continue
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.get_short_help_str(60)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@click.group(cls=MuleGroup, lazy=CALCULATORS)
def mule() -> None:
    """M.U.L.E. The Board Game: the table's arithmetic, and saved games.

    Wherever a number is typed, a sum (3+6+2) is fine.
    """


# -- saved games ----------------------------------------------------------------------------

class _WithOptionalRules(click.Command):
    """``new``: its help ends with the Optional Rules, listed when the help is shown (not on
    every command's start)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from companion.mule.options import epilog

        self.epilog = epilog()
        super().format_epilog(ctx, formatter)


@mule.command(cls=_WithOptionalRules)
@click.option("--players", required=True, help="The Colonists' names: Ann,Bob,Cid,Dee.")
@click.option("--beginner", "mode", flag_value="beginner", default=True,
              help="Beginner Game set-up (default).")
@click.option("--tournament", "mode", flag_value="tournament", help="Tournament set-up.")
@click.option("--seed", type=SEED, help="Make the initial Ranking and the decks repeatable.")
@click.option("--deck", is_flag=True,
              help="Keep the Production, Lucky Event and Unlucky Event decks here (cards lost).")
@click.option("--alt-events", is_flag=True,
              help="Alternative Personal Event System: the card's diagram picks who gets it.")
@click.option("--rivers", help="Beginner: the River tile each starts with, Ann=R01,Bob=R03.")
@click.option("--species", help="Tournament, Optional Rule (Colonist Cards and Special "
              "Talents): each Colonist's Player Species Card, Ann=Mechtron,Bob=SP03.")
@click.option("--option", "option", multiple=True, metavar="NAME[=VALUE]",
              help="An Optional Rule of the rulebook (repeatable, or several joined by "
              "commas): the list below.")
@click.option("--planet", metavar="ROWS", help="Optional Rule (Random Land Placement): "
              "Planet Irata as laid, rows top first split by /, each square a tile's code "
              "or a type letter (P, L, H, R; S The Store, - empty); left out: drawn from "
              "the seed.")
@click.option("--name", help="A name for the saved game.")
@DB
@JSON
def new(players: str, mode: str, seed: int | None, deck: bool, alt_events: bool,
        rivers: str | None, species: str | None, option: tuple[str, ...], planet: str | None,
        name: str | None, db: str | None, as_json: bool) -> None:
    """Start a saved game: The Store, prices, Ranking and every Colonist's start.

    With --deck the companion shuffles and keeps the Production deck and the Lucky and
    Unlucky Event decks (drawn, discarded and re-shuffled as the rules say; the same --seed
    gives the same cards), for a group whose cards are lost. Each draw is saved with the turn
    that made it, so undo puts the cards back.
    """
    from companion.mule.saved import describe, new_game
    from irata.play.declared import pairs

    picked = pairs([species or ""], "--species")
    if species is not None and not picked:
        raise InputError("--species: give NAME=SPECIES for every Colonist, e.g. Ann=Mechtron")
    colonists = names(players, "--players")
    given = pairs([rivers or ""], "--rivers")
    from companion.mule import options

    chosen = options.parse(option, mode)
    state = new_game(_data(), colonists, mode, seed, deck, alt_events, given, picked, chosen,
                     planet)
    with open_store(db) as store:
        saved = store.create("mule", state, name)
    typed = {n.lower() for n in given}
    dealt = [f"{n} {x['tile']}" for n, p in state["players"].items() for x in p["lands"]
             if x["land"] == "river" and x.get("tile") and n.lower() not in typed]
    emit(as_json, {"id": saved.id, "name": saved.name, "state": state},
         lambda: [f"Saved game {saved.id} ({saved.name}), seed {state['seed']}",
                  *([f"Starting Rivers: {', '.join(dealt)} (give each Colonist that River "
                     "tile; --rivers NAME=TILE chooses)"] if dealt else []),
                  describe(state)])


START = "irata play mule new --players ..."


@mule.command("status")
@GAME
@DB
@JSON
def status_cmd(game_id: int | None, db: str | None, as_json: bool) -> None:
    """The game at a glance: Ranking, Money, Goods, Lands and M.U.L.E.s, The Store, what is
    next."""
    from companion.mule.saved import describe, glance
    from companion.session import readable, state_of

    with open_store(db) as store:
        saved = pick(store, game_id, "mule", "M.U.L.E.", START)
        state = state_of(store, saved)
        with readable(store.path, saved):
            seen = glance(state, _data())
            text = describe(state)
    emit(as_json, {"id": saved.id, "name": saved.name, **seen},
         lambda: [f"Game {saved.id}: {saved.name}", text])


@mule.command()
@GAME
@DB
def turn(game_id: int | None, db: str | None) -> None:
    """The guided walk over one Game Turn: every step asked in order and saved as soon as it is
    answered. Run it again to resume where it stopped; Ctrl-C or the end of the input loses
    only the step in progress (the end of the input exits 2, Ctrl-C 130). A refused answer
    says why and is asked again; the same refused answer given over and over ends it (exit 2,
    the steps before it kept). Steps with nothing to decide run themselves and are shown.

    \b
    Lands are claimed by the tile printed on them and the square of the
    Player Board printed in its corner (P07@B2). Development is typed
    Action Round by Action Round: buy P07 F, refit P07 E, refit P07 E P08 F
    (two Adjacent Lands), move P07 R01 F, assay, wampus, pub; or pass.
    Cards are named by the code in their corner (PR05) or their title.
    Each step is also its own command: irata play mule next says which.
    """
    from companion.mule.game import GAME as DECLARED
    from companion.play import play
    from companion.session import readable, state_of
    from components.errors import RuleError

    with open_store(db) as store:
        saved = pick(store, game_id, "mule", "M.U.L.E.", START)
        played, raw, _ = play(store, saved, DECLARED, [])   # what runs itself first
        _echo_ran(played)
        with readable(store.path, saved):
            state = DECLARED.from_json(raw)
            now = DECLARED.now(state)
        if now is None:
            raise RuleError("this game is over: The Ship is Back! was drawn")
        start = now.turn
        click.echo(f"== Turn {start}, from {now.text}")
        while now is not None and now.turn == start:
            with readable(store.path, saved):   # the step walked reads what is saved
                _turn_step(store, saved, state, now.text)
                state = DECLARED.from_json(state_of(store, saved))
                now = DECLARED.now(state)
    if now is None:
        click.echo(f"The game is over (game {saved.id}).")
    else:
        click.echo(f"Turn {start} saved in game {saved.id}. Next: {now.text}")


def _echo_ran(played: list[Any]) -> None:
    for p in played:
        if p.auto:
            who = f" {p.move.who}" if p.move.who else ""
            click.echo(f"-- {p.move.kind}{who} (runs itself)")
            for line in p.lines:
                click.echo(line)


def _turn_step(store: Any, saved: Any, state: State, said: str) -> None:
    """Ask the step that comes now at the table and save it (then what runs itself)."""
    from companion.mule import turn as steps_of
    from companion.mule.game import GAME as DECLARED
    from companion.play import Move, play
    from components.errors import RuleError

    def ask(question: str, default: str) -> str:
        return str(click.prompt(question, default=default, show_default=bool(default)))

    seen = len(store.events(saved.id))
    click.echo(f"-- {said}")
    where = f"{said}: everything before it is saved; 'irata play mule turn' resumes here"
    try:
        # a refused answer is asked again; a refusal nothing typed can change, or the same
        # refused answers given again and again, ends the command (exit 2)
        _after, done, _lines, answers = steps_of.take_step(state, _data(), ask, click.echo)
    except steps_of.Stuck as exc:
        raise RuleError(f"{exc.reason} (refused {exc.times} times); stopped at {where}") \
            from None
    except click.Abort as exc:
        stopped(exc, where)
    with store.transaction():
        if len(store.events(saved.id)) != seen:
            raise InputError("the saved game changed while this step was typed: run "
                             "'irata play mule turn' again")
        played, _, _ = play(store, saved, DECLARED, [Move.of(done.step, done.who, answers)])
    _echo_ran(played)
