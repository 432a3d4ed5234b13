"""The table machine's handlers call nothing out: they leave effects (tell the player,
write the spectator log, keep the journal: :mod:`lodam_p2p.session.effects`) that its
runner, or the tests' router, carries out in order, the journal before any frame."""

from __future__ import annotations

import ast
import asyncio
import io
from pathlib import Path
from typing import Any

import lodam_p2p.session
from lodam_p2p.games.lodam import Options
from lodam_p2p.player import Progress
from lodam_p2p.session.course import Timing
from lodam_p2p.session.effects import Keep, Spectate, Tell, carry_out
from lodam_p2p.session.journal import SeatJournal
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.log import SpectatorLog
from lodam_p2p.session.runner import SeatRunner
from lodam_p2p.session.seat import TableMachine
from lodam_p2p.session.wire import Body, Msg, peer_name, raw_public
from lodam_p2p.tableplan import SeatPlan
from tests.session.helpers import Keeper, bots
from tests.session.machines import TABLE, Router, Spot, machines


def test_a_seat_is_told_only_when_its_effects_are_carried_out() -> None:
    told = Keeper()
    table = machines([SeatPlan("ann", told), *bots(["random"] * 3)[1:]], Options(lives=1),
                     timing=Timing())
    seat = table[1]
    seat.start(1000.0)  # it asks for a seat, and says so to its player
    tells = [e.event for e in seat.events if isinstance(e, Tell)]
    assert tells and isinstance(tells[0], Progress) and told.events == []
    for event in seat.events:
        carry_out(event, player=told, spectator=None, journal=seat.journal)
    assert told.events == tells


def test_a_match_tells_logs_and_keeps_through_the_router() -> None:
    told = Keeper()
    table = machines([SeatPlan("ann", told), *bots(["random"] * 3)[1:]], Options(lives=1),
                     timing=Timing())
    story = io.StringIO()
    table[0].spectator = SpectatorLog(TABLE, story)  # the host's watcher writes the log
    router = Router(table)
    router.start()
    router.play_out()
    text = story.getvalue()
    assert "first dealer by lot" in text and "match over" in text
    assert any(type(e).__name__ == "MatchEnded" for e in told.events)
    assert all("outcome" in m.journal.entry for m in table[1:])  # each seat kept it
    assert all(m.events == [] for m in table)  # everything was carried out


class Kept(SeatJournal):
    """A journal that notes each write in ``log``."""

    def __init__(self, log: list[str]) -> None:
        super().__init__(None, "seat", TABLE)
        self.log = log

    def keep(self, **fields: Any) -> None:
        self.log.append("keep " + ",".join(fields))
        super().keep(**fields)


class Wire:
    """A link that notes each body it sends in ``log``."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    async def send(self, body: Body) -> None:
        self.log.append(f"send {body.kind.name}")

    async def publish_retained(self, topic: str, payload: bytes) -> None:
        self.log.append("retained")


def test_the_runner_keeps_the_journal_before_it_publishes() -> None:
    log: list[str] = []
    entropy = seeded(3, 0)
    identity = new_identity(entropy)
    spot = Spot(TABLE, identity, peer_name(raw_public(identity)))
    story = io.StringIO()
    machine = TableMachine(spot, plan=None, entropy=entropy, journal=Kept(log),
                           spectator=SpectatorLog(TABLE, story))
    machine.send(Body(Msg.BYE))
    machine.keep(match={"hand_no": 2})
    machine.spectate("a line")
    assert [type(e) for e in machine.events] == [Keep, Spectate] and log == []
    asyncio.run(SeatRunner(machine, Wire(log)).flush())
    assert log == ["keep match", "send BYE"] and story.getvalue() == f"[{TABLE}] a line\n"
    assert machine.journal.entry["match"] == {"hand_no": 2} and machine.events == []


#: The modules of the table machine and its parts (the hand's are another matter).
MACHINE = ("seat", "seating", "rejoin", "returning", "away", "course", "clocks",
           "gamecourse", "asking", "ballot")


def _modules() -> list[tuple[str, ast.Module]]:
    folder = Path(lodam_p2p.session.__file__).parent
    return [(name, ast.parse((folder / f"{name}.py").read_text())) for name in MACHINE]


def test_no_handler_of_the_machine_calls_out() -> None:
    """No call of the player's ``notify``, the spectator log or the journal's ``keep``
    in the machine: they are effects."""
    for name, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
                called = (node.value.attr, node.attr)
                assert called[1] != "notify", f"{name}: calls a player"
                assert called[0] not in ("spectator", "journal") or called[1] in (
                    "entry", "rejoining"), f"{name}: calls {'.'.join(called)}"


def test_the_machine_is_made_of_parts_not_stubs() -> None:
    """No class of the machine has more than one base, no method is a stub for a
    subclass to fill (NotImplementedError, abstractmethod)."""
    for name, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = [b for b in node.bases if not (isinstance(b, ast.Name)
                                                       and b.id in ("Protocol", "Exception"))]
                assert len(bases) <= 1, f"{name}.{node.name} has bases {len(bases)}"
            if isinstance(node, ast.Name):
                assert node.id not in ("NotImplementedError", "abstractmethod", "ABC"), name
