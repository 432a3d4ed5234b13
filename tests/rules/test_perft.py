"""Perft: the number of legal decision sequences from a few small fixed deals.

Each count is computed three ways: by walking the engine's ``legal_actions()`` (with
``Deal.copy``), by a brute-force enumerator written here from RULES.md alone (strings and
lists, no engine code), and as a fixed number recorded once. The sequences include the
swallow answers, so a deal that asks the swallow question branches twice there.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from lodam_p2p.games.lodam import Card, Deal, Options
from tests.rules.helpers import deck_for

POINTS = {"A": 11, "T": 10, "K": 3, "Q": 2, "J": 1}
ORDERS = {"willughby": "23456789TJQKA", "parlett": "23456789JQKTA"}


@dataclass(frozen=True)
class Table:
    """A small fixed deal: hands by seat (eldest = seat 0, the last seat deals)."""

    hands: tuple[str, ...]
    talon_top: str
    out_at: int = 31
    trump_memory: bool = False
    rank_order: str = "willughby"


TABLES = {
    "three-by-two": Table(("AS 2H", "KS 3D", "5C TH"), "7C"),
    "three-by-three": Table(("KS 2H 9C", "AH 4S 3D", "QS TS 5H"), "4H"),
    "three-by-three-parlett": Table(("KS 2H 9C", "AH 4S 3D", "QS TS 5H"), "4H",
                                    rank_order="parlett"),
    "three-by-three-memory": Table(("KS 2H 9C", "AH 4S 3D", "QS TS 5H"), "4H",
                                   trump_memory=True),
    "four-by-three-out-at-10": Table(("AS 2H 3C", "KS TH 4C", "2S 5H AC", "3S QH 5D"),
                                     "9H", out_at=10),
    "two-by-three": Table(("AD 2D KC", "TD 3C 4S"), "5S"),
    "three-by-four": Table(("KS 2H 9C JD", "AH 4S 3D QC", "QS TS 5H 8D"), "4H"),
    "four-by-four": Table(("KS 2H 9C JD", "AH 4S 3D QC", "QS TS 5H 8D", "AC 2S 6D TH"), "7S"),
    "five-by-three": Table(("KS 2H 9C", "AH 4S 3D", "QS TS 5H", "AC 2S 6D", "KD 5S 6C"), "7D",
                           out_at=14),
}

#: (sequences, sequences ending with each seat losing a counter), recorded once
FIXED = {
    "five-by-three": (223, (28, 48, 6, 53, 88)),
    "four-by-four": (222, (0, 143, 55, 24)),
    "four-by-three-out-at-10": (6, (1, 0, 3, 2)),
    "three-by-four": (168, (51, 100, 18)),
    "three-by-three": (114, (56, 74, 3)),
    "three-by-three-memory": (220, (119, 130, 3)),
    "three-by-three-parlett": (122, (27, 73, 46)),
    "three-by-two": (6, (3, 0, 3)),
    "two-by-three": (13, (9, 4)),
}

#: a larger deal, five hands of five
FIVE_BY_FIVE = Table(("KS 2H 9C JD 3S", "AH 4S 3D QC 7H", "QS TS 5H 8D 2C", "AC 2S 6D TH 9S",
                      "KD 5S 6C JH 8C"), "7D")


# --- the brute force, from the rules text alone -------------------------------------------


@dataclass(frozen=True)
class Position:
    """Where the brute force stands: hands, trump, leader, points, the trick so far."""

    hands: tuple[frozenset[str], ...]
    trump: str | None
    leader: int
    points: tuple[int, ...]
    trick: tuple[tuple[int, str], ...]
    tricks_left: int


class Brute:
    """Counts complete decision sequences by trying every legal card and swallow."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.losses = [0] * len(table.hands)

    def strength(self, card: str) -> int:
        return ORDERS[self.table.rank_order].index(card[0])

    def walk(self, pos: Position) -> int:
        n = len(pos.hands)
        if len(pos.trick) == n:
            return self.score(pos)
        seat = (pos.leader + len(pos.trick)) % n
        hand = pos.hands[seat]
        led = pos.trick[0][1][1] if pos.trick else None
        following = [c for c in hand if c[1] == led]
        total = 0
        for card in sorted(following or hand):
            trump = pos.trump
            if led is not None and card[1] != led and trump is None:
                trump = self.table.talon_top[1]
            hands = (*pos.hands[:seat], hand - {card}, *pos.hands[seat + 1 :])
            trick = (*pos.trick, (seat, card))
            total += self.walk(Position(hands, trump, pos.leader, pos.points, trick,
                                        pos.tricks_left))
        return total

    def score(self, pos: Position) -> int:
        trick, trump = pos.trick, pos.trump
        led = trick[0][1][1]
        trumps = [(s, c) for s, c in trick if c[1] == trump]
        led_cards = [(s, c) for s, c in trick if c[1] == led]
        high_led = max(led_cards, key=lambda sc: self.strength(sc[1]))[0]
        winner = max(trumps or led_cards, key=lambda sc: self.strength(sc[1]))[0]
        renounced = len(led_cards) < len(trick)
        asked = renounced if self.table.trump_memory else bool(trumps) and trump != led
        gained = sum(POINTS.get(c[0], 0) for _, c in trick)
        total = 0
        for taker in [winner, high_led] if asked else [winner]:
            points = list(pos.points)
            points[taker] += gained
            if points[taker] >= self.table.out_at:
                self.losses[taker] += 1
                total += 1
            elif pos.tricks_left == 1:
                for seat, held in enumerate(points):
                    self.losses[seat] += held == max(points)
                total += 1
            else:
                total += self.walk(Position(pos.hands, trump, taker, tuple(points), (),
                                            pos.tricks_left - 1))
        return total


def brute(table: Table) -> tuple[int, tuple[int, ...]]:
    """(complete decision sequences, per seat how many of them cost it a counter)."""
    hands = tuple(frozenset(h.split()) for h in table.hands)
    counter = Brute(table)
    start = Position(hands, None, 0, (0,) * len(hands), (), len(table.hands[0].split()))
    total = counter.walk(start)
    return total, tuple(counter.losses)


# --- the engine walk ----------------------------------------------------------------------


def engine_deal(table: Table) -> Deal:
    n = len(table.hands)
    hands = dict(enumerate(table.hands))
    deck = [Card.parse(c) for c in deck_for(hands, n - 1, n, table.talon_top)]
    options = Options.from_mapping({
        "exchanges": "off", "hand_size": len(table.hands[0].split()), "out_at": table.out_at,
        "trump_memory": table.trump_memory, "rank_order": table.rank_order,
    })
    return Deal.start(options, n - 1, [3] * n, deck)


def perft(deal: Deal, losses: list[int]) -> int:
    if deal.is_over:
        for seat, change in enumerate(deal.result().counter_change):
            losses[seat] += change < 0
        return 1
    total = 0
    for action in deal.legal_actions():
        child = deal.copy()
        child.apply(action)
        total += perft(child, losses)
    return total


@pytest.mark.parametrize("name", sorted(TABLES))
def test_engine_perft_matches_the_brute_force(name: str) -> None:
    table = TABLES[name]
    losses = [0] * len(table.hands)
    count = perft(engine_deal(table), losses)
    assert (count, tuple(losses)) == brute(table)


@pytest.mark.parametrize("name", sorted(FIXED))
def test_perft_fixed_numbers(name: str) -> None:
    table = TABLES[name]
    losses = [0] * len(table.hands)
    assert (perft(engine_deal(table), losses), tuple(losses)) == FIXED[name]


@pytest.mark.slow
def test_perft_of_a_larger_deal() -> None:
    losses = [0] * 5
    count = perft(engine_deal(FIVE_BY_FIVE), losses)
    expected = (109634, (11396, 78294, 5660, 6626, 10800))
    assert (count, tuple(losses)) == expected == brute(FIVE_BY_FIVE)
