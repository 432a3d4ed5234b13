"""The Lorum client, headless: prompt_toolkit reads keys from a pipe and draws nowhere.

A short match (Quartet and Lorum, four seats: the person and three ``random`` bots, no
delay) is played by keys alone through the real application — the hint and Enter for
every decision, Enter after every deal — until the round's standings offer "play
again"; then Enter plays again, and ``q`` ``y`` leaves.
"""

from __future__ import annotations

import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lodam_p2p.bots import BotRegistry
from lodam_p2p.games.lorum import Contract, Options
from lodam_p2p.ui.lorum_client import LorumClient, LorumSettings, bot_makers
from lodam_p2p.ui.lorum_model import LorumPanel
from lodam_p2p.ui.lorum_view import render_lorum

#: Upper bound, in seconds, on waiting for the client (a hang fails, it never passes);
#: generous, since CI shares two cores with other work.
PATIENCE = 60.0


async def _until(check, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while loop.time() < deadline:
        if check():
            return
        await asyncio.sleep(0.002)
    raise AssertionError(f"the client never got to: {what}")


def _settings(pipe) -> LorumSettings:
    random_bot = BotRegistry.load().get("random")
    options = Options(contracts=(Contract.QUARTET, Contract.LORUM))
    return LorumSettings(
        options=options, names=("ann", "Moll", "Ned", "Bess"),
        bots=bot_makers([random_bot] * 3), seed=11,
        hint=lambda view: view.legal[-1], input=pipe, output=DummyOutput())


async def _session() -> tuple[LorumClient, list[str], int]:
    screens: list[str] = []
    decisions = 0
    with create_pipe_input() as pipe:
        client = LorumClient(_settings(pipe))
        running = asyncio.create_task(client.run())

        def waiting() -> bool:
            m = client.model
            return m.prompt is not None or m.panel in (LorumPanel.DEAL_END,
                                                       LorumPanel.MATCH_END)

        while True:
            await _until(waiting, "a question or the end of a deal")
            model = client.model
            if model.panel is LorumPanel.MATCH_END:
                break
            screens.append(render_lorum(model, 80, 24, 0.0).text())
            if model.panel is LorumPanel.DEAL_END:
                number = model.deal_number
                pipe.send_text("\r")
                await _until(lambda n=number: client.model.panel is not LorumPanel.DEAL_END
                             or client.model.deal_number != n, "the deal panel closed")
                continue
            asked = model.prompt
            pipe.send_text("h")
            await _until(lambda: client.model.hint is not None, "the hint")
            pipe.send_text("\r")
            await _until(lambda asked=asked: client.model.prompt is not asked,
                         "the answer taken")
            decisions += 1
        screens.append(render_lorum(client.model, 80, 24, 0.0).text())
        await _until(lambda: len(client.matches) == 1, "the match recorded")
        first = client.model
        pipe.send_text("\r")  # play again
        await _until(lambda: client.model is not first and client.model.view is not None,
                     "a new match")
        pipe.send_text("q")
        await _until(lambda: client.model.panel is LorumPanel.QUIT, "leave the table?")
        pipe.send_text("y")
        await asyncio.wait_for(running, 10)
    return client, screens, decisions


def test_a_short_lorum_match_by_keys_to_play_again() -> None:
    client, screens, decisions = asyncio.run(_session())
    (match,) = client.matches
    assert match.is_over and match.deals_played == 8
    assert decisions > 0
    assert all("Lorum · table offline" in s for s in screens)
    assert any("Quart — quartet" in s for s in screens)
    assert any("Lorum — " in s and "▶ You" in s for s in screens)
    assert any("Enter: continue" in s for s in screens)
    assert "Enter: play again" in screens[-1]
    assert sum(match.totals) > 0
