"""A Lorum match as plain JSON, and back: what a seat coming back to a table sits down in.

:func:`match_state` writes what the score sheet and the next deal depend on: the dealer,
the place in the contract order (``turn``; the order itself follows from the options),
the deals played, every seat's points, the purse (beans, pfennigs, the pot and the
pfennig sales) and the record of every scored deal and breach.

:func:`match_from_state` rebuilds the match. The state may come from another peer, so it
is checked strictly: every field of its own type and range, nothing coerced, and the
parts must agree with one another and with the options — as many deal records as
contracts played, each of the contract the order names at its place, the deals played
counting those and the breaches, points adding up to what the deals and breaches
scored, and the purse holding exactly what the table started with. ``ValueError`` says
what does not fit.

A short First-and-last whose stack carries over to the next deal saves where the stack
starts (``stack_at``), but the stack itself is part of an encrypted deck the table holds
only in memory: a match restored at such a point has lost it, and its next deal starts
from a new shuffle. A table resuming after a seat came back restores its match so at
every peer alike (:mod:`lodam_p2p.session.rejoin`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lodam_p2p.games.lorum.beans import PFENNIG, START_BEANS, Purse
from lodam_p2p.games.lorum.cards import PACK
from lodam_p2p.games.lorum.match import Match
from lodam_p2p.games.lorum.options import Contract, Options
from lodam_p2p.games.lorum.records import DealResult

#: The fields of a saved match, no more and no fewer.
FIELDS = frozenset({"dealer", "turn", "deals_played", "totals", "beans", "pfennigs", "pot",
                    "pot_pfennigs", "sales", "history", "breaches", "stack_at"})
_BIG = 2**31


def match_state(match: Match) -> dict[str, Any]:
    """``match`` as plain JSON (see the module docstring)."""
    purse = match.purse
    return {
        "dealer": match.dealer, "turn": match.turn, "deals_played": match.deals_played,
        "totals": list(match.totals), "beans": list(purse.beans),
        "pfennigs": list(purse.pfennigs), "pot": purse.pot, "pot_pfennigs": purse.pot_pfennigs,
        "sales": [[seller, buyer] for seller, buyer in purse.sales],
        "history": [{"contract": r.contract.value, "points": list(r.points), "out": list(r.out),
                     "announced": r.announced} for r in match.history],
        "breaches": [[seat, contract.value] for seat, contract in match.breaches],
        "stack_at": match._stack_at,
    }


def match_from_state(options: Options, players: int, state: object) -> Match:
    """The match ``state`` describes (:func:`match_state`) at a table of ``players``
    with ``options``; ``ValueError`` if it is unsound."""
    if not isinstance(state, dict) or set(state) != FIELDS:
        raise ValueError("a Lorum match state is an object of exactly "
                         + ", ".join(sorted(FIELDS)))
    dealer = _number(state, "dealer", 0, players - 1)
    match = Match.start(options, players, dealer)
    match.turn = _number(state, "turn", 0, len(match.schedule))
    match.deals_played = _number(state, "deals_played", 0, _BIG)
    _number(state, "stack_at", 0, len(PACK) - 1)  # the stack itself is lost: fresh
    match.totals = _per_seat(state, "totals", players, 0)
    match.purse = Purse(_per_seat(state, "beans", players, -_BIG), _per_seat(
        state, "pfennigs", players, 0), _number(state, "pot", 0, _BIG), _number(
        state, "pot_pfennigs", 0, _BIG), _sales(state["sales"], players))
    match.history = _history(state["history"], players)
    match.breaches = _breaches(state["breaches"], players)
    _agree(match, options)
    return match


def _agree(match: Match, options: Options) -> None:
    """The parts of a rebuilt match agree with one another (see the module docstring)."""
    players = match.players
    if len(match.history) != match.turn:
        raise ValueError("the deal records do not match the contracts played")
    if any(r.contract is not c for r, c in zip(match.history, match.schedule, strict=False)):
        raise ValueError("a deal record is not of the contract the order names")
    if any(c not in options.contracts for _, c in match.breaches):
        raise ValueError("a breach in a contract this table does not play")
    if match.deals_played != match.turn + len(match.breaches):
        raise ValueError("deals played are not the deals scored and the breaches")
    scored = [sum(r.points[s] for r in match.history)
              + options.breach_points * sum(1 for b, _ in match.breaches if b == s)
              for s in range(players)]
    if scored != match.totals:
        raise ValueError("the points are not what the deals and breaches scored")
    if match.purse.total() != players * (START_BEANS + PFENNIG):
        raise ValueError("the purse does not hold what the table started with")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(state: dict[str, Any], key: str, least: int, most: int) -> int:
    value = state[key]
    if not (_is_int(value) and least <= value <= most):
        raise ValueError(f"Lorum match state {key!r} is not a number from {least} to {most}")
    return int(value)


def _ints(value: object, count: int, fits: Callable[[int], bool]) -> list[int]:
    if not (isinstance(value, list) and len(value) == count
            and all(_is_int(v) and fits(v) for v in value)):
        raise ValueError("not one fit number per seat")
    return list(value)


def _per_seat(state: dict[str, Any], key: str, players: int, least: int) -> list[int]:
    try:
        return _ints(state[key], players, lambda v: least <= v < _BIG)
    except ValueError:
        raise ValueError(f"Lorum match state {key!r} is not one fit number per seat") from None


def _seat(value: object, players: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    raise ValueError(f"{value!r} is not a seat")


def _contract(value: object) -> Contract:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a contract")
    return Contract(value)  # ValueError if unknown


def _sales(value: object, players: int) -> list[tuple[int, int | None]]:
    if not (isinstance(value, list) and len(value) <= players * (START_BEANS + PFENNIG)):
        raise ValueError("Lorum match state 'sales' is not a list")
    sales: list[tuple[int, int | None]] = []
    for sale in value:
        if not (isinstance(sale, list) and len(sale) == 2):
            raise ValueError("a pfennig sale is not [seller, buyer]")
        seller, buyer = sale
        sales.append((_seat(seller, players), None if buyer is None else _seat(buyer, players)))
    return sales


def _history(value: object, players: int) -> list[DealResult]:
    if not isinstance(value, list):
        raise ValueError("Lorum match state 'history' is not a list")
    records = []
    for record in value:
        if not (isinstance(record, dict)
                and set(record) == {"contract", "points", "out", "announced"}
                and isinstance(record["announced"], bool)):
            raise ValueError("a deal record is not {contract, points, out, announced}")
        out = record["out"]
        if not (isinstance(out, list) and len(set(map(repr, out))) == len(out) <= players):
            raise ValueError("a deal record's 'out' is not distinct seats")
        records.append(DealResult(_contract(record["contract"]), tuple(_ints(
            record["points"], players, lambda v: 0 <= v < _BIG)), tuple(
            _seat(s, players) for s in out), record["announced"]))
    return records


def _breaches(value: object, players: int) -> list[tuple[int, Contract]]:
    if not isinstance(value, list):
        raise ValueError("Lorum match state 'breaches' is not a list")
    breaches = []
    for breach in value:
        if not (isinstance(breach, list) and len(breach) == 2):
            raise ValueError("a breach is not [seat, contract]")
        breaches.append((_seat(breach[0], players), _contract(breach[1])))
    return breaches
