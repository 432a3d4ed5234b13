"""The whole client, headless: prompt_toolkit reads keys from a pipe and draws nowhere.

A local match of three (the person and two bots, no delay) is played for a few
decisions through the real application: keys go in through ``create_pipe_input()``, the
screen goes to ``DummyOutput()``, and the model shows what the person did.
"""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lodam_p2p.bots import BotRegistry
from lodam_p2p.bots.adapter import BotPlayer
from lodam_p2p.games.lodam import Options
from lodam_p2p.local import play_local
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.ui.lodam.client import Client, ClientOptions
from lodam_p2p.ui.lodam.model import Panel
from lodam_p2p.ui.lodam.player import TerminalPlayer
from lodam_p2p.ui.lodam.table_view import render
from lodam_p2p.ui.pacing import PacedPlayer

#: Upper bound, in seconds, on waiting for the table to ask something (a hang fails, it
#: never passes); generous, since CI shares two cores with other work.
PATIENCE = 60.0


async def _until(check, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while loop.time() < deadline:
        if check():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"the client never got to: {what}")


async def _session() -> tuple[Client, list[str]]:
    heuristic = BotRegistry.load().get("heuristic")

    async def start(person: TerminalPlayer) -> MatchOutcome:
        bots = [SeatPlan(n, PacedPlayer(BotPlayer("heuristic", heuristic.make(s, s)), 0,
                                        person.hold), "bot:heuristic")
                for s, n in ((1, "Moll"), (2, "Ned"))]
        return await play_local(options=Options(lives=1), seats=[SeatPlan("ann", person), *bots],
                                seed=7)

    screens: list[str] = []
    with create_pipe_input() as pipe:
        client = Client(start, ClientOptions(table="test", input=pipe, output=DummyOutput(),
                                             hint=lambda view: view.legal[-1]))
        running = asyncio.create_task(client.run())
        for _ in range(6):  # six decisions: hint then Enter, or pass
            await _until(lambda: client.model.prompt is not None, "a question")
            asked = client.model.prompt
            screens.append(render(client.model, 80, 24, 0.0).text())
            pipe.send_text("h")
            await _until(lambda: client.model.hint is not None, "the hint")
            pipe.send_text("\r")
            await _until(lambda asked=asked: client.model.prompt is not asked,
                         "the answer taken")
        pipe.send_text("?")
        await _until(lambda: client.model.panel is Panel.HELP, "the help")
        pipe.send_text("\x1b")
        await _until(lambda: client.model.panel is not Panel.HELP, "help closed")
        pipe.send_text("q")
        await _until(lambda: client.model.panel is Panel.QUIT, "leave the table?")
        pipe.send_text("y")
        await asyncio.wait_for(running, PATIENCE)
    return client, screens


def test_a_person_plays_six_decisions_through_the_real_application() -> None:
    client, screens = asyncio.run(_session())
    log = "\n".join(text for _, text in client.model.log)
    assert "Deal 1:" in log
    assert log.count("You ") >= 1
    assert all("Losing Lodam · table test" in s for s in screens)
    assert any("your turn" in s for s in screens)
    assert client.outcomes == []  # left before the end: no outcome, and no error shown
    assert client.model.notice is None or "stopped" not in client.model.notice.text
