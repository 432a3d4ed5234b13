"""The Lorum client, headless: prompt_toolkit reads keys from a pipe and draws nowhere.

The person's :class:`~lodam_p2p.ui.lorum.player.LorumPlayer` is seated at the local
table (:func:`~lodam_p2p.local.play_local`, driven through the game interface) with
``random`` bots. A short match (Quartet and Lorum, four seats, no delay) is played by
keys alone through the real application — the hint and Enter for every decision, Enter
after every deal — until the round's standings offer "play again"; then Enter plays
again, and ``q`` ``y`` leaves.
"""

from __future__ import annotations

import asyncio
import re

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lodam_p2p.bots import BotRegistry
from lodam_p2p.bots.adapter import BotPlayer
from lodam_p2p.games.lorum import Contract, Options
from lodam_p2p.local import play_local
from lodam_p2p.tableplan import MatchOutcome, SeatPlan
from lodam_p2p.ui.lorum.client import LorumClient, LorumSettings
from lodam_p2p.ui.lorum.model import LorumPanel
from lodam_p2p.ui.lorum.player import LorumPlayer
from lodam_p2p.ui.lorum.view import render_lorum

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


SHORT = Options(contracts=(Contract.QUARTET, Contract.LORUM))
FOUR = ("ann", "Moll", "Ned", "Bess")
#: The last screen of the last session, drawn wide enough that no panel hides a seat.
wide: list[str] = []
#: The score sheet opened at the end of the first deal.
sheets: list[str] = []


class _Failing:
    """A bot that breaks: it raises, or (``nonsense``) answers what is not an action."""

    def __init__(self, nonsense: bool) -> None:
        self.nonsense = nonsense

    def decide(self, view):
        if self.nonsense:
            return "a card from the sleeve"
        raise RuntimeError("the bot broke")


def _start(options: Options, names: tuple[str, ...], seed: int, broken: bool):
    """Seats the person with ``random`` bots (the first two broken, if asked) at the
    local table; each match with the next seed."""
    random_bot = BotRegistry.load().get("random")
    played = []

    async def start(person: LorumPlayer) -> MatchOutcome:
        match_seed = seed + len(played)
        played.append(match_seed)
        seats = [SeatPlan(names[0], person)]
        for seat, name in enumerate(names[1:], start=1):
            bot = (_Failing(seat == 2) if broken and seat <= 2 else
                   random_bot.make(seat, match_seed * 1000 + seat))
            seats.append(SeatPlan(name, BotPlayer("random", bot, random_bot, seat),
                                  "bot:random"))
        return await play_local(options=options, seats=seats, seed=match_seed, game="lorum")

    return start


async def _session(options: Options = SHORT, names: tuple[str, ...] = FOUR, seed: int = 11,
                   broken: bool = False) -> tuple[LorumClient, list[str], int]:
    screens: list[str] = []
    wide.clear()
    sheets.clear()
    decisions = 0
    with create_pipe_input() as pipe:
        settings = LorumSettings(hint=lambda view: view.legal[-1], input=pipe,
                                 output=DummyOutput())
        client = LorumClient(_start(options, names, seed, broken), settings)
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
                if number == 1:  # the sheet from the end of a deal counts that deal
                    pipe.send_text("s")
                    await _until(lambda: client.model.panel is LorumPanel.SHEET, "the sheet")
                    sheets.append(render_lorum(client.model, 80, 24, 0.0).text())
                    pipe.send_text("s")
                    await _until(lambda: client.model.panel is LorumPanel.DEAL_END, "back")
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
        wide.append(render_lorum(client.model, 130, 30, 0.0).text())
        await _until(lambda: len(client.outcomes) == 1, "the match recorded")
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
    (outcome,) = client.outcomes
    assert (outcome.game, outcome.deals) == ("lorum", 8)
    assert decisions > 0
    assert all("Lorum · table offline" in s for s in screens)
    assert any("Quart — quartet" in s for s in screens)
    assert any("Lorum — " in s and "▶ You" in s for s in screens)
    assert any("Enter: continue" in s for s in screens)
    assert "Enter: play again" in screens[-1]
    assert sum(outcome.lives) > 0
    assert "Quart" in sheets[0] and "1/4" in sheets[0]
    # the seats' totals beside the standings are the match's (the last deal not twice)
    shown = sorted(int(t) for t in re.findall(r"total (\d+)", wide[-1]))
    assert shown == sorted(outcome.lives[1:])  # the bots; the panel covers the person
    ranked = [int(p) for p in re.findall(r"(\d+) points", screens[-1])]
    assert ranked == sorted(outcome.lives)  # the standings, fewest points first

def test_every_contract_with_three_seats_beans_blind_and_short_by_keys() -> None:
    options = Options.parse_assignments([
        "scoring=beans", "red_king_blind=true", "first_last_short=true",
        "lorum_start=unter", "lorum_play_on=true", "fifth_trick=6"])
    client, screens, decisions = asyncio.run(_session(options, ("ann", "Moll", "Ned"), 3))
    (outcome,) = client.outcomes
    assert outcome.deals == 24 and decisions > 0
    assert any("Roter König" in s for s in screens)
    assert any("Fünfter Stich" in s for s in screens)
    assert "Enter: play again" in screens[-1]


def test_every_contract_with_four_seats_by_keys() -> None:
    client, screens, decisions = asyncio.run(_session(Options(), FOUR, 2))
    (outcome,) = client.outcomes
    assert outcome.deals == 32 and decisions > 0
    assert "Enter: play again" in screens[-1]


def test_a_broken_bot_is_replaced_by_a_random_legal_action_and_the_table_goes_on() -> None:
    client, screens, _ = asyncio.run(_session(SHORT, FOUR, 6, broken=True))
    (outcome,) = client.outcomes
    assert outcome.deals == 8 and "Enter: play again" in screens[-1]
    assert not any("The table stopped" in s for s in screens)
