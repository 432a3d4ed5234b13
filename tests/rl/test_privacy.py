"""Privacy as a property: a seat's observation — the kit state's view, the PettingZoo
vector and mask, the OpenSpiel information state (string and tensor) and observation —
is the same in any two worlds that agree on what that seat has seen.

A world is a random deal played out with random legal actions. Its twin relabels the
cards the seat never saw (those the game calls hidden from it at every step,
``Game.hidden_cards``) among themselves, keeping each card's suit (and in Lodam its
kind, which the exchanges go by), and takes the same actions with the relabelled cards.
The twins are compared step by step for as long as they agree on everything the seat
has seen: its own hand and the deal's public part (the engine's, not a view); where
they part (a relabelled card changes what some seat may do), the comparison stops. The
other seats' observations do differ wherever their hands do, so the comparison is not
blind.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pyspiel
from hypothesis import given, settings
from hypothesis import strategies as st

import lodam_p2p.rl.openspiel  # noqa: F401 -- registers the games
from lodam_p2p.games.lodam.codes import ANSWER_BASE, OFFER_BASE
from lodam_p2p.games.lorum import CONTRACTS
from lodam_p2p.games.lorum.states import LAY_BASE, PASS_CODE
from lodam_p2p.rl.openspiel import CardState
from lodam_p2p.rl.pettingzoo import CardTableEnv

TABLES = [("lodam", 4, ""), ("lodam", 5, ""), ("lodam", 4, "exchanges:off"),
          *(("lorum", seats, f"contracts:{c.value}") for c in CONTRACTS for seats in (3, 4))]


def _lodam_code(code: int, relabel: Callable[[int], int]) -> int:
    if code < 52:
        return relabel(code)
    for base in (OFFER_BASE, ANSWER_BASE):
        if base <= code < base + 52:
            return base + relabel(code - base)
    return code


def _lorum_code(code: int, relabel: Callable[[int], int]) -> int:
    if code < LAY_BASE:
        return relabel(code)
    if code < PASS_CODE:
        return LAY_BASE + relabel(code - LAY_BASE)
    return code


def _public(state: CardState) -> object:
    """The deal's public part as the engine keeps it, as comparable values."""
    inner = state.inner
    if inner.deal is None:
        return ("dealing", len(inner.drawn))
    p = inner.game.public_part(inner.deal)
    common = (inner.current_player(), tuple(p.points), tuple(p.hand_sizes),
              tuple(p.current_trick), p.awaiting)
    if inner.game.name == "lodam":
        return (*common, tuple(p.tricks), tuple(p.public_exchanges()), p.trump_card,
                p.pending_offer)
    return (*common, tuple(p.tricks), tuple(p.lays), p.gone_mask, p.announced)


def _hand(state: CardState, seat: int) -> object:
    inner = state.inner
    if inner.deal is None:
        return tuple(i for j, i in enumerate(inner.drawn)
                     if inner.game.deal_plan(inner.match).schedule[j] == seat)
    return frozenset(inner.deal.view(seat).hand)


def _observations(state: CardState, env: CardTableEnv, seat: int) -> tuple[object, ...]:
    env.state = state.inner
    seen = env.observe(f"seat_{seat}")
    return (state.inner.observation(seat),
            tuple(seen["observation"]), tuple(seen["action_mask"]),
            state.information_state_string(seat), state.observation_string(seat),
            tuple(state.observation_tensor(seat)), tuple(state.information_state_tensor(seat)))


@settings(max_examples=40, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_a_seat_sees_the_same_in_worlds_that_agree_on_what_it_saw(
        table: tuple[str, int, str], seed: int, data: st.DataObject) -> None:
    name, seats, options = table
    seat = data.draw(st.integers(0, seats - 1), label="seat")
    game = pyspiel.load_game(f"python_{name}(players={seats},options={options})")
    rng = random.Random(seed)
    world, steps = game.new_initial_state(), []
    unseen = set(world.inner.game.deal_plan(world.inner.match).pack)
    while not world.is_terminal():
        step = rng.choice(world.legal_actions())
        steps.append(step)
        world.apply_action(step)
        inner = world.inner
        if inner.deal is not None:
            unseen &= inner.game.hidden_cards(inner.deal, seat)
    relabel = _relabelling(unseen, rng, lodam=name == "lodam")
    code_of = _lodam_code if name == "lodam" else _lorum_code
    pack = world.inner.pack

    env = CardTableEnv(name, seats)
    first, twin = game.new_initial_state(), game.new_initial_state()
    compared = 0
    for step in steps:
        if _public(first) != _public(twin) or _hand(first, seat) != _hand(twin, seat):
            break
        assert _observations(first, env, seat) == _observations(twin, env, seat)
        compared += 1
        for other in range(seats):
            if first.inner.deal is not None and _hand(first, other) != _hand(twin, other):
                # not blind: a seat whose hand differs sees it
                assert _observations(first, env, other)[:2] != _observations(twin, env, other)[:2]
        if first.is_chance_node():
            mapped = pack.index(relabel[pack[step]])
        else:
            mapped = code_of(step, lambda i: relabel[_card(first, i)].index)
        if mapped not in twin.legal_actions():
            break
        first.apply_action(step)
        twin.apply_action(mapped)
    assert compared > len(pack)  # the whole deal and at least one decision


def _card(state: CardState, index: int) -> object:
    """The card of engine index ``index`` in ``state``'s pack."""
    return next(c for c in state.inner.pack if c.index == index)


def _relabelling(unseen: set[object], rng: random.Random, *, lodam: bool) -> dict[object, object]:
    """A random permutation of ``unseen`` that keeps each card's suit (and Lodam kind);
    every other card maps to itself."""
    groups: dict[object, list[object]] = {}
    for card in sorted(unseen, key=lambda c: c.index):
        key = (card.suit, card.kind) if lodam else card.suit
        groups.setdefault(key, []).append(card)
    mapping: dict[object, object] = {}
    for cards in groups.values():
        images = cards[:]
        rng.shuffle(images)
        mapping.update(zip(cards, images, strict=True))
    return _Identity(mapping)


class _Identity(dict):  # type: ignore[type-arg]
    """A mapping that maps every card it does not name to itself."""

    def __missing__(self, card: object) -> object:
        return card


def test_the_comparison_sees_a_leak() -> None:
    """Control: a seat's observation that showed another seat's hand would be caught —
    the other seats' views differ between twins as soon as their hands do."""
    game = pyspiel.load_game("python_lorum")
    first, twin = game.new_initial_state(), game.new_initial_state()
    pack = first.inner.pack
    order = list(range(len(pack)))
    for index in order:
        first.apply_action(index)
    schedule = twin.inner.game.deal_plan(twin.inner.match).schedule
    swapped = order[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]  # one seat's first card for the next's
    for index in swapped:
        twin.apply_action(index)
    env = CardTableEnv("lorum", 4)
    seat = schedule[0]
    assert seat is not None and schedule[1] != seat
    assert first.inner.observation(seat) != twin.inner.observation(seat)
    assert not np.array_equal(_observations(first, env, seat)[1],
                              _observations(twin, env, seat)[1])
    assert first.information_state_string(seat) != twin.information_state_string(seat)
