"""How a networked bot process ends: 0 with a result, 1 when its seat forfeited
(--strict-bots) or the table put it out, and the --json line says why."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
from typing import Any

import pytest

from lodam_p2p.bots.adapter import BotPlayer
from lodam_p2p.cli import CliError
from lodam_p2p.cli.netrun import EXIT_FAILED, run_match
from lodam_p2p.games import get_game
from lodam_p2p.player import Notice, NoticeLevel, SeatsChanged
from lodam_p2p.tableplan import MatchOutcome


class Raising:
    def decide(self, view: Any) -> Any:
        raise ValueError("lost my marbles")


class FirstLegal:
    def decide(self, view: Any) -> Any:
        return view.legal[0]


def a_view() -> Any:
    game = get_game("lodam")
    match = game.start_match(game.default_options(), 4, 0)
    deal = game.new_deal(match, list(game.pack(match)))
    return deal.view(deal.to_act)


OUTCOME = MatchOutcome(table="oak", winners=(0,), deals=1, audits_passed=1)


def args() -> argparse.Namespace:
    return argparse.Namespace(verbose=False, json=True)


def test_a_result_with_a_fallback_exits_0_and_lists_the_errors(
        capsys: pytest.CaptureFixture[str]) -> None:
    class Fallback:
        name = "first"

        def make(self, seat: int, seed: int) -> Any:
            return FirstLegal()

    player = BotPlayer("flaky", Raising(), Fallback())  # type: ignore[arg-type]

    async def match() -> MatchOutcome:
        await player.decide(a_view())
        return OUTCOME

    assert run_match(args(), match, [player]) == 0
    line = json.loads(capsys.readouterr().out)
    assert [e["kind"] for e in line["bot_errors"]] == ["exception"]
    assert line["bot_errors"][0]["fallback"] == "first"


def test_a_strict_seat_forfeits_the_match_and_exits_1(
        capsys: pytest.CaptureFixture[str]) -> None:
    player = BotPlayer("flaky", Raising(), strict=True)
    never = asyncio.Event()

    async def match() -> MatchOutcome:
        with contextlib.suppress(Exception):  # the session carries on after a failure …
            await player.decide(a_view())
        await never.wait()  # … and the forfeit must end it anyway
        return OUTCOME

    with pytest.raises(CliError) as caught:
        run_match(args(), match, [player])
    assert caught.value.code == EXIT_FAILED and "forfeits" in str(caught.value)
    line = json.loads(capsys.readouterr().out)
    assert line["forfeited"] is True and line["bot_errors"][0]["bot"] == "flaky"


def test_a_seat_the_table_put_out_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    player = BotPlayer("slow", FirstLegal())

    async def match() -> MatchOutcome:
        player.notify(SeatsChanged((), me=3))
        player.notify(Notice(NoticeLevel.ERROR, "seat 3 did not answer in time", blamed=3))
        return OUTCOME

    assert run_match(args(), match, [player]) == EXIT_FAILED
    out, err = capsys.readouterr()
    assert json.loads(out)["table"] == "oak"
    assert "put this seat out: seat 3 did not answer in time" in err
