"""The deal machine's checked and unchecked uses agree.

One deal is played four ways at once with the same random choices: a :class:`Deal`
taking actions (checked), a second one taking their codes (checked, as the benchmark
drives it), the machine stepped by codes with its hidden part filled in (unchecked, as
a search runs it), and a :class:`PublicDeal` fed only the public events.
At every step they must agree on whose turn it is and on what, the legal moves (as
actions and as codes, and the machine's test of a single code over the whole code
space), hands, points, the trump and, at the end, the result. Part-way, the unchecked
machine is rebuilt from the public tracker plus the hidden part, as the search bot does
from a replayed view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lodam_p2p.games.lodam import (
    FULL_PACK,
    SHORT_PACK,
    Action,
    Answer,
    Card,
    Challenge,
    Deal,
    Decision,
    Declare,
    IllegalAction,
    MalformedInput,
    Offer,
    Options,
    Play,
    PublicDeal,
    PublicExchange,
    Swallow,
)
from lodam_p2p.games.lodam.cards import Kind, mask_of
from lodam_p2p.games.lodam.codes import action_of, bits, code_of
from lodam_p2p.games.lodam.machine import DealMachine

#: every code, and a few that are none
CODE_SPACE = range(-3, 520)

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"declare_out": True},
    {"declare_out": True, "out_at": 12},
    {"trump_memory": True},
    {"winning": True},
    {"exchanges": "first_trick"},
    {"exchanges": "off", "out_at": 15},
    {"rank_order": "parlett", "out_at": 20},
    {"short_deck_at": 4},
    {"hand_size": 3},
]


@dataclass
class Table:
    options: Options
    lives: list[int]
    dealer: int
    deck: list[Card]
    seed: int


def _table(rng: random.Random, options: Options) -> Table:
    """Lives per seat (an eliminated watcher now and then), a dealer still in, a deck."""
    players = rng.randint(2, 4) if options.short_deck_at else rng.randint(2, 10)
    lives = [rng.randint(1, 3) for _ in range(players)]
    if not options.winning and players > 3 and rng.random() < 0.5:
        lives[rng.randrange(players)] = 0
    dealer = rng.randrange(players)
    while lives[dealer] == 0 and not options.winning:
        dealer = (dealer + 1) % players
    dealt_in = sum(1 for life in lives if life > 0 or options.winning)
    pack = SHORT_PACK if options.pack_size(dealt_in) == 32 else FULL_PACK
    return Table(options, lives, dealer, rng.sample(pack, len(pack)), rng.randrange(1 << 30))


@st.composite
def tables(draw: st.DrawFn) -> Table:
    options = Options.from_mapping({
        "exchanges": draw(st.sampled_from(["every_trick", "first_trick", "off"])),
        "declare_out": draw(st.booleans()),
        "trump_memory": draw(st.booleans()),
        "winning": draw(st.booleans()),
        "rank_order": draw(st.sampled_from(["willughby", "parlett"])),
        "out_at": draw(st.integers(1, 60)),
        "short_deck_at": draw(st.sampled_from([0, 0, 4])),
    })
    return _table(random.Random(draw(st.integers(0, 1 << 30))), options)


def _agree(deal: Deal, sim: DealMachine[int], tracker: PublicDeal) -> None:
    """Every fact the three share is equal."""
    for machine in (sim, tracker):
        assert machine.to_act == deal.to_act
        assert machine.awaiting is deal.awaiting
        assert machine.points == deal.points
        assert machine.leader == deal.leader
        assert machine.tricks_played == len(deal.tricks)
        assert machine.is_over == deal.is_over
    assert tracker.trump == deal.trump and tracker.trump_card == deal.trump_card
    assert sim.trump_suit == (-1 if deal.trump is None else int(deal.trump))
    assert tracker.current_trick == deal.current_trick
    assert tracker.tricks == deal.tricks
    assert tracker.pending_offer == deal.public.pending_offer
    assert tracker.hand_sizes == [len(deal.hand(s)) for s in range(deal.players)]
    assert sim.hands == [mask_of(deal.hand(s)) for s in range(deal.players)]
    if deal.is_over:
        result = deal.result()
        for machine in (sim, tracker):
            assert (machine.out, machine.counter_change) == (result.out, result.counter_change)
            assert machine.reason == result.reason
        assert sim.legal == () and deal.legal == ()
        return
    seat, awaiting = deal.to_act, deal.awaiting
    assert seat is not None and awaiting is not None
    codes, actions = sim.legal, deal.legal
    assert tuple(action_of(seat, awaiting, c) for c in codes) == actions
    assert tuple(code_of(a) for a in actions) == codes
    assert deal.legal_codes() == codes and sim.legal_codes() == codes
    assert deal.legal_actions() == list(actions)
    assert {c for c in CODE_SPACE if sim.allows(c)} == set(codes)


def _tell(tracker: PublicDeal, deal: Deal, action: Action) -> None:
    """Feed ``tracker`` the public event of ``action``, just applied to ``deal``."""
    if isinstance(action, Play):
        tracker.play(action.seat, action.card, deal.talon[0])
    elif isinstance(action, Offer):
        tracker.offer(action.seat, None if action.card is None else action.card.kind)
    elif isinstance(action, Answer):
        if action.card is None:
            tracker.answer(action.seat, False)
        else:
            tracker.answer(action.seat, True, deal.public.exchanges[-1].void)
    elif isinstance(action, Swallow):
        tracker.swallow(action.seat, action.take)
    elif isinstance(action, Declare):
        tracker.declare(action.seat, action.out, action.challenge)
    else:
        assert isinstance(action, Challenge)
        tracker.challenge(action.seat, action.target)


def _play_three_ways(table: Table, rebuild_at: int | None) -> int:
    """Play one deal on all three with the same random codes; the number of steps."""
    options, lives, dealer = table.options, table.lives, table.dealer
    rng = random.Random(table.seed)
    deal = Deal.start(options, dealer, lives, table.deck)
    coded = Deal.start(options, dealer, lives, table.deck)
    tracker = PublicDeal.start(options, dealer, lives)
    dealt = [mask_of(h) for h in deal.dealt_hands]
    sim = PublicDeal.start(options, dealer, lives).with_hidden(dealt, deal.talon[0].index)
    steps = 0
    while True:
        _agree(deal, sim, tracker)
        _agree(coded, sim, tracker)
        if deal.is_over:
            assert coded.result() == deal.result() and coded.exchanges == deal.exchanges
            return steps
        if steps == rebuild_at:
            offered = deal.offered_card
            hands = [mask_of(deal.hand(s)) for s in range(deal.players)]
            top, card = deal.talon[0].index, -1 if offered is None else offered.index
            sim = tracker.with_hidden(hands, top, card)
            _agree(deal, sim, tracker)
        codes = sim.legal
        # prefer the quiet answers a little, so that deals also run long
        code = codes[0] if len(codes) > 1 and rng.random() < 0.3 else rng.choice(codes)
        seat, awaiting = deal.to_act, deal.awaiting
        assert seat is not None and awaiting is not None
        action = action_of(seat, awaiting, code)
        deal.apply(action)
        coded.apply_code(code)
        sim.step(code)
        _tell(tracker, deal, action)
        steps += 1


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.integers(0, 60))
def test_checked_unchecked_and_public_paths_agree(table: Table, rebuild_at: int) -> None:
    _play_three_ways(table, rebuild_at)


@pytest.mark.parametrize("values", OPTION_SETS, ids=lambda v: ",".join(map(str, v)) or "default")
def test_agreement_under_each_option_set(values: dict[str, object]) -> None:
    options = Options.from_mapping(values)
    rng = random.Random(repr(values))
    for _ in range(25):
        _play_three_ways(_table(rng, options), rng.choice([None, rng.randrange(40)]))


def test_copy_is_independent() -> None:
    deck = random.Random(3).sample(FULL_PACK, 52)
    deal = Deal.start(Options(), 0, [3] * 4, deck)
    sim = deal.public.copy()
    twin = sim.copy()
    for _ in range(12):
        twin.step(twin.legal[-1])
    fresh = Deal.start(Options(), 0, [3] * 4, deck).public.copy()
    assert (twin.hands, twin.trick, twin.to_act) != (sim.hands, sim.trick, sim.to_act)
    for name in DealMachine.__slots__:
        assert getattr(sim, name) == getattr(fresh, name), name


def test_bits_lists_indices_in_order() -> None:
    assert bits(0) == []
    assert bits((1 << 51) | (1 << 13) | 1) == [0, 13, 51]


def test_the_public_window_of_a_deal_follows_it_and_its_copy_does_not() -> None:
    deal = Deal.start(Options(), 0, [3] * 5, random.Random(4).sample(FULL_PACK, 52))
    window = deal.public
    snapshot = window.copy()
    for _ in range(7):
        deal.apply(deal.legal[-1])
        assert (window.to_act, window.awaiting) == (deal.to_act, deal.awaiting)
        assert window.exchanges == [
            PublicExchange(r.offerer, kind_of(r.offer), r.acceptor, r.void, before_trick=0)
            for r in deal.exchanges
        ]
    assert (snapshot.to_act, snapshot.awaiting, snapshot.exchanges) == (1, Decision.OFFER, [])
    assert isinstance(window, PublicDeal) and isinstance(snapshot, PublicDeal)


def test_a_bool_never_passes_for_a_seat_or_a_counter_even_after_the_int_was_seen() -> None:
    PublicDeal.start(Options(), 1, [3, 3, 3])
    with pytest.raises(MalformedInput):
        PublicDeal.start(Options(), True, [3, 3, 3])
    with pytest.raises(MalformedInput):
        PublicDeal.start(Options(), 1, [3, True, 3])


def kind_of(card: Card) -> Kind:
    kind = card.kind
    assert kind is not None
    return kind


@pytest.mark.parametrize("values", OPTION_SETS, ids=lambda v: ",".join(map(str, v)) or "default")
def test_apply_code_refuses_what_allows_refuses_as_apply_would(values: dict[str, object]) -> None:
    options = Options.from_mapping(values)
    rng = random.Random(repr(values) + "refusals")
    for _ in range(6):
        table = _table(rng, options)
        deal = Deal.start(options, table.dealer, table.lives, table.deck)
        while not deal.is_over:
            before = (deal.to_act, deal.awaiting, list(deal.hands), deal.exchange_count)
            seat = deal.to_act
            assert seat is not None
            for code in rng.sample(CODE_SPACE, 12):
                if deal.allows(code):
                    continue
                with pytest.raises(IllegalAction) as refused:
                    deal.apply_code(code)
                assert (deal.to_act, deal.awaiting, list(deal.hands)) == before[:3]
                assert deal.exchange_count == before[3]
                row = [*(action_of(seat, d, code) for d in Decision if _spells(d, code))]
                if row:  # the same refusal as the action the code spells
                    with pytest.raises(IllegalAction) as as_action:
                        deal.apply(row[0])
                    assert str(refused.value) == str(as_action.value)
            legal = deal.legal_codes()
            deal.apply_code(legal[rng.randrange(len(legal))])
    with pytest.raises(IllegalAction, match="the deal is over"):
        deal.apply_code(0)


def _spells(decision: Decision, code: int) -> bool:
    """Whether ``code`` lies in the range of codes of ``decision``."""
    ranges = {Decision.PLAY: range(52), Decision.OFFER: range(100, 153),
              Decision.ANSWER: range(200, 253), Decision.SWALLOW: range(300, 302),
              Decision.DECLARE: range(400, 412), Decision.CHALLENGE: range(500, 511)}
    return code in ranges[decision]
