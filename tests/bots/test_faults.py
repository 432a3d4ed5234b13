"""Bot failures speak: every kind is told apart, logged with its traceback, kept for
``bot_errors``, and a strict seat forfeits at the first."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import Any

import pytest

from lodam_p2p.bots import BotStartError, BotType, hookimpl
from lodam_p2p.bots.adapter import BotForfeit, BotPlayer, bot_players, faults_of
from lodam_p2p.bots.budget import MARGIN_S, percentiles
from lodam_p2p.bots.faults import (
    EXCEPTION,
    ILLEGAL,
    MALFORMED,
    OVER_BUDGET,
    WRONG_SEAT,
    count_line,
    last_frame,
)
from lodam_p2p.bots.guard import BotAnswerError, ask_timed
from lodam_p2p.bots.manager import new_plugin_manager
from lodam_p2p.bots.registry import BotRegistry
from lodam_p2p.games import get_game
from lodam_p2p.games.lodam import Play, PlayerView
from lodam_p2p.player import Notice, NoticeLevel, SeatsChanged


def first_view() -> PlayerView:
    """The view of the first seat asked in a fresh 4-seat Lodam deal."""
    game = get_game("lodam")
    match = game.start_match(game.default_options(), 4, 0)
    deal = game.new_deal(match, list(game.pack(match)))
    seat = deal.to_act
    assert seat is not None
    view: PlayerView = deal.view(seat)
    return view


class Answers:
    """Answers with ``answer(view)``."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def decide(self, view: PlayerView) -> Any:
        return self.answer(view)


def raises(view: PlayerView) -> Any:
    raise ZeroDivisionError("the bot divided by zero")


def kind_of(answer: Any) -> BotAnswerError:
    with pytest.raises(BotAnswerError) as caught:
        ask_timed(Answers(answer), "probe", first_view())
    return caught.value


def test_each_kind_of_failure_is_told_apart() -> None:
    view = first_view()
    other = (view.seat + 1) % view.players
    assert kind_of(raises).kind == EXCEPTION
    assert kind_of(lambda v: "7H").kind == MALFORMED
    assert kind_of(lambda v: type(v.legal[0])(other, *_args(v.legal[0]))).kind == WRONG_SEAT
    hand = set(view.hand)
    missing = next(c for c in get_game("lodam").pack(_match()) if c not in hand)
    assert kind_of(lambda v: Play(v.seat, missing)).kind == ILLEGAL


def _match() -> Any:
    game = get_game("lodam")
    return game.start_match(game.default_options(), 4, 0)


def _args(action: Any) -> list[Any]:
    # the fields after the seat, wherever the class declares them (an action built on
    # the kit's SeatCard inherits its fields: its own __slots__ is empty)
    return [getattr(action, f.name) for f in dataclasses.fields(action) if f.name != "seat"]


def test_an_exception_keeps_its_traceback_and_names_the_decision() -> None:
    err = kind_of(raises)
    assert err.decision == first_view().awaiting.name  # type: ignore[union-attr]
    assert "ZeroDivisionError: the bot divided by zero" in err.trace
    assert last_frame(err.trace).endswith("in raises")
    assert __file__ in last_frame(err.trace)
    fault = err.fault("random")
    assert fault.to_json() == {"kind": "exception", "bot": "probe", "seat": err.seat,
                               "decision": err.decision, "message": str(err),
                               "fallback": "random"}


def test_a_decision_over_budget_and_margin_is_an_error_by_the_injected_clock() -> None:
    view = first_view()
    ticks = iter([10.0, 10.0 + 0.5 + MARGIN_S + 0.001])
    with pytest.raises(BotAnswerError) as caught:
        ask_timed(Answers(lambda v: v.legal[0]), "slow", view, clock=lambda: next(ticks),
                  budget_s=0.5)
    assert caught.value.kind == OVER_BUDGET and "over its budget of 0.5 s" in str(caught.value)
    ticks = iter([10.0, 10.0 + 0.5 + MARGIN_S])
    action, seconds = ask_timed(Answers(lambda v: v.legal[0]), "slow", view,
                                clock=lambda: next(ticks), budget_s=0.5)
    assert action == view.legal[0] and seconds == pytest.approx(0.5 + MARGIN_S)


def test_percentiles_are_nearest_rank() -> None:
    samples = [float(n) for n in range(1, 101)]
    assert percentiles(samples) == {"p50": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    assert percentiles([]) == {}


def test_the_message_list_says_how_many_more_there_are() -> None:
    err = kind_of(raises)
    faults = [err.fault()] * 8
    lines = count_line(faults, 5)
    assert len(lines) == 6 and lines[-1] == "… and 3 more"


class Flaky:
    """Answers twice, then raises."""

    def __init__(self, *, seat: int, seed: int, options: object) -> None:
        self.answers = 0

    def decide(self, view: PlayerView) -> Any:
        if self.answers >= 2:
            raise ValueError("lost my marbles")
        self.answers += 1
        return view.legal[0]


class FirstLegal:
    def __init__(self, *, seat: int, seed: int, options: object) -> None:
        pass

    def decide(self, view: PlayerView) -> Any:
        return view.legal[0]


class Plugin:
    @hookimpl
    def lodam_bot_types(self) -> list[BotType]:
        return [BotType("flaky", "raises after two answers", Flaky, games=("*",)),
                BotType("random", "stands in as the fallback", FirstLegal, games=("*",)),
                BotType("boom", "raises when made", Boom, games=("*",))]


class Boom:
    def __init__(self, *, seat: int, seed: int, options: object) -> None:
        raise RuntimeError("no brain today")

    def decide(self, view: PlayerView) -> Any:  # pragma: no cover - never made
        return view.legal[0]


@pytest.fixture
def registry() -> BotRegistry:
    manager = new_plugin_manager()
    manager.register(Plugin())
    return BotRegistry(manager)


def test_a_failing_bot_at_a_table_is_logged_kept_and_replaced(
        registry: BotRegistry, caplog: pytest.LogCaptureFixture) -> None:
    told: list[str] = []
    player = BotPlayer("flaky", registry.make("flaky", 0, 1), registry.fallback("flaky", 0),
                       1, on_fault=lambda fault: told.append(fault.kind))
    view = first_view()
    with caplog.at_level(logging.WARNING, logger="lodam_p2p.bots"):
        answers = [asyncio.run(player.decide(view)) for _ in range(4)]
    assert all(answer in view.legal for answer in answers)
    assert [f.kind for f in player.faults] == [EXCEPTION] and told == [EXCEPTION]
    assert player.faults[0].fallback == "random" and player.name == "random"
    warning = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warning) == 1
    text = warning[0].getMessage()
    assert "bot 'flaky'" in text and "ValueError: lost my marbles" in text
    assert f"(exception at decision {player.faults[0].decision}, in " in text
    assert "in decide" in text and "Traceback" not in text  # the whole trace needs -v
    assert faults_of([player]) == player.faults


def test_with_info_shown_the_warning_carries_the_whole_traceback(
        registry: BotRegistry, caplog: pytest.LogCaptureFixture) -> None:
    player = BotPlayer("flaky", registry.make("flaky", 0, 1), registry.fallback("flaky", 0))
    with caplog.at_level(logging.INFO, logger="lodam_p2p.bots"):
        for _ in range(3):
            asyncio.run(player.decide(first_view()))
    assert "Traceback (most recent call last)" in caplog.records[-1].getMessage()


def test_a_strict_seat_forfeits_at_its_first_error(registry: BotRegistry) -> None:
    forfeits: list[BotForfeit] = []
    player = BotPlayer("flaky", registry.make("flaky", 0, 1), registry.fallback("flaky", 0),
                       strict=True, on_forfeit=forfeits.append)
    view = first_view()
    asyncio.run(player.decide(view))
    asyncio.run(player.decide(view))
    with pytest.raises(BotForfeit):
        asyncio.run(player.decide(view))
    with pytest.raises(BotForfeit):  # and it stays forfeited
        asyncio.run(player.decide(view))
    assert len(forfeits) == 1 and player.forfeit is forfeits[0]
    assert forfeits[0].fault.fallback == ""  # nobody played on for it


def test_a_seat_the_table_blames_is_noted(registry: BotRegistry) -> None:
    player = BotPlayer("flaky", registry.make("flaky", 2, 1))
    player.notify(SeatsChanged((), me=2))
    player.notify(Notice(NoticeLevel.ERROR, "seat 1 did not answer", blamed=1))
    assert player.blamed == ""
    player.notify(Notice(NoticeLevel.ERROR, "seat 2 did not answer", blamed=2))
    assert player.blamed == "seat 2 did not answer"


def test_wrapped_bot_players_are_found() -> None:
    class Wrapper:
        def __init__(self, inner: object) -> None:
            self.inner = inner

    bot = BotPlayer("x", FirstLegal(seat=0, seed=0, options={}))
    assert bot_players([Wrapper(Wrapper(bot)), object()]) == [bot]


def test_a_factory_that_raises_is_one_line_naming_the_bot_and_source(
        registry: BotRegistry) -> None:
    with pytest.raises(BotStartError) as caught:
        registry.make("boom", 3, 1)
    message = str(caught.value)
    assert message.startswith("bot 'boom' (from ")
    assert "could not start at seat 3: RuntimeError: no brain today" in message
    assert "\n" not in message and "in __init__" in caught.value.trace


def test_a_person_at_the_table_is_told_each_bot_error_counted(registry: BotRegistry) -> None:
    from lodam_p2p.cli.person import bot_error_notice

    class Person:
        def __init__(self) -> None:
            self.notices: list[Notice] = []

        def notify(self, event: object) -> None:
            assert isinstance(event, Notice)
            self.notices.append(event)

    person = Person()
    tell = bot_error_notice(person)  # type: ignore[arg-type]
    players = [BotPlayer("flaky", registry.make("flaky", seat, 1), on_fault=tell)
               for seat in (1, 2)]
    view = first_view()
    for player in players:
        for _ in range(3):
            asyncio.run(player.decide(view))
    assert [n.level for n in person.notices] == [NoticeLevel.WARNING] * 2
    assert person.notices[0].text.startswith("bot error 1: bot 'flaky'")
    assert person.notices[1].text.startswith("bot error 2: bot 'flaky'")
