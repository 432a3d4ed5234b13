"""REJOIN names the seats coming back with its sender; a cheater may name honest seats
there. A seat still connected and answering is refused (no void, no blame); a returning
seat that names honest seats moves who coordinates its return, blames nobody, and the
honest seats end with one result."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lodam_p2p.session import Session
from lodam_p2p.session.wire import Body, Msg
from lodam_p2p.tableplan import MatchOutcome
from tests.session.test_rejoin_trust import PATIENCE, _Table
from tests.support.aio import until
from tests.support.virtual import run_on_table_clock


def _one_result(outcomes: list[MatchOutcome]) -> MatchOutcome:
    assert len({repr(o.to_json()) for o in outcomes}) == 1, outcomes
    return outcomes[0]


async def _a_seated_cheater_names_honest_seats(tmp_path: Path) -> tuple[
        list[MatchOutcome], list[int]]:
    table = _Table(tmp_path)
    resumed: list[int] = []  # the seats whose RESUME any peer took, as told
    try:
        await until("the table seated", lambda: all(
            s.seat is not None for s in table.sessions[1:]))
        cheater = table.seat(2)
        await until("a hand dealt at the cheater", lambda: cheater.hand_no >= 2
                    and cheater.hand is not None and cheater.hand.dealt)
        for session in table.sessions:
            take = session.return_desk.take_resume

            def noting(body: Body, take: object = take) -> None:
                resumed.append(body.args[0])
                take(body)  # type: ignore[operator]
            session.return_desk.take_resume = noting  # type: ignore[method-assign]
        # still connected and never restarted, it says seats 0 and 1 come back with it
        cheater.send(Body(Msg.REJOIN, args=(cheater.hand_no, [0, 1])))
        cheater.runner.inbox.put_nowait(object())  # wake its loop to publish the lie
        honest = [task for session, task in table.tasks.items() if session is not cheater]
        outcomes = list(await asyncio.gather(*honest))
    finally:
        await table.close()
    return outcomes, resumed


def test_a_connected_cheater_naming_honest_seats_in_its_rejoin_is_refused(
        tmp_path: Path) -> None:
    """It never went away: its coordinator (seat 3, the lowest seat it does not name)
    refuses it, no hand is void, nobody is blamed, and it plays on with the rest."""
    outcomes, resumed = run_on_table_clock(
        _a_seated_cheater_names_honest_seats(tmp_path), PATIENCE * 3)
    result = _one_result(outcomes)  # the host's watcher and seats 0, 1 and 3
    assert resumed == []
    assert result.blames == () and result.winners
    assert result.deals == result.audits_passed


async def _a_returning_seat_names_honest_seats(tmp_path: Path) -> tuple[
        list[MatchOutcome], Session]:
    table = _Table(tmp_path)
    try:
        await table.kill_mid_hand()
        back = table.back()
        named = [seat for seat in range(4) if seat != table.victim.seat][:2]
        # its REJOIN names two honest seats as coming back with it
        back.coming_back.together = tuple(table.seat(seat).me for seat in named)
        outcomes = list(await asyncio.gather(*table.tasks.values(), back.run()))
    finally:
        await table.close()
    return outcomes, back


def test_a_returning_seat_naming_honest_seats_blames_nobody_and_sits_down(
        tmp_path: Path) -> None:
    outcomes, back = run_on_table_clock(
        _a_returning_seat_names_honest_seats(tmp_path), PATIENCE * 2)
    result = _one_result(outcomes)
    assert result.blames == () and result.winners
    assert back.seat is not None
    named = {seat for seat in range(4) if seat != back.seat} - {back.coordinator(back.seat)}
    assert len(named) == 2  # the seat neither back nor named answered
