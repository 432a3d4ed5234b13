"""Bots at a networked table draw their seeds from the OS unless ``--seed`` is given, and
a given seed is warned about: a bot whose choices can be predicted shows its hand."""

from __future__ import annotations

import argparse

import pytest

from lodam_p2p.bots.adapter import BotPlayer
from lodam_p2p.cli.netrun import SEEDED_WARNING, bot_seats
from lodam_p2p.cli.play_drivers import choose_driver
from lodam_p2p.cli.play_seats import bot_seats as play_bot_seats
from lodam_p2p.tableplan import SeatPlan
from tests.session.helpers import registry


def _seeds(seats: list[SeatPlan]) -> list[int]:
    seeds = []
    for seat in seats:
        assert isinstance(seat.player, BotPlayer)
        seeds.append(seat.player.seed)
    return seeds


def test_unseeded_bots_draw_fresh_seeds_and_say_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    first = _seeds(bot_seats(["random", "random"], None))
    second = _seeds(bot_seats(["random", "random"], None))
    assert len(set(first + second)) == 4  # 128-bit draws: no two alike, none by place
    assert not {0, 1, 1000, 1001} & set(first + second)
    assert SEEDED_WARNING not in capsys.readouterr().err


def test_a_seed_replays_and_warns(capsys: pytest.CaptureFixture[str]) -> None:
    assert _seeds(bot_seats(["random", "random"], 7)) == [7000, 7001]
    assert _seeds(bot_seats(["random", "random"], 7)) == [7000, 7001]
    err = capsys.readouterr().err
    assert err.count(SEEDED_WARNING) == 2  # one line per table of bots made
    assert err.count("\n") == 2


def test_play_bots_draw_from_the_os_unless_seeded() -> None:
    def seeds(seed: int | None) -> list[int]:
        return _seeds(play_bot_seats(["random"] * 2, registry(), first_seat=1, seed=seed,
                                     wrap=lambda p: p))

    assert seeds(3) == seeds(3) == [3001, 3002]  # --offline and arena replay as before
    assert seeds(None) != seeds(None)


def test_networked_play_with_a_seed_warns(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(offline=False, seed=5, table="oak", broker=None)
    choose_driver(args)
    assert SEEDED_WARNING in capsys.readouterr().err
    choose_driver(argparse.Namespace(offline=True, seed=5))
    choose_driver(argparse.Namespace(offline=False, seed=None, table="oak", broker=None))
    assert SEEDED_WARNING not in capsys.readouterr().err
