"""The bot contract of each game, typed and written out from the code.

A bot for one game is a ``Bot[View, Action]`` of that game's types: :data:`LodamBot`
and :data:`LorumBot` name them, so a bot author's type checker knows what ``decide``
reads and answers; a bot that reads only what every view has (``seat``, ``to_act``,
``legal``: the kit's :class:`~lodam_p2p.games.kit.deals.SeatView`) is an
:data:`AnyGameBot` and plays every game.

:func:`contract_markdown` writes, per game, the view's fields, the decisions and the
actions that answer them, from the classes themselves (their fields, types and ``#:``
comments) plus how to compare card strength. ``docs/bots.md`` holds that text between
markers, and a test fails when it differs (``python -m lodam_p2p.bots.contract``
prints it), so the guide cannot drift from the code.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import re
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType

from lodam_p2p.bots.api import Bot
from lodam_p2p.games import SeatView, lodam, lorum

#: A Lodam bot: reads a Lodam ``PlayerView``, answers a Lodam action.
LodamBot = Bot[lodam.PlayerView, lodam.Action]
#: A Lorum bot: reads a Lorum ``PlayerView``, answers a Lorum action.
LorumBot = Bot[lorum.PlayerView, lorum.Action]
#: A bot for every game: reads only what every view has, answers one of ``view.legal``.
AnyGameBot = Bot[SeatView, object]

#: How to compare card strength, per game (checked by a test against the rules).
STRENGTH = {
    "lodam": (
        "A Lodam `Rank` is an `IntEnum` of face values (`TWO` = 2 … `ACE` = 14): its value "
        "is **not** its strength. The table's `rank_order` option "
        "(`view.options.rank_order`, a `RankOrder`) decides: `WILLUGHBY` (the default) "
        "ranks A K Q J T 9 … 2, `PARLETT` ranks A T K Q J 9 … 2. Compare with "
        "`rank_strength(card, view.options.rank_order)` (from `lodam_p2p.games.lodam`; "
        "bigger wins) or `lodam_p2p.bots.knowledge.strength(card, view)`."
    ),
    "lorum": (
        "A Lorum `Rank` is an `IntEnum` whose value is its strength: `SEVEN` = 0 … "
        "`ACE` = 7 (7 8 9 T U O K A), so `card.rank` compares directly; there is no "
        "rank-order option. In the Lorum contract `view.fits` lists the cards that fit "
        "the rows now."
    ),
}


@dataclass(frozen=True, slots=True)
class GameContract:
    """What a bot of one game reads and answers: the classes of its package."""

    name: str  #: the game's name (``lodam``, ``lorum``)
    package: ModuleType  #: where a bot imports the values from
    view: type  #: the game's ``PlayerView``
    decision: type[enum.Enum]  #: the game's ``Decision``
    actions: tuple[type, ...]  #: the classes of the game's ``Action`` union


def contracts() -> tuple[GameContract, ...]:
    """Every game's contract, Lodam first."""
    return tuple(
        GameContract(package.__name__.rsplit(".", 1)[-1], package, package.PlayerView,
                     package.Decision, typing.get_args(package.Action))
        for package in (lodam, lorum)
    )


_FIELD = re.compile(r"^\s+(?P<name>\w+): [^#]+?(?:\s+#: (?P<text>.*))?$")
_MEMBER = re.compile(r"^\s+(?P<name>[A-Z_]+) = [^#]+?(?:\s+#: (?P<text>.*))?$")

#: What the fields the games' views leave uncommented mean (the same in every game).
FIELD_MEANING = {
    "seat": "this seat (0 … players−1)",
    "players": "how many seats the table has: a count, not a sequence (seats are "
               "`range(view.players)`)",
    "dealer": "the dealer's seat",
    "options": "the table's options (the game's `Options`)",
    "lives": "per seat, the counters it holds",
    "hand_sizes": "per seat, how many cards it holds",
    "talon_size": "cards left in the talon",
    "trump_card": "the turned trump card, once turned",
    "leader": "the seat that led the current trick",
    "current_trick": "`(seat, card)` of the trick on the table, in play order",
    "tricks": "the completed tricks of this deal",
    "exchanges": "the public record of this deal's exchanges",
    "contract": "the contract of this deal",
    "points": "per seat, the penalty points of this deal so far",
    "out": "seats that have gone out (played their last card)",
    "announced": "whether the red king was announced",
    "to_act": "the seat whose decision it is (`None` between steps)",
    "awaiting": "the decision awaited (see the decisions below)",
}


def _comments(cls: type, pattern: re.Pattern[str]) -> dict[str, str]:
    """The ``#:`` comment of each field or member line of ``cls``'s source."""
    found: dict[str, str] = {}
    for line in inspect.getsource(cls).splitlines():
        match = pattern.match(line)
        if match:
            found[match.group("name")] = match.group("text") or ""
    return found


def _type_arguments(cls: type) -> dict[str, str]:
    """The names ``cls`` gives its generic bases' type variables (``C`` → ``Card`` for
    an action built on the kit's ``SeatCard[Card]``)."""
    named: dict[str, str] = {}
    for klass in cls.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            origin = typing.get_origin(base)
            for variable, value in zip(getattr(origin, "__parameters__", ()),
                                       typing.get_args(base), strict=False):
                short = re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", str(value))  # no module paths
                named.setdefault(variable.__name__, getattr(value, "__name__", short))
    return named


def _field_rows(cls: type) -> Iterator[tuple[str, str, str]]:
    """``(name, type, meaning)`` of each dataclass field of ``cls``, its base's type
    variables named as ``cls`` fills them."""
    comments = _comments(cls, _FIELD)
    named = _type_arguments(cls)
    for item in dataclasses.fields(cls):
        text = comments.get(item.name) or FIELD_MEANING.get(item.name, "")
        kind = str(item.type)
        yield item.name, named.get(kind, kind), text


def _cell(text: str) -> str:
    """``text`` made safe inside a table cell (a type's ``|`` would split it)."""
    return text.replace("|", "\\|")


def _summary(cls: type) -> str:
    return (inspect.getdoc(cls) or "").split("\n\n")[0].replace("\n", " ")


def contract_markdown(contract: GameContract) -> str:
    """The guide's section on ``contract``'s game (see the module docstring)."""
    package = contract.package.__name__
    lines = [f"#### {contract.name}", "",
             f"Import the values from `{package}`. A bot of this game is a "
             f"`Bot[{contract.view.__name__}, Action]` "
             f"(`lodam_p2p.bots.contract.{contract.name.capitalize()}Bot`).", "",
             f"**The view** (`{contract.view.__name__}`, frozen):", "",
             "| field | type | meaning |", "|---|---|---|"]
    lines += [f"| `{name}` | `{_cell(kind)}` | {_cell(text)} |" for name, kind, text in
              _field_rows(contract.view)]
    member_text = _comments(contract.decision, _MEMBER)
    answers: dict[str, list[str]] = {}
    for action in contract.actions:
        decided = getattr(action, "decision", None)
        if isinstance(decided, contract.decision):
            answers.setdefault(decided.name, []).append(f"`{action.__name__}`")
    lines += ["", f"**The decisions** (`view.awaiting`, a `{contract.decision.__name__}`):",
              "", "| decision | answered with | meaning |", "|---|---|---|"]
    lines += [f"| `{member.name}` | {', '.join(answers.get(member.name, [])) or '—'} | "
              f"{member_text.get(member.name, '')} |" for member in contract.decision]
    lines += ["", "**The actions** (frozen values; every one has `seat`, the seat acting):",
              "", "| action | fields | decision | meaning |", "|---|---|---|---|"]
    for action in contract.actions:
        fields = ", ".join(f"`{name}: {_cell(kind)}`" for name, kind, _t in _field_rows(action))
        decided = getattr(action, "decision", None)
        lines.append(f"| `{action.__name__}` | {fields} | "
                     f"`{getattr(decided, 'name', '?')}` | {_summary(action)} |")
    lines += ["", f"**Card strength.** {STRENGTH[contract.name]}"]
    return "\n".join(lines)


#: The markers around the generated text in ``docs/bots.md``.
BEGIN = "<!-- contract: generated by python -m lodam_p2p.bots.contract; do not edit -->"
END = "<!-- end of contract -->"


def guide_section() -> str:
    """Every game's section, between the markers, as ``docs/bots.md`` holds it."""
    body = "\n\n".join(contract_markdown(contract) for contract in contracts())
    return f"{BEGIN}\n{body}\n{END}"


if __name__ == "__main__":
    print(guide_section())
