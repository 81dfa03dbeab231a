"""Which step of M.U.L.E.'s Game Turn comes now, for whom, and the command that records it;
running one step; and :func:`play_turn`, the guided walk over the steps of one Game Turn.

The state keeps the steps still to take in this Phase (``todo``, the current one first). When a
Phase's steps are all taken, the next Phase begins and lists its own: Land Grant (lowest Rank
first, twice on Turn 1), Land Auctions (Tournament), Package From Home World!, Development
(each Colonist's Action Round, up to three Rounds: one under the Optional Rule Single Action
Round; under More Predictability the Production Card revealed before the last Round), Usage
and Spoilage, Production, Pricing, Market (one Auction per Good; the sell-out on the Final
Turn), Ranking, Personal Events (the Lucky, then the Unlucky Event; skipped under More
Predictability), and the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.record import NamedTuple
from components.errors import InputError, RuleError

if TYPE_CHECKING:      # the steps are imported when one is taken: next and status stay light
    from companion.mule import steps
    from companion.mule.data import MuleData
    from companion.mule.expansion import Claimable
    from companion.mule.state import State

Ask = Callable[[str, str], str]
Say = Callable[[str], None]
GOODS = ("smithore", "crystite", "food", "energy")

# step -> (Phase as the rulebook numbers it, what is done, its function in companion.mule.steps)
STEPS: dict[str, tuple[str, str, str]] = {
    "grant": ("1. Expansion", "Land Grant", "grant"),
    "auction": ("1. Expansion", "Land Auctions", "auction"),
    "package": ("2. Development", "Package From Home World!", "package"),
    "develop": ("2. Development", "Action Round", "develop"),
    "reveal": ("2. Development", "the Production Card revealed", "reveal"),
    "usage": ("3. Usage and Spoilage", "Usage and Spoilage", "usage"),
    "produce": ("4. Production", "Production", "produce"),
    "pricing": ("5. Pricing", "Pricing", "pricing_step"),
    "trade": ("6. Market", "Auction", "trade"),
    "sellout": ("6. Market", "the Final Turn's sell-out", "sellout"),
    "ranking": ("7. Ranking", "Ranking", "ranking"),
    "lucky": ("8. Personal Events", "Lucky Event", "lucky"),
    "unlucky": ("8. Personal Events", "Unlucky Event", "unlucky"),
    "end": ("Game End", "the Colony's rating", "end"),
}


class Step(NamedTuple):
    """The step that comes now."""

    turn: int
    step: str
    who: str | None

    @property
    def phase(self) -> str:
        return STEPS[self.step][0]

    def as_dict(self, state: State) -> dict[str, Any]:
        return {"turn": self.turn, "phase": self.phase, "step": self.step, "who": self.who,
                "text": say_step(self, state), "command": command(self, state)}


def begin_turn(s: State, md: MuleData) -> State:
    """A Game Turn's first steps: Land Grant, lowest Rank first (twice on Turn 1); with Land
    Auctions before Land Grant (an Optional Rule of the Tournament), the Land for Sale! cards
    first, Rank 1 down, from Turn 2 on ("playing Land for Sale! cards is not allowed on the
    first Game Turn"). What the last Turn's Phases kept for themselves is dropped; a game saved
    before the Hand Cards is dealt none. The JSON form's keys keep their order, the new ones
    after them (as a dict's would)."""
    from types import MappingProxyType

    grants = int(md.setup(s.mode, len(s.ranking)).get("land_grants_turn_1", 2)) \
        if s.turn == 1 else 1
    keys = tuple(k for k in s.keys if k not in _TURN_KEPT)
    hands = s.hands
    if hands is None and "hands" not in s.keys:      # saved before the Hand Cards
        hands = MappingProxyType({n: MappingProxyType({}) for n in s.ranking})
    if keys:
        keys += tuple(k for k in ("hands", "todo", "phase") if k not in keys)
    s = s._replace(hands=hands, dev=None, roles=MappingProxyType({}), shortage=None, card=None,
                   final=False, auctions=None, declared=None, keys=keys, extra=MappingProxyType(
                       {k: v for k, v in s.extra.items() if k not in _TURN_KEPT}))
    todo: tuple[tuple[str, str | None], ...] = tuple(
        ("grant", n) for _ in range(grants) for n in reversed(s.ranking))
    if _auctions_before_grant(s) and s.turn > 1:
        from companion.mule import plays

        todo = tuple(("auction", n) for n in plays.card_holders(s)) + todo
    return s._replace(todo=todo, phase=todo[0][0])


# what a Phase keeps for itself while the Turn lasts: dropped when the next one begins
_TURN_KEPT = ("auctions", "roles", "shortage", "card", "dev", "final", "declared")


def _auctions_before_grant(s: State) -> bool:
    from companion.mule import options

    return s.mode == "tournament" and options.on(s.options, "land-auctions-before-grant")


def begun(s: State, md: MuleData | None = None) -> State:
    """``s`` with the steps of its Turn listed: a game saved before the steps begins its Turn
    afresh (:func:`begin_turn`; the rule data, ``md``, is read only then); any other as it
    is."""
    if s.over or s.todo:
        return s
    if md is None:
        from companion.mule import data

        md = data.load()
    return begin_turn(s, md)


def current(s: State, md: MuleData | None = None) -> Step | None:
    """The step that comes now; None when the game is over. The rule data (``md``, read when
    not given) is needed only by a game saved before the steps, whose Turn begins afresh
    (:func:`begun`; ``s`` itself is a value, never changed)."""
    if s.over:
        return None
    s = begun(s, md)
    step, who = s.todo[0]
    return Step(s.turn, step, who)


def _next_phase(t: steps.Turn, done: str) -> list[tuple[str, str | None]]:
    from companion.mule import personal, plays, steps

    s, md = t.state, t.md
    if done == "grant":
        # from Rank 1 down; with Land Auctions before Land Grant they came first
        holders = plays.card_holders(s)
        if t.tournament and holders and not _auctions_before_grant(s):
            return [("auction", n) for n in holders]
        done = "auction"
    if done == "auction":
        if any(h.get("package", 0) > 0 for h in (s.hands or {}).values()):
            return [("package", None)]
        done = "package"
    if done == "package":
        return steps.begin_development(t)
    if done in ("develop", "reveal"):
        return steps.next_round(t) or [("usage", None)]
    if done == "usage":
        return [("produce", None)]
    if done == "produce":
        return [("pricing", None)]
    if done == "pricing":
        return [("sellout", None)] if s.final else [("trade", g) for g in GOODS]
    if done in ("trade", "sellout"):
        return [("ranking", None)]
    if done == "ranking":
        if s.final:
            return [("end", None)]
        events = personal.phase_steps(s)     # none: the Phase skipped
        if events:
            return list(events)
        done = "unlucky"
    if done == "unlucky":
        t.put(begin_turn(s._replace(turn=s.turn + 1), md))
        return list(t.state.todo)
    return []


def advance(t: steps.Turn, done: str) -> None:
    """Take the step just done off the list; when the Phase is over, begin the next."""
    s = t.state
    t.put(s._replace(todo=s.todo[1:]))
    if not s.todo[1:] and not s.over:
        todo = _next_phase(t, done)
        t.put(t.state._replace(todo=tuple((str(step), who) for step, who in todo)))
    s = t.state
    t.put(s._replace(phase=s.todo[0][0] if s.todo else "over"))


def run_step(state: State, md: MuleData, ask: steps.Asker, say: Say
             ) -> tuple[State, Step, list[str]]:
    """Take the step that comes now on ``state``: its questions go to ``ask`` (``key,
    question, default, parse``). Returns the State after it, the step, and the lines said.
    Raises the refusal (``InputError``/``RuleError``) of an entry the rules forbid."""
    from companion.mule import steps

    s = begun(state, md)
    if s.over:
        raise RuleError("this game is over: The Ship is Back! was drawn")
    now = Step(s.turn, s.todo[0][0], s.todo[0][1])
    t = steps.Turn(s, md, ask, say)
    getattr(steps, STEPS[now.step][2])(t, now.who)
    advance(t, now.step)
    return t.state, now, t.lines


def scripted(given: dict[str, str], answers: dict[str, str]) -> steps.Asker:
    """Answers given beforehand (a step command's arguments): one try each, no retry."""

    def ask(key: str, question: str, default: str, parse: Callable[[str], Any]) -> Any:
        text = given.get(key, default)
        value = parse(text)
        answers[key] = text
        return value

    return ask


class Stuck(RuleError):
    """The asker keeps giving answers the rules refuse: asking again would never end.

    ``reason`` is the last refusal; from :func:`play_turn`, ``state`` and ``answers`` are those
    of the steps taken before the refused one (the refused step changed nothing)."""

    def __init__(self, reason: InputError | RuleError, times: int) -> None:
        super().__init__(f"{reason} (refused {times} times: stopped asking)")
        self.reason = reason
        self.times = times
        self.state: State | None = None
        self.answers: dict[str, Any] = {}


class Refusals:
    """The refusals of one step, counted so that asking again ends: an answer refused before
    (the same text to the same question, or the same answers to a whole step) may be given
    again ``repeats`` times, and a step is refused ``most`` times at most."""

    def __init__(self, repeats: int = 3, most: int = 50) -> None:
        self.repeats = repeats
        self.most = most
        self.seen: set[Any] = set()
        self.again = 0
        self.total = 0

    def refused(self, answer: Any, exc: InputError | RuleError) -> None:
        """Count a refusal of ``answer`` (hashable); raise :class:`Stuck` at a bound."""
        self.total += 1
        if answer in self.seen:
            self.again += 1
        self.seen.add(answer)
        if self.again >= self.repeats or self.total >= self.most:
            raise Stuck(exc, self.total) from exc


def interactive(ask: Ask, say: Say, answers: dict[str, str],
                refusals: Refusals | None = None) -> steps.Asker:
    """Questions asked at the table: a refused answer says why and is asked again, until the
    asker has given refused answers again too often (:class:`Refusals`; then :class:`Stuck`).
    The end of the asker's input is the asker's to signal (an exception of its own)."""
    count = Refusals() if refusals is None else refusals

    def asker(key: str, question: str, default: str, parse: Callable[[str], Any]) -> Any:
        while True:
            text = ask(question, default)
            try:
                value = parse(text)
            except (InputError, RuleError) as exc:
                say(f"  ! {exc}")
                count.refused((key, question, text), exc)
                continue
            answers[key] = text
            return value

    return asker


def take_step(state: State, md: MuleData, ask: Ask, say: Say
              ) -> tuple[State, Step, list[str], dict[str, str]]:
    """Take the step that comes now, asking its questions at the table (:func:`interactive`);
    a step refused as a whole once its questions are answered is asked again from its first
    question. Returns what :func:`run_step` does and the answers typed. Raises the refusal
    when no question was asked (nothing typed can change it) and :class:`Stuck` when the
    asker keeps giving refused answers; ``state`` is a value, never changed."""
    count = Refusals()
    asked = [0]

    def counted(question: str, default: str) -> str:
        asked[0] += 1
        return ask(question, default)

    while True:
        asked[0] = 0
        typed: dict[str, str] = {}
        try:
            after, done, lines = run_step(state, md, interactive(counted, say, typed, count),
                                          say)
        except Stuck:
            raise
        except (InputError, RuleError) as exc:
            if not asked[0]:        # nothing typed can change it: no asking again
                raise
            say(f"  ! {exc}")
            count.refused(("step", tuple(sorted(typed.items()))), exc)
            continue
        return after, done, lines, typed


def play_turn(state: State, md: MuleData, ask: Ask, say: Say
              ) -> tuple[State, dict[str, Any]]:
    """One Game Turn, step by step, from the step that comes now to the end of the turn (or of
    the game). Returns the State after it and the answers typed (``STEP.WHO.KEY`` -> text).

    A refused answer is asked again (:func:`take_step`); an asker that keeps giving refused
    answers ends the walk with :class:`Stuck`, which carries the State and answers of the
    steps taken before."""
    s = state
    now = current(s, md)
    if now is None:
        raise RuleError("this game is over: The Ship is Back! was drawn")
    turn = now.turn
    answers: dict[str, Any] = {}
    while True:
        now = current(s, md)
        if now is None or now.turn != turn:
            return s, answers
        try:
            s, done, _, typed = take_step(s, md, ask, say)
        except Stuck as exc:
            exc.state, exc.answers = s, answers
            raise
        for key, text in typed.items():
            answers[f"{done.step}.{done.who or ''}.{key}"] = text


# -- what the table reads --------------------------------------------------------------------------

def say_step(now: Step, state: State) -> str:
    phase, what, _ = STEPS[now.step]
    rnd = state.dev.round if state.dev else 1
    if now.step == "develop":
        if "single-action-round" in state.options:
            return f"{phase}: {now.who}'s single Action Round"
        return f"{phase}: {now.who}'s Action Round {rnd}"
    if now.step == "reveal":
        return (f"{phase}: the Production Card revealed at the beginning of Action Round "
                f"{rnd} (More Predictability; it takes effect at Production)")
    if now.step == "trade":
        return f"{phase}: the {str(now.who).capitalize()} Auction"
    if now.step in ("grant", "lucky", "unlucky") or (now.step == "auction" and now.who):
        verb = {"grant": "claims a Land", "lucky": "draws the Lucky Event",
                "unlucky": "draws the Unlucky Event",
                "auction": "plays a Land for Sale! card or not"}[now.step]
        return f"{phase}: {what}, {now.who} {verb}"
    return f"{phase}: {what}"


def _claimable(now: Step, state: State) -> list[Claimable]:
    """What ``now.who`` could claim in Land Grant (a claim they have to make, if any)."""
    from companion.mule import data
    from companion.mule.expansion import claimable

    return claimable(state, data.load(), str(now.who))


def command(now: Step, state: State) -> str:
    """The command that records the step that comes now."""
    base = "irata play mule "
    deck = bool(state.event_decks)
    who = now.who or ""
    if now.step == "grant":
        can = _claimable(now, state)
        if can:
            return base + f"grant {who} TILE@SQUARE   ({who} has to claim one: " \
                + "; ".join(c.describe() for c in can) + ")"
        return base + f"grant {who} TILE@SQUARE   (or: none)"
    if now.step == "auction":
        if now.who:
            return base + f"auction {who} TILE --bids 'raise out ...' --square SQUARE   " \
                f"(or the result: auction {who} WINNER BID TILE@SQUARE; auction {who} none; " \
                "auction none: nobody else this Turn)"
        return base + "auction SELLER WINNER BID TILE@SQUARE   (or: none)"
    if now.step == "package":
        return base + "package NAME=CARD,...   (or: none)"
    if now.step == "develop":
        return base + f'develop {who} "ACTIONS"   (e.g. "buy P07 F, assay"; or: pass)'
    if now.step == "reveal":
        return base + "reveal" + ("" if state.production_deck else " CARD")
    if now.step == "produce":
        card = "" if state.production_deck or state.card else " CARD"
        return base + f"produce{card}   [--flip NAME=TILES] [--hit NAME=LAND] " \
            "[--lands NAME=CELLS] [--craters ZONE,ZONE]"
    if now.step == "trade":
        from companion.mule import options

        chosen = state.options
        declare = " --declare NAME=B|S,..." if options.on(chosen, "declaring-buyers-and-sellers") \
            else ""
        offers = " [--offer 'NAME buys N@PRICE']" if options.on(chosen, "colonists-preferred") \
            else ""
        return base + f"trade {who}{declare}{offers} [--sell NAME=N,...] [--buy NAME=N,...] " \
            "[--deal 'SELLER>BUYER N@PRICE']"
    if now.step in ("lucky", "unlucky"):
        card = "" if deck else " CARD"
        to = "" if state.alt_events else " --to NAME"
        return base + f"{now.step} {who}{card}{to}"
    return base + ("final-market" if now.step == "sellout" else now.step)
