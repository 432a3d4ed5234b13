"""The engine (through the replay format) agrees with a separately written referee."""

from __future__ import annotations

import random
from typing import Any

import pytest

from lodam_p2p.games.lorum import Contract, Options
from lodam_p2p.games.lorum.replay import replay_scenario
from tests.lorum.helpers import deck_for, random_script, scenario
from tests.lorum.referee import referee

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"first_last_points": 5, "fifth_trick": 6, "lorum_start": "unter"},
    {"red_king_blind": True, "lorum_play_on": True},
    {"lorum_start": "unter", "lorum_play_on": True},
]


def _check_one(rng: random.Random, players: int, contract: Contract,
               raw_options: dict[str, Any]) -> None:
    options = Options.from_mapping(raw_options)
    dealer = rng.randrange(players)
    deck = deck_for(players, rng)
    script, asked = random_script(options, contract=contract, players=players, dealer=dealer,
                                  deck=deck, rng=rng)
    got = replay_scenario(scenario(players, dealer, contract.value, deck, actions=script,
                                   options=raw_options))
    assert got["error"] is None and got["unused_actions"] == 0
    steps = iter(asked)
    todo = list(script)

    def choose(seat: int, kind: str, legal: list[Any]) -> Any:
        want_seat, want_kind, want_legal = next(steps)
        assert (seat, kind) == (want_seat, want_kind)
        assert sorted(map(str, legal)) == sorted(map(str, want_legal))
        if kind == "announce":
            if todo and "announce" in todo[0] and todo[0]["seat"] == seat:
                return todo.pop(0)["announce"]
            return False
        action = todo.pop(0)
        assert action["seat"] == seat and action["play"] in legal
        return action["play"]

    expected = referee(players, dealer, contract.value, [str(c) for c in deck],
                       options=raw_options, choose=choose)
    assert not todo and next(steps, None) is None
    for key in ("hands", "tricks", "lays", "points", "announced", "out", "next_dealer"):
        assert got[key] == expected[key], key


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("contract", list(Contract))
def test_random_deals_agree_with_the_referee(players: int, contract: Contract) -> None:
    rng = random.Random(f"{players}{contract.value}")
    for number in range(160):
        _check_one(rng, players, contract, OPTION_SETS[number % len(OPTION_SETS)])


def test_referee_driven_deals_replay_without_error() -> None:
    """The other way round: the referee picks at random, the engine must accept it."""
    rng = random.Random(7)
    for number in range(400):
        players = 3 + number % 2
        contract = list(Contract)[number % 8]
        raw = OPTION_SETS[number // 8 % len(OPTION_SETS)]
        dealer = rng.randrange(players)
        deck = [str(c) for c in deck_for(players, rng)]
        script: list[dict[str, Any]] = []

        def choose(seat: int, kind: str, legal: list[Any],
                   script: list[dict[str, Any]] = script) -> Any:
            pick = rng.choice(legal)
            if kind == "announce":
                if pick:
                    script.append({"seat": seat, "announce": True})
            else:
                script.append({"seat": seat, "play": pick})
            return pick

        expected = referee(players, dealer, contract.value, deck, options=raw, choose=choose)
        got = replay_scenario(scenario(players, dealer, contract.value, deck, actions=script,
                                       options=raw))
        assert got["error"] is None, got["error"]
        for key in ("tricks", "lays", "points", "announced", "out"):
            assert got[key] == expected[key], key
