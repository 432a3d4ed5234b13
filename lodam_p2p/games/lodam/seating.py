"""Who sits where in a deal: the checked table, worked out once per table.

A deal's seating — who is dealt in, who watches, each seat's left neighbour, the dealing
order, hand and pack sizes, the strength of each card — depends only on the table
(options, dealer, counters), and a match deals at the same few tables again and again,
so a seating is a frozen value, reused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lodam_p2p.games.lodam.actions import MalformedInput
from lodam_p2p.games.lodam.cards import PlayFacts, play_facts, strength_table
from lodam_p2p.games.lodam.options import MAX_PLAYERS, MIN_PLAYERS, Options


@dataclass(frozen=True, slots=True)
class Seating:
    """Who is dealt in and in what order: the part of a deal fixed by its table."""

    lives: tuple[int, ...]
    active: tuple[bool, ...]  #: dealt in this deal
    watchers: tuple[bool, ...]  #: eliminated seats still watching (may challenge)
    left: tuple[int, ...]  #: for each seat, the next active seat to its left
    order: tuple[int, ...]  #: active seats in dealing order, eldest first
    hand_size: int
    pack_size: int
    strength: tuple[int, ...]  #: of each card index within its suit
    facts: tuple[PlayFacts, ...]  #: what playing each card changes (:func:`play_facts`)



#: Seatings worked out before, by table: a match deals at the same few tables again and
#: again, and a seating is a value (:class:`Seating`).
_SEATINGS: dict[tuple[object, ...], tuple[Options, Seating]] = {}
_SEATINGS_KEPT = 512


def seating(
    options: Options,
    dealer: int,
    lives: Sequence[int],
    match_active: Sequence[bool] | None,
    watchers: Sequence[bool] | None,
) -> Seating:
    """The checked seating of a table: ``lives`` per seat; ``match_active`` says who is
    still in the match (default: lives > 0, or everyone in Winning Lodam); ``watchers``
    which eliminated seats may challenge (default: all of them). ``MalformedInput`` if
    it is not a table. Reused when the same plain values come again (only exact ints
    and bools are looked up, since ``True == 1`` would let a bool pass for a seat)."""
    key = _plain_key(options, dealer, lives, match_active, watchers)
    if key is not None:
        found = _SEATINGS.get(key)
        if found is not None and found[0] is options:
            return found[1]
    seating = _work_out_seating(options, dealer, lives, match_active, watchers)
    if key is not None:
        if len(_SEATINGS) >= _SEATINGS_KEPT:
            _SEATINGS.clear()
        _SEATINGS[key] = (options, seating)
    return seating


def _plain_key(
    options: Options,
    dealer: int,
    lives: Sequence[int],
    match_active: Sequence[bool] | None,
    watchers: Sequence[bool] | None,
) -> tuple[object, ...] | None:
    if type(dealer) is not int or set(map(type, lives)) != _INT:
        return None
    flags = []
    for given in (match_active, watchers):
        if given is not None and not set(map(type, given)) <= _BOOL:
            return None
        flags.append(None if given is None else tuple(given))
    return (id(options), dealer, tuple(lives), *flags)


_INT, _BOOL = {int}, {bool}


def _work_out_seating(
    options: Options,
    dealer: int,
    lives: Sequence[int],
    match_active: Sequence[bool] | None,
    watchers: Sequence[bool] | None,
) -> Seating:
    players = _check_seats(lives, dealer)
    active = _active_seats(options, lives, match_active, players)
    seen = tuple(
        not active[s] and (watchers is None or bool(watchers[s])) for s in range(players)
    )
    left = tuple(_next_active(active, s) for s in range(players))
    order = _dealing_order(left, dealer, sum(active))
    m = len(order)
    hand_size = options.hand_size_for(m)
    return Seating(
        lives=tuple(lives), active=active, watchers=seen, left=left, order=order,
        hand_size=hand_size, pack_size=options.pack_size(m),
        strength=strength_table(options.rank_order), facts=play_facts(options.rank_order),
    )


def _check_seats(lives: Sequence[int], dealer: int) -> int:
    players = len(lives)
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise MalformedInput(f"a table seats 2 to 10 players, got {players}")
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise MalformedInput(f"dealer must be a seat 0 … {players - 1}, got {dealer!r}")
    for life in lives:
        if isinstance(life, bool) or not isinstance(life, int) or life < 0:
            raise MalformedInput(f"lives must be counts ≥ 0, got {life!r}")
    return players


def _active_seats(
    options: Options, lives: Sequence[int], match_active: Sequence[bool] | None, players: int
) -> tuple[bool, ...]:
    if match_active is None:
        active = tuple(options.winning or life > 0 for life in lives)
    else:
        if len(match_active) != players:
            raise MalformedInput("match_active must give one flag per seat")
        active = tuple(bool(a) for a in match_active)
    if sum(active) < MIN_PLAYERS:
        raise MalformedInput(f"a deal needs at least 2 active players, got {sum(active)}")
    return active


def _next_active(active: tuple[bool, ...], seat: int) -> int:
    n = len(active)
    for step in range(1, n + 1):
        if active[(seat + step) % n]:
            return (seat + step) % n
    raise MalformedInput("no active seat")


def _dealing_order(left: tuple[int, ...], dealer: int, count: int) -> tuple[int, ...]:
    """Active seats from the eldest hand (first active seat left of the dealer)."""
    order = [left[dealer]]
    while len(order) < count:
        order.append(left[order[-1]])
    return tuple(order)
