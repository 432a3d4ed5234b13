"""The ismcts bot: legal under every option, within its budget, blind to hidden cards,
reproducible, and right in positions where the good move is plain."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from lodam_p2p.bots import BotOptionError, BotRegistry
from lodam_p2p.games.lodam import (
    FULL_PACK,
    SHORT_PACK,
    Action,
    Card,
    Deal,
    Decision,
    Match,
    Options,
    Play,
    Swallow,
)
from lodam_plugins.lodam.ismcts import LodamSearcher, lodam_ismcts
from tests.ismcts.helpers import OPTION_SETS, option_id


def _bot(seat: int, seed: int = 1, clock: object = None, **options: object) -> LodamSearcher:
    merged: dict[str, object] = {"iterations": 8, **options}
    if clock is None:
        return lodam_ismcts(seat=seat, seed=seed, options=merged)
    return lodam_ismcts(seat=seat, seed=seed, options=merged, clock=clock)  # type: ignore[arg-type]


def _play_match(
    options: Options, players: int, seed: int, met: set[Decision]
) -> list[LodamSearcher]:
    """A whole match between ismcts bots; every answer must be legal. ``met`` gathers
    the decisions that offered a real choice."""
    rng = random.Random(seed)
    bots = [_bot(s, seed + s) for s in range(players)]
    match = Match.start(options, players, rng.randrange(players))
    for _ in range(40):
        if match.is_over:
            break
        pack = SHORT_PACK if match.pack_size() == 32 else FULL_PACK
        deal = match.new_deal(rng.sample(pack, len(pack)))
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            action = bots[seat].decide(view)
            assert action in view.legal, (action, view.awaiting)
            if len(view.legal) > 1 and view.awaiting is not None:
                met.add(view.awaiting)
            deal.apply(action)
        match.finish_deal(deal)
    return bots


@pytest.mark.parametrize("values", OPTION_SETS, ids=option_id)
def test_every_answer_is_legal_under_every_option(values: dict[str, object]) -> None:
    options = Options.from_mapping({"lives": 2, **values})
    met: set[Decision] = set()
    for players, seed in ((4, 1), (3, 2), (6, 3)):
        if options.short_deck_at and players > 4:
            continue
        bots = _play_match(options, players, seed, met)
        assert all(bot.fallbacks == 0 for bot in bots)
    assert Decision.PLAY in met
    if options.exchanges.value != "off":
        assert {Decision.OFFER, Decision.ANSWER} <= met
    if options.declare_out:
        assert {Decision.DECLARE, Decision.CHALLENGE} <= met


class StepClock:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.reads = 100.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def _first_play(seed: int, players: int = 5) -> Deal:
    rng = random.Random(seed)
    options = Options.from_mapping({"exchanges": "off"})
    return Deal.start(options, 0, [3] * players, rng.sample(FULL_PACK, 52))


def test_the_search_stops_at_the_deadline() -> None:
    deal = _first_play(4)
    clock = StepClock(0.001)  # every read: one millisecond later
    bot = _bot(1, clock=clock, iterations=0, time_ms=50, early_stop=False)
    view = deal.view(1)
    started = clock.now
    bot.decide(view)
    assert bot.last is not None
    # one read per iteration: it ran until the budget (less the safety margin) was
    # spent, and not one read past it
    assert 40 <= bot.last.iterations <= 46
    assert clock.now - started <= 0.050 + 1e-9


def test_no_time_means_no_search_but_still_a_legal_answer() -> None:
    deal = _first_play(5)
    clock = StepClock(1.0)
    bot = _bot(1, clock=clock, iterations=0, time_ms=10)
    view = deal.view(1)
    assert bot.decide(view) in view.legal


def test_early_stop_when_the_leader_cannot_be_caught() -> None:
    deal = _first_play(6)
    view = deal.view(1)
    full = _bot(1, iterations=2000, early_stop=False)
    early = _bot(1, iterations=2000)
    assert full.decide(view) in view.legal
    early.decide(view)
    assert early.last is not None and full.last is not None
    assert early.last.iterations <= full.last.iterations


def _deal_actions(seed: int) -> list[Action]:
    bots = [_bot(s, seed + s, iterations=30) for s in range(4)]
    rng = random.Random(seed)
    deal = Deal.start(Options(), 0, [3] * 4, rng.sample(FULL_PACK, 52))
    taken = []
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        action = bots[seat].decide(deal.view(seat))
        taken.append(action)
        deal.apply(action)
    return taken


def test_seeded_runs_with_an_iteration_budget_repeat() -> None:
    assert _deal_actions(11) == _deal_actions(11)


def test_only_the_view_counts() -> None:
    """Two deals that look the same to seat 0 but hide different cards: same answer,
    same search."""
    rng = random.Random(8)
    deck = rng.sample(FULL_PACK, 52)
    # seat 0 gets deck[0], deck[4], …; shuffle every other card among the others
    mine = deck[0:48:4]
    others = [c for c in deck if c not in mine]
    rng.shuffle(others)
    second = list(deck)
    for i in range(52):
        if not (i < 48 and i % 4 == 0):
            second[i] = others.pop()
    options = Options.from_mapping({"exchanges": "off"})
    first_deal = Deal.start(options, 3, [3] * 4, deck)
    second_deal = Deal.start(options, 3, [3] * 4, second)
    assert first_deal.hand(1) != second_deal.hand(1)
    view = first_deal.view(0)
    assert view == second_deal.view(0)
    one, two = _bot(0, 5, iterations=300), _bot(0, 5, iterations=300)
    assert one.decide(view) == two.decide(second_deal.view(0))
    assert one.last is not None and two.last is not None
    assert one.last.visits == two.last.visits


# -- positions with a plain answer --------------------------------------------------------


def _position(hands: Sequence[str], talon_top: str, options: dict[str, object]) -> Deal:
    """Four seats, dealer 3 (seat 0 is eldest), the given hands and talon top."""
    held = [[Card.parse(c) for c in hand.split()] for hand in hands]
    size = len(held[0])
    top = Card.parse(talon_top)
    used = {c for hand in held for c in hand} | {top}
    deck: list[Card] = [held[k][j] for j in range(size) for k in range(4)]
    deck.append(top)
    deck.extend(c for c in FULL_PACK if c not in used)
    return Deal.start(Options.from_mapping({"hand_size": size, **options}), 3, [3] * 4, deck)


def _apply(deal: Deal, *plays: str) -> None:
    for text in plays:
        seat = deal.to_act
        assert seat is not None
        deal.apply(Play(seat, Card.parse(text)))


def test_dumps_an_ace_on_a_trick_another_seat_must_take() -> None:
    # spades led; seat 1 trumps (the turned talon card makes clubs trump); seat 3 has
    # no spade and no club: the ace of hearts can go to someone else now
    deal = _position(["5S 2D 3D", "7C 8H 9H", "6S 2H 3H", "AH 4D 5D"], "9C",
                     {"exchanges": "off"})
    _apply(deal, "5S", "7C", "6S")
    view = deal.view(3)
    assert view.trump is not None
    assert _bot(3, 3, iterations=600).decide(view) == Play(3, Card.parse("AH"))


def test_leaves_a_trick_full_of_points_to_the_trumper() -> None:
    deal = _position(["5S 2D 3D", "7C 8H 9H", "6S 2H 3H", "AH 4D 5D"], "9C",
                     {"exchanges": "off"})
    _apply(deal, "5S", "7C", "6S", "AH")
    assert deal.awaiting is Decision.SWALLOW and deal.to_act == 2
    view = deal.view(2)
    assert _bot(2, 4, iterations=300).decide(view) == Swallow(2, False)


def test_ducks_rather_than_reach_out_at() -> None:
    # queen of spades led, ten added: taking it with the king makes 15 = out_at
    deal = _position(["QS 2D 3D", "TS 8H 9H", "2S 2H 3H", "KS 3S 4D"], "9C",
                     {"exchanges": "off", "out_at": 15})
    _apply(deal, "QS", "TS", "2S")
    view = deal.view(3)
    assert _bot(3, 6, iterations=600).decide(view) == Play(3, Card.parse("3S"))


def test_registered_with_its_options() -> None:
    registry = BotRegistry.load()
    bot_type = registry.get("ismcts")
    parsed = bot_type.parse_options({"time_ms": "50", "iterations": "10"})
    assert parsed["time_ms"] == 50 and parsed["iterations"] == 10
    for bad in ({"time_ms": "0"}, {"iterations": "-1"}, {"c": "-0.5"}, {"time_ms": "x"}):
        with pytest.raises(BotOptionError, match="ismcts"):
            bot_type.parse_options(bad)
    bot = bot_type.make(0, 1, {"iterations": "4"})
    deal = _first_play(2, 4)
    view = deal.view(deal.to_act or 0)
    if view.seat == 0:
        assert bot.decide(view) in view.legal
