"""Properties of random Lorum deals: conservation, totals, the public machine in step
with the full deal, views that never leak, the audit, determinism."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.games.lorum import (
    PACK,
    Card,
    Contract,
    Deal,
    Options,
    Pass,
    PublicDeal,
    RulesError,
    first_breach,
    public_of,
)
from lodam_p2p.games.lorum.beans import Purse, pay_into_pot, settle
from lodam_p2p.games.lorum.cards import mask_of
from lodam_p2p.games.lorum.replay import replay_scenario
from tests.lorum.helpers import deck_for, random_script, scenario

OPTIONS = st.builds(
    Options,
    first_last_points=st.sampled_from([4, 5]),
    fifth_trick=st.sampled_from([5, 6]),
    red_king_blind=st.booleans(),
    lorum_start=st.sampled_from(["any", "unter"]).map(
        lambda v: Options.from_mapping({"lorum_start": v}).lorum_start),
    lorum_play_on=st.booleans(),
)
TABLES = st.tuples(st.sampled_from([3, 4]), st.sampled_from(list(Contract)), OPTIONS,
                   st.integers(0, 2**32))
SETTINGS = settings(max_examples=60, deadline=None)


def _new(table: tuple[int, Contract, Options, int], auto: bool = True) -> tuple[
    Deal, random.Random
]:
    players, contract, options, seed = table
    rng = random.Random(seed)
    deal = Deal.start(options, contract, seed % players, deck_for(players, rng),
                      players=players, auto=auto)
    return deal, rng


def _conserved(deal: Deal) -> None:
    hands = [mask_of(deal.hand(s)) for s in range(deal.players)]
    gone = deal.public.gone_mask
    everything = gone
    for seat, hand in enumerate(hands):
        assert not hand & everything
        everything |= hand
        assert hand.bit_count() == deal.public.hand_sizes[seat]
    assert everything == mask_of(PACK)


@SETTINGS
@given(TABLES)
def test_cards_are_conserved_and_totals_hold(table: tuple[int, Contract, Options, int]) -> None:
    deal, rng = _new(table)
    _conserved(deal)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
        _conserved(deal)
    result, contract = deal.result(), deal.contract
    tricks = deal.tricks
    if contract is Contract.REDS or (contract is Contract.OBERS):
        assert sum(result.points) == 8
    if contract is Contract.TRICKS:
        assert sum(result.points) == len(tricks) == deal.public.hand_size
        assert all(t.points == 1 for t in tricks)
    if contract in (Contract.QUARTET, Contract.LORUM):
        assert result.out and not deal.hand(result.out[0])
    else:
        assert not result.out and all(len(t.cards) == deal.players for t in tricks)


def _same(public: PublicDeal, other: PublicDeal) -> None:
    for name in ("to_act", "awaiting", "awaiting_card", "is_over", "points", "hand_sizes",
                 "tricks", "lays", "out", "announced", "current_trick", "leader",
                 "gone_mask", "fit_mask"):
        assert getattr(public, name) == getattr(other, name), name


@SETTINGS
@given(TABLES)
def test_a_public_deal_fed_only_public_events_stays_in_step(
    table: tuple[int, Contract, Options, int],
) -> None:
    deal, rng = _new(table, auto=False)
    players, contract, options, _ = table
    tracker = PublicDeal.start(options, contract, players, deal.dealer)
    _same(deal.public, tracker)
    while not deal.is_over:
        action = rng.choice(deal.legal_actions())
        deal.apply(action)
        tracker.apply_event(action)
        _same(deal.public, tracker)
        copy = tracker.copy()
        _same(copy, tracker)


@SETTINGS
@given(TABLES)
def test_forced_steps_taken_by_the_deal_match_the_stepwise_deal(
    table: tuple[int, Contract, Options, int],
) -> None:
    auto, rng = _new(table)
    stepwise, _ = _new(table, auto=False)
    while not auto.is_over:
        action = rng.choice(auto.legal_actions())
        while _forced(stepwise):
            (forced,) = stepwise.legal_actions()
            stepwise.apply(forced)
        stepwise.apply(action)
        auto.apply(action)
    while not stepwise.is_over:
        assert _forced(stepwise)
        (forced,) = stepwise.legal_actions()
        stepwise.apply(forced)
    assert auto.result() == stepwise.result()
    assert auto.tricks == stepwise.tricks and auto.public.lays == stepwise.public.lays


def _forced(deal: Deal) -> bool:
    """A step without a choice: a run card, a blind play, a pass."""
    return deal.public.forced or isinstance(deal.legal_actions()[0], Pass)


def _cards_in(value: Any) -> set[Card]:
    if isinstance(value, Card):
        return {value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return set().union(*(_cards_in(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, dict):
        return set().union(set(), *(_cards_in(v) for v in value.values()))
    if isinstance(value, list | tuple):
        return set().union(set(), *(_cards_in(v) for v in value))
    return set()


@SETTINGS
@given(TABLES)
def test_a_view_never_holds_another_seats_hidden_card(
    table: tuple[int, Contract, Options, int],
) -> None:
    deal, rng = _new(table)
    while True:
        for seat in range(deal.players):
            view = deal.view(seat)
            hidden = {c for s in range(deal.players) if s != seat for c in deal.hand(s)}
            # fits and the awaited card name cards, never who holds them
            shown = _cards_in(dataclasses.replace(view, fits=(), awaiting_card=None))
            assert not shown & hidden
            if deal.public.blind:
                assert view.hand == ()
            else:
                assert set(view.hand) == set(deal.hand(seat))
            assert bool(view.legal) == (deal.to_act == seat)
            _same(public_of(view), deal.public)  # the view holds the whole public record
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_actions()))


@SETTINGS
@given(TABLES)
def test_the_audit_passes_an_honest_deal(table: tuple[int, Contract, Options, int]) -> None:
    deal, rng = _new(table, auto=False)
    events = []
    while not deal.is_over:
        action = rng.choice(deal.legal_actions())
        events.append(action)
        deal.apply(action)
    fresh, _ = _new(table, auto=False)
    assert first_breach(fresh, events) is None


@SETTINGS
@given(TABLES)
def test_replay_is_deterministic_and_reproduces_the_deal(
    table: tuple[int, Contract, Options, int],
) -> None:
    players, contract, options, seed = table
    rng = random.Random(seed)
    deck = deck_for(players, rng)
    dealer = seed % players
    script, _ = random_script(options, contract=contract, players=players, dealer=dealer,
                              deck=deck, rng=rng)
    raw = scenario(players, dealer, contract.value, deck, actions=script,
                   options=options.to_mapping())
    first, second = replay_scenario(raw), replay_scenario(raw)
    assert first == second and first["error"] is None and first["unused_actions"] == 0
    deal = Deal.start(options, contract, dealer, deck, players=players)
    assert first["hands"] == {str(s): [str(c) for c in h] for s, h in
                              enumerate(deal.dealt_hands)}


@SETTINGS
@given(TABLES, st.integers(0, 40))
def test_a_deal_rebuilt_from_public_and_hands_plays_on_the_same(
    table: tuple[int, Contract, Options, int], steps: int,
) -> None:
    deal, rng = _new(table)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    if deal.public.blind:
        return  # a blind deal is over before its first decision
    world = Deal.from_public(deal.public, [deal.hand(s) for s in range(deal.players)])
    while not deal.is_over:
        assert world.legal_actions() == deal.legal_actions()
        action = rng.choice(deal.legal_actions())
        deal.apply(action)
        world.apply(action)
    assert world.result() == deal.result()


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(list(Contract)), st.lists(st.integers(0, 40),
                                                                      min_size=4, max_size=4),
                          st.integers(0, 3), st.integers(0, 3)), max_size=30),
       st.lists(st.tuples(st.integers(0, 3), st.integers(0, 60)), max_size=5))
def test_beans_pfennigs_and_pot_are_conserved(
    deals: list[tuple[Contract, list[int], int, int]], breaches: list[tuple[int, int]],
) -> None:
    purse = Purse.start(4)
    for contract, points, first_out, eldest in deals:
        settle(purse, contract, points, out=[first_out], eldest=eldest)
        assert purse.total() == 160
        assert min(purse.pfennigs) >= 0 and purse.pot_pfennigs >= 0
    for seat, amount in breaches:
        pay_into_pot(purse, seat, amount)
        assert purse.total() == 160


EVENTS = st.lists(st.tuples(st.sampled_from(["play", "lay", "pass", "announce"]),
                            st.integers(-1, 4), st.sampled_from([*PACK, None, "7E", 3]),
                            st.sampled_from([True, False, None])), max_size=60)


@SETTINGS
@given(TABLES, EVENTS)
def test_any_event_stream_only_ever_raises_rules_errors(
    table: tuple[int, Contract, Options, int], events: list[tuple[str, int, Any, Any]],
) -> None:
    players, contract, options, seed = table
    public = PublicDeal.start(options, contract, players, seed % players)
    for kind, seat, card, flag in events:
        try:
            if kind == "play":
                public.play(seat, card)
            elif kind == "lay":
                public.lay(seat, card)
            elif kind == "pass":
                public.pass_turn(seat)
            else:
                public.announce(seat, flag)
        except RulesError:
            continue
        # every accepted event moves one card from a hand out of play, or none (a pass,
        # an announcement); set-aside cards start out of play
        assert sum(public.hand_sizes) + public.gone_mask.bit_count() == 32
