"""Hypothesis properties of whole deals under random tables, decks and choices.

Every step checks: the chosen legal action is accepted and an illegal one refused; the
view-based legal moves equal the engine's; no view holds another seat's hidden card;
cards and the 108 points are conserved; the trump is turned at most once; and a
``PublicDeal`` fed only public events agrees with the full deal on whose turn it is.
At the end the script replays to the same deal, and a determinized copy made midway
finishes the same way.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

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
    Declare,
    IllegalAction,
    Offer,
    Options,
    Play,
    PlayerView,
    PublicDeal,
    Swallow,
    legal_actions_for,
)
from lodam_p2p.games.lodam.replay import replay_scenario
from tests.rules.golden import to_json


@dataclass
class Table:
    options: Options
    lives: list[int]
    dealer: int
    deck: list[Card]
    seed: int


@st.composite
def tables(draw: st.DrawFn) -> Table:
    players = draw(st.integers(2, 10))
    winning = draw(st.booleans())
    options = Options.from_mapping({
        "exchanges": draw(st.sampled_from(["every_trick", "first_trick", "off"])),
        "declare_out": draw(st.booleans()),
        "trump_memory": draw(st.booleans()),
        "rank_order": draw(st.sampled_from(["willughby", "parlett"])),
        "out_at": draw(st.integers(5, 60)),
        "short_deck_at": draw(st.sampled_from([0, 2, 3, 4])),
        "winning": winning,
    })
    lives = draw(st.lists(st.integers(0, 3), min_size=players, max_size=players))
    if winning:
        active = players
    else:
        lives[0], lives[-1] = max(lives[0], 1), max(lives[-1], 1)
        active = sum(1 for x in lives if x)
    if draw(st.booleans()):
        pack = 32 if options.short_deck(active) else 52
        options = Options.from_mapping({**options.to_mapping(),
                                        "hand_size": draw(st.integers(1, (pack - 1) // active))})
    pack_cards = SHORT_PACK if options.short_deck(active) else FULL_PACK
    deck = list(draw(st.permutations(pack_cards)))
    return Table(options, lives, draw(st.integers(0, players - 1)), deck,
                 draw(st.integers(0, 2**32)))


@dataclass
class Run:
    """A deal played by seeded random choices, with every check along the way."""

    table: Table
    deal: Deal = field(init=False)
    tracker: PublicDeal = field(init=False)
    script: list[Action] = field(default_factory=list)
    midway: tuple[Deal, int] | None = None
    trump_card: Card | None = None  #: the first card turned, to check it never changes

    def __post_init__(self) -> None:
        t = self.table
        self.deal = Deal.start(t.options, t.dealer, t.lives, t.deck)
        self.tracker = PublicDeal.start(t.options, t.dealer, t.lives)
        self.rng = random.Random(t.seed)

    def play(self) -> None:
        while not self.deal.is_over:
            legal = self.deal.legal_actions()
            self.check_step(legal)
            if self.midway is None and self.rng.random() < 0.05:
                self.midway = (self.determinize(), len(self.script))
            action = self.rng.choice(legal)
            self.deal.apply(action)
            self.track(action)
            self.script.append(action)
            self.check_conservation()

    def check_step(self, legal: list[Action]) -> None:
        deal, seat = self.deal, self.deal.to_act
        assert seat is not None and legal
        assert (self.tracker.to_act, self.tracker.awaiting) == (seat, deal.awaiting)
        assert legal_actions_for(deal.view(seat)) == legal
        for other in range(deal.players):
            check_no_leak(deal, deal.view(other))
        wrong = illegal_probe(deal, legal)
        if wrong is not None:
            before = (deal.to_act, deal.awaiting, deal.hand(seat))
            try:
                deal.apply(wrong)
            except IllegalAction as err:
                assert err.seat == wrong.seat and str(wrong) in str(err)
            else:
                raise AssertionError(f"{wrong} was accepted")
            assert before == (deal.to_act, deal.awaiting, deal.hand(seat))

    def track(self, action: Action) -> None:
        """Feed the tracker only what the table learns."""
        p, deal = self.tracker, self.deal
        if isinstance(action, Play):
            turned = deal.trump_card if p.turns_trump(action.card) else None
            p.play(action.seat, action.card, turned)
        elif isinstance(action, Offer):
            p.offer(action.seat, action.card.kind if action.card else None)
        elif isinstance(action, Answer):
            accepted = action.card is not None
            p.answer(action.seat, accepted, accepted and deal.exchanges[-1].void)
        elif isinstance(action, Swallow):
            p.swallow(action.seat, action.take)
        elif isinstance(action, Declare):
            p.declare(action.seat, action.out, action.challenge)
        else:
            assert isinstance(action, Challenge)
            p.challenge(action.seat, action.target)
        assert p.points == deal.points and p.tricks == deal.tricks
        assert p.trump_card == deal.trump_card and p.is_over == deal.is_over

    def check_conservation(self) -> None:
        deal = self.deal
        hands = [c for s in range(deal.players) for c in deal.hand(s)]
        played = [c for t in deal.tricks for _, c in t.cards]
        played += [c for _, c in deal.current_trick]
        everything = hands + list(deal.talon) + played
        assert sorted(everything) == sorted(self.table.deck)
        assert sum(c.points for c in everything) == 108
        assert sum(deal.points) == sum(t.points for t in deal.tricks)
        if deal.trump_card is not None:
            assert deal.trump_card == deal.talon[0]
            assert self.trump_card in (None, deal.trump_card)  # turned at most once
            self.trump_card = deal.trump_card

    def determinize(self) -> Deal:
        deal = self.deal
        offer = deal.public.pending_offer
        card = deal.offered_card if offer is not None else None
        hands = [deal.hand(s) for s in range(deal.players)]
        return Deal.from_public(self.tracker, hands, deal.talon, card)


def illegal_probe(deal: Deal, legal: list[Action]) -> Action | None:
    """An action of the awaited kind that is not legal, if one exists."""
    seat = deal.to_act
    assert seat is not None
    candidates: list[Action] = [Play(seat, c) for c in FULL_PACK]
    candidates += [Offer(seat, c) for c in FULL_PACK] + [Answer(seat, c) for c in FULL_PACK]
    candidates += [Declare(seat, True, None), Challenge((seat + 1) % 10, None)]
    for action in candidates:
        if action.decision is deal.awaiting and action not in legal:
            return action
    return None


def check_no_leak(deal: Deal, view: PlayerView) -> None:
    """Every card a view mentions is its seat's own, public, or from its own exchange
    (judged from the full deal, not from the view itself)."""
    seat = view.seat
    allowed = set(deal.hand(seat)) | {c for t in deal.tricks for _, c in t.cards}
    allowed |= {c for _, c in deal.current_trick}
    if deal.trump_card is not None:
        allowed.add(deal.trump_card)
    for x in deal.exchanges:
        if seat in (x.offerer, x.acceptor):
            allowed |= {c for c in (x.offer, x.accept) if c is not None}
    for shown in view.exchanges:
        if seat not in (shown.offerer, shown.acceptor):
            assert shown.given is None and shown.received is None
    mentioned = set(cards_in(view.hand, view.current_trick, view.tricks, view.legal))
    mentioned |= {c for x in view.exchanges for c in (x.given, x.received) if c}
    if view.trump_card is not None:
        mentioned.add(view.trump_card)
    assert mentioned <= allowed
    if seat != deal.to_act:
        assert view.legal == ()


def cards_in(*things: Any) -> list[Card]:
    found: list[Card] = []
    for thing in things:
        if isinstance(thing, Card):
            found.append(thing)
        elif isinstance(thing, tuple | list):
            found.extend(cards_in(*thing))
        elif hasattr(thing, "card") and isinstance(thing.card, Card):
            found.append(thing.card)
        elif hasattr(thing, "cards"):
            found.extend(cards_in(thing.cards))
    return found


def finish_with(deal: Deal, actions: list[Action]) -> Deal:
    for action in actions:
        deal.apply(action)
    return deal


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_random_deals_keep_every_invariant(table: Table) -> None:
    run = Run(table)
    run.play()
    deal = run.deal
    result = deal.result()
    assert run.tracker.counter_change == result.counter_change
    assert all(c in (-1, 0, 1) for c in result.counter_change) and any(result.counter_change)
    # replaying the script reproduces the deal
    again = finish_with(Deal.start(table.options, table.dealer, table.lives, table.deck),
                        run.script)
    assert again.result() == result and again.tricks == deal.tricks
    assert again.exchanges == deal.exchanges
    # a determinized copy made midway finishes the same way
    if run.midway is not None:
        copy, done = run.midway
        assert finish_with(copy, run.script[done:]).result() == result


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_replay_format_reproduces_a_deal(table: Table) -> None:
    run = Run(table)
    run.play()
    players = len(table.lives)
    scenario = {
        "game": "lodam", "players": players, "dealer": table.dealer,
        "options": table.options.to_mapping(), "lives": table.lives,
        "deck": [str(c) for c in table.deck], "actions": [to_json(a) for a in run.script],
    }
    out = replay_scenario(scenario)
    assert out["error"] is None and out["unused_actions"] == 0
    assert out["counter_change"] == list(run.deal.result().counter_change)
    assert len(out["tricks"]) == len(run.deal.tricks)
    assert out["points"] == run.deal.points


def test_the_leak_check_catches_a_hidden_card() -> None:
    deal = Deal.start(Options(), 0, [3, 3, 3], FULL_PACK)
    view = deal.view(1)
    check_no_leak(deal, view)
    leaked = replace(view, current_trick=((2, deal.hand(2)[0]),))
    with pytest.raises(AssertionError):
        check_no_leak(deal, leaked)
    with pytest.raises(AssertionError):
        check_no_leak(deal, replace(view, legal=(Play(2, deal.talon[3]),)))
