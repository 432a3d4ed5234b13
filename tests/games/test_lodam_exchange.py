"""Lodam's hidden exchanges behind the game interface: the table's log of a deal, with its
offers opened and its transfers, replays clean, and each lie in it names its teller."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import pytest

from lodam_p2p.games import (
    HiddenExchange,
    LoggedMove,
    PublicMove,
    WireAction,
    WireValue,
    get_game,
)
from lodam_p2p.games.lodam import GAME, Action, Answer, Card, Offer, Options, Play


@dataclass
class Table:
    """A deal played by a policy that trades whenever it may, logged as a table logs it."""

    deck: tuple[Card, ...]
    log: list[LoggedMove] = field(default_factory=list)
    offers: dict[int, int | str] = field(default_factory=dict)
    transfers: set[tuple[int, int, int]] = field(default_factory=set)


def _choose(legal: list[Action]) -> Action:
    for kind in (Offer, Answer):
        trades = [a for a in legal if isinstance(a, kind) and a.card is not None]
        if trades:
            return trades[0]
    plays = [a for a in legal if isinstance(a, Play)]
    return plays[0] if plays else legal[0]


def _played(seed: int) -> Table:
    match = GAME.start_match(Options(), 4, 0)
    deck = list(GAME.deal_plan(match).pack)
    random.Random(seed).shuffle(deck)
    table = Table(tuple(deck))
    deal = GAME.new_deal(match, deck)
    offer: tuple[int, int] | None = None
    while not deal.is_over:
        action = _choose(deal.legal_actions())
        deal.apply(action)
        step, wire = len(table.log), GAME.encode_action(action)
        args: tuple[WireValue, ...] = wire.args
        if isinstance(action, Play):
            args = (deck.index(action.card),)
        elif isinstance(action, Offer) and action.card is not None:
            offer = (action.seat, deck.index(action.card))
            table.offers[step] = offer[1]
        elif isinstance(action, Answer):
            args = (None,)
            if action.card is not None:
                assert offer is not None
                mine = deck.index(action.card)
                args = (mine, offer[1], deal.public.exchanges[-1].void)
                table.transfers |= {(action.seat, mine, offer[0]),
                                    (offer[0], offer[1], action.seat)}
        table.log.append(LoggedMove(action.seat, wire.kind, step, args))
    return table


def _audit(table: Table) -> tuple[int, str] | None:
    exchanges = GAME.exchanges
    assert exchanges is not None
    match = GAME.start_match(Options(), 4, 0)
    replayed = exchanges.audit(match, table.deck, masked={}, log=table.log,
                               offers=table.offers, transfers=frozenset(table.transfers))
    error = replayed.error
    return None if error is None else (error.seat, error.offence)


def _first(table: Table, kind: str, accepted: bool = True) -> int:
    return next(i for i, e in enumerate(table.log)
                if e.kind == kind and (e.args[0] is not None) is accepted)


def test_lodam_states_its_exchanges_and_lorum_has_none() -> None:
    assert isinstance(GAME.exchanges, HiddenExchange)
    assert get_game("lorum").exchanges is None


def test_an_honest_log_replays_to_the_end() -> None:
    table = _played(3)
    assert any(e.kind == "answer" and e.args[0] is not None for e in table.log)
    assert _audit(table) is None


def test_a_false_void_claim_names_the_offerer() -> None:
    table = _played(3)
    i = _first(table, "answer")
    mine, theirs, void = table.log[i].args
    table.log[i] = replace(table.log[i], args=(mine, theirs, not void))
    offerer = next(e.seat for e in reversed(table.log[:i]) if e.kind == "offer")
    assert _audit(table) == (offerer, "false-void-claim")


def test_an_offer_whose_opening_fails_names_its_seat() -> None:
    table = _played(3)
    i = _first(table, "offer")
    table.offers[table.log[i].step] = "the opening does not match the commitment"
    assert _audit(table) == (table.log[i].seat, "offer-opening")


def test_a_card_handed_over_without_its_transfer_names_the_acceptor() -> None:
    table = _played(3)
    i = _first(table, "answer")
    entry = table.log[i]
    table.transfers = {t for t in table.transfers if t[0] != entry.seat}
    assert _audit(table) == (entry.seat, "transfer-position")


def test_a_card_played_from_another_hand_is_a_false_play() -> None:
    table = _played(3)
    i = _first(table, "play")
    entry = table.log[i]
    schedule = GAME.deal_plan(GAME.start_match(Options(), 4, 0)).schedule
    assert isinstance(entry.args[0], int)
    other = next(p for p, seat in enumerate(schedule)
                 if seat is not None and seat != schedule[entry.args[0]])
    table.log[i] = replace(entry, args=(other,))
    assert _audit(table) == (entry.seat, "false-play")


@pytest.mark.parametrize(("wire", "text"), [
    (WireAction("offer", (None,)), "seat 1 makes no offer"),
    (WireAction("answer"), "seat 1 declines"),
    (WireAction("swallow", (True,)), "seat 1 swallows the trick"),
    (WireAction("declare", (True, 2)), "seat 1 declares out, challenging seat 2"),
    (WireAction("challenge", (None,)), "seat 1 does not challenge"),
])
def test_moves_are_told_without_a_hidden_card(wire: WireAction, text: str) -> None:
    exchanges = GAME.exchanges
    assert exchanges is not None
    public = GAME.public_start(GAME.start_match(Options(), 4, 0))
    assert exchanges.move_text(public, PublicMove(1, wire)) == text
