"""Perft: the number of decision sequences from small positions, counted through the
engine (``copy`` + ``legal_actions``) and by a brute-force enumeration written here,
apart from the engine, over plain lists of card strings."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lodam_p2p.games.lorum import Contract, Deal, Options, deal_plan
from tests.lorum.helpers import deck_for

RANKS = "789TUOKA"


def engine_perft(deal: Deal) -> int:
    if deal.is_over:
        return 1
    total = 0
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        total += engine_perft(child)
    return total


# -- brute force: trick contracts from a trick boundary -------------------------------

def _trick_leaves(hands: list[list[str]], leader: int, t: int, count: int, *,
                  contract: str, taken: list[str]) -> int:
    if t == count or _ended(contract, taken, t):
        return 1
    announce = 2 if (contract == "red_king" and t == count - 1
                     and any("KH" in h for h in hands)) else 1
    return announce * _fill(hands, leader, [], (t, count), contract=contract, taken=taken)


def _ended(contract: str, taken: list[str], t: int) -> bool:
    if contract == "reds":
        return sum(c[1] == "H" for c in taken) == 8
    if contract == "obers":
        return sum(c[0] == "O" for c in taken) == 4
    if contract == "fifth":
        return t >= 5
    return contract == "red_king" and "KH" in taken


def _fill(hands: list[list[str]], leader: int, trick: list[tuple[int, str]],
          when: tuple[int, int], *, contract: str, taken: list[str]) -> int:
    n = len(hands)
    t, count = when
    if len(trick) == n:
        led = trick[0][1][1]
        winner = max((p for p in trick if p[1][1] == led), key=lambda p: RANKS.index(p[1][0]))
        return _trick_leaves(hands, winner[0], t + 1, count, contract=contract,
                             taken=taken + [c for _, c in trick])
    seat = (leader + len(trick)) % n
    hand = hands[seat]
    options = hand
    if trick and any(c[1] == trick[0][1][1] for c in hand):
        options = [c for c in hand if c[1] == trick[0][1][1]]
    total = 0
    for card in options:
        rest = [list(h) for h in hands]
        rest[seat].remove(card)
        total += _fill(rest, leader, [*trick, (seat, card)], when, contract=contract,
                       taken=taken)
    return total


# -- brute force: Quartet from a lead ---------------------------------------------------

def _quartet_leaves(hands: list[list[str]], leader: int) -> int:
    total = 0
    for lead in hands[leader]:
        rest = [list(h) for h in hands]
        rest[leader].remove(lead)
        card, last, length = lead, leader, 1
        while rest[last] and length < 4 and card[0] != "A":
            card = RANKS[RANKS.index(card[0]) + 1] + card[1]
            holder = next((s for s, h in enumerate(rest) if card in h), None)
            if holder is None:
                break
            rest[holder].remove(card)
            last, length = holder, length + 1
        total += 1 if not rest[last] else _quartet_leaves(rest, last)
    return total


# -- brute force: Lorum (any start, no play-on) from a turn --------------------------------

def _lorum_leaves(hands: list[list[str]], turn: int, rows: dict[str, list[str]],
                  start: int, aside: list[str]) -> int:
    n = len(hands)
    for _ in range(n * 40):
        fits = [c for c in hands[turn] if _fits(c, rows, start)]
        if fits:
            break
        turn = (turn + 1) % n
    total = 0
    for card in fits:
        rest = [list(h) for h in hands]
        rest[turn].remove(card)
        new_rows = {s: list(r) for s, r in rows.items()}
        new_rows.setdefault(card[1], []).append(card)
        left = list(aside)
        for extra in ("7S", "8S", "7S"):
            if extra in left and _fits(extra, new_rows, start):
                left.remove(extra)
                new_rows.setdefault("S", []).append(extra)
        if not rest[turn]:
            total += 1
        else:
            total += _lorum_leaves(rest, (turn + 1) % n, new_rows, start, left)
    return total


def _fits(card: str, rows: dict[str, list[str]], start: int) -> bool:
    row = rows.get(card[1], [])
    if not row:
        return RANKS.index(card[0]) == start
    return len(row) < 8 and RANKS.index(card[0]) == (RANKS.index(row[-1][0]) + 1) % 8


# -- the positions ----------------------------------------------------------------------

def _advance(deal: Deal, rng: random.Random, until: Any) -> None:
    while not deal.is_over and not until(deal):
        deal.apply(rng.choice(deal.legal_actions()))


def _hands(deal: Deal) -> list[list[str]]:
    return [[str(c) for c in deal.hand(s)] for s in range(deal.players)]


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_short_first_last_whole_deal(players: int, seed: int) -> None:
    rng = random.Random(seed)
    plan = deal_plan(players, seed % players, short=True)
    deal = Deal.start(Options(), Contract.FIRST_LAST, seed % players, deck_for(players, rng),
                      players=players, plan=plan)
    brute = _trick_leaves(_hands(deal), deal.public.leader, 0, 2, contract="first_last",
                          taken=[])
    assert engine_perft(deal) == brute > 1


@pytest.mark.parametrize("contract", ["reds", "obers", "tricks", "red_king", "fifth"])
@pytest.mark.parametrize("seed", range(3))
def test_trick_contracts_from_the_last_tricks(contract: str, seed: int) -> None:
    rng = random.Random(f"{contract}{seed}")
    players = 3 + seed % 2
    count = 8 if players == 4 else 10
    deal = Deal.start(Options(), Contract(contract), 0, deck_for(players, rng), players=players)
    _advance(deal, rng, lambda d: len(d.tricks) == count - 3 and not d.public.current_trick)
    brute = 1 if deal.is_over else _trick_leaves(
        _hands(deal), deal.public.leader, len(deal.tricks), count, contract=contract,
        taken=[str(c) for t in deal.tricks for _, c in t.cards])
    assert engine_perft(deal) == brute


@pytest.mark.parametrize("seed", range(6))
def test_quartet_from_a_late_lead(seed: int) -> None:
    rng = random.Random(seed)
    players = 3 + seed % 2
    deal = Deal.start(Options(), Contract.QUARTET, 1, deck_for(players, rng), players=players)
    _advance(deal, rng, lambda d: sum(d.public.hand_sizes) <= 14)
    brute = 1 if deal.is_over else _quartet_leaves(_hands(deal), deal.public.leader)
    assert engine_perft(deal) == brute


@pytest.mark.parametrize("seed", range(6))
def test_lorum_from_a_late_turn(seed: int) -> None:
    rng = random.Random(seed)
    players = 3 + seed % 2
    deal = Deal.start(Options(), Contract.LORUM, 2, deck_for(players, rng), players=players)
    _advance(deal, rng, lambda d: sum(d.public.hand_sizes) <= 11)
    if deal.is_over:
        assert engine_perft(deal) == 1
        return
    rows: dict[str, list[str]] = {}
    aside = ["7S", "8S"] if players == 3 else []
    for _, card in deal.public.lays:
        if card is not None:
            rows.setdefault(str(card)[1], []).append(str(card))
            if str(card) in aside:
                aside.remove(str(card))
    turn = deal.to_act
    assert turn is not None
    brute = _lorum_leaves(_hands(deal), turn, rows, deal.public.start_rank, aside)
    assert engine_perft(deal) == brute
