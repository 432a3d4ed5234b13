"""The kit's state API (lodam_p2p.games.kit) over both games: chance events, legal
actions, returns and views, and agreement with the engines it adapts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lodam_p2p.games import get_game, lorum, state_game
from lodam_p2p.games.kit import CHANCE, TERMINAL, DealState

TABLES = [("lodam", 3), ("lodam", 4), ("lodam", 5), ("lodam", 10), ("lorum", 3), ("lorum", 4)]


def _play(state: DealState[object, object, object], rng: random.Random) -> list[int]:
    """Random outcomes and legal actions to the end; the decisions taken."""
    decisions = []
    while not state.is_terminal():
        legal = list(state.legal_actions())
        assert legal == sorted(set(legal)) and legal
        if state.is_chance():
            outcomes = state.chance_outcomes()
            assert [o for o, _ in outcomes] == legal
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert state.current_player() == CHANCE and state.observation(0) is None
        else:
            assert 0 <= state.current_player() < state.players
            decisions.append(len(state.history))
        state.apply(rng.choice(legal))
    assert state.current_player() == TERMINAL
    assert not state.legal_actions() and not state.chance_outcomes()
    return decisions


@settings(max_examples=30, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
def test_a_deal_through_the_state_api_is_the_engines_deal(table: tuple[str, int],
                                                          seed: int) -> None:
    """The deck the chance events dealt and the actions taken, played again by the
    engine itself (Lodam: the game's audit replay), end the same deal with the same
    returns: the state adds no rule of its own."""
    name, seats = table
    state = state_game(name, seats).new_initial_state()
    _play(state, random.Random(seed))
    deck = [state.pack[i] for i in state.drawn]
    actions, again = [], state_game(name, seats).new_initial_state()
    for step in state.history:
        if not again.is_chance():
            actions.append(again.action_of(step))
        again.apply(step)
    game = get_game(name)
    match = game.start_match(game.default_options(), seats, 0)
    if name == "lodam":
        replayed = game.replay(match, deck, actions)
        assert replayed.error is None and replayed.applied == len(actions)
        deal = replayed.deal
    else:  # the table's Lorum deal takes forced steps as moves; the engine's takes them
        deal = lorum.Match.new_deal(match, deck)  # type: ignore[arg-type]
        for action in actions:
            deal.apply(action)
    assert deal.is_over
    summary = game.finish_deal(match, deal)
    assert tuple(g - p for g, p in zip(summary.gain, summary.penalty, strict=True)) == (
        state.returns())


@pytest.mark.parametrize(("name", "seats"), TABLES)
def test_views_are_the_games_views(name: str, seats: int) -> None:
    state = state_game(name, seats).new_initial_state()
    rng = random.Random(seats)
    while state.is_chance():
        state.apply(rng.choice(state.chance_outcomes())[0])
    assert state.deal is not None
    for seat in range(seats):
        view = state.observation(seat)
        assert view == state.deal.view(seat)  # type: ignore[attr-defined]
        assert view is not None and view.seat == seat  # type: ignore[attr-defined]
    seat = state.current_player()
    legal = state.observation(seat).legal  # type: ignore[union-attr]
    assert sorted(state.codes.code(a) for a in legal) == list(state.legal_actions())


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    state = state_game("lorum", 4).new_initial_state()
    rng = random.Random(3)
    while state.is_chance():
        with pytest.raises(ValueError, match="dealt already"):
            state.apply(-1)
        state.apply(rng.choice(state.legal_actions()))
    illegal = next(code for code in range(state.codes.size)
                   if code not in state.legal_actions())
    before = (list(state.history), state.current_player(), list(state.legal_actions()))
    with pytest.raises(ValueError, match="cannot"):
        state.apply(illegal)
    assert before == (list(state.history), state.current_player(), list(state.legal_actions()))


def test_a_clone_goes_its_own_way() -> None:
    state = state_game("lodam", 4).new_initial_state()
    rng = random.Random(8)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    twin = state.clone()
    assert twin.history == state.history and twin.observation(1) == state.observation(1)
    _play(twin, random.Random(1))
    assert twin.is_terminal() and not state.is_terminal()
    assert len(state.history) == 60


@pytest.mark.parametrize("name", ["lodam", "lorum"])
def test_a_whole_match(name: str) -> None:
    options = ["lives=2"] if name == "lodam" else ["contracts=reds,lorum"]
    state = state_game(name, 3, options, match=True).new_initial_state()
    _play(state, random.Random(11))
    assert state.match.is_over and state.deals > 1
    if name == "lorum":
        assert state.returns() == tuple(-t for t in state.match.totals)  # type: ignore[attr-defined]
    else:
        assert sum(state.returns()) == -(2 * 3 - sum(state.match.lives))  # type: ignore[attr-defined]


def test_defaults_and_refusals() -> None:
    assert state_game("lodam").players == 4 and state_game("lorum").players == 4
    assert state_game("lodam").num_actions == 511 and state_game("lorum").num_actions == 67
    assert state_game("lorum", 3).max_chance_outcomes == 30
    with pytest.raises(ValueError, match="seats"):
        state_game("lorum", 5)
    with pytest.raises(ValueError, match="unknown option"):
        state_game("lodam", 4, ["colour=red"])
