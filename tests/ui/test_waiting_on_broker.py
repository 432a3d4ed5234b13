"""``lodam join oak --broker URL`` in a terminal before table oak is announced there: a
waiting screen that says what is looked for and where, that Esc leaves, that gives up
after ``--wait`` seconds with one line naming the table and the broker, and that goes
on to the table's own screen once the table is announced.

The looks at the broker are stood in for, the pauses between them take no time, and
the clock is the one the pauses move: nothing waits on the wall clock. The screen runs
for real, its keys through ``create_pipe_input()``, drawn to ``DummyOutput()``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.output import DummyOutput

from lodam_p2p.cli import cmd_play, finding, main
from lodam_p2p.cli.finding import NOT_ANNOUNCED, BrokerWait, LookAnnounced, TableNotFound
from lodam_p2p.ui import looking
from lodam_p2p.ui.looking import look_on_screen

BROKER = "mqtt://10.0.0.9:1884"
REFUSED = f"cannot connect to {BROKER}: Connection refused"
ESC = "\x1b"


class Broker:
    """A broker looked at again and again: each look answers the next of ``answers``
    (a game, or why not), the last one for ever; the pauses move a clock."""

    def __init__(self, *answers: tuple[str | None, str]) -> None:
        self.answers, self.now = list(answers), 0.0
        self.looked: list[tuple[str, str]] = []
        self.said: list[str] = []

    async def look(self, label: str, broker: str) -> tuple[str | None, str]:
        self.looked.append((label, broker))
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]

    async def pause(self, seconds: float) -> None:
        self.now += seconds

    def wait(self, label: str, wait_s: float) -> BrokerWait:
        return BrokerWait(label, BROKER, wait_s, look=self.look, say=self.said.append,
                          pause=self.pause, clock=lambda: self.now)


def test_a_table_announced_later_is_waited_for_saying_where_and_why() -> None:
    broker = Broker((None, REFUSED), (None, REFUSED), (None, NOT_ANNOUNCED),
                    ("lorum", ""))
    assert asyncio.run(broker.wait("oak", 60).game()) == "lorum"
    assert broker.looked == [("oak", BROKER)] * 4
    # one line at first, one more when the reason changed: never one a look
    assert len(broker.said) == 2
    assert broker.said[0].startswith(f"lodam: waiting for table oak on {BROKER}")
    assert REFUSED in broker.said[0] and "up to 60 s" in broker.said[0]
    assert NOT_ANNOUNCED in broker.said[1]


def test_a_table_announced_at_once_is_not_waited_for() -> None:
    broker = Broker(("lodam", ""))
    assert asyncio.run(broker.wait("oak#7f3a", 60).game()) == "lodam"
    assert broker.said == [] and broker.now == 0


def test_giving_up_names_the_table_the_broker_and_the_last_reason() -> None:
    broker = Broker((None, REFUSED))
    with pytest.raises(TableNotFound) as err:
        asyncio.run(broker.wait("oak", 30).game())
    assert broker.now >= 30 and len(broker.looked) > 1
    why = str(err.value)
    assert why.startswith(f"no table oak on {BROKER} in 30 s") and "\n" not in why
    assert REFUSED in why and f"lodam tables --broker {BROKER}" in why


def test_a_table_never_announced_says_no_more_than_that() -> None:
    broker = Broker((None, NOT_ANNOUNCED))
    with pytest.raises(TableNotFound, match=f"^no table oak on {BROKER} in 5 s of waiting;"):
        asyncio.run(broker.wait("oak", 5).game())


# -- `lodam join oak --broker URL` in a terminal ------------------------------------------

@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as keys:
        yield keys


class Joining:
    """``lodam join`` in a terminal whose screens read ``pipe``: what each look at the
    broker answers, what the waiting screen said, what reaches the table's screen."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, pipe: PipeInput, home: Path) -> None:
        self.home, self.monkeypatch = home, monkeypatch
        self.said: list[str] = []
        self.seated: list[argparse.Namespace] = []
        self.look: LookAnnounced = Broker((None, NOT_ANNOUNCED)).look

        def sit_down(args: argparse.Namespace) -> int:
            self.seated.append(args)
            return 0

        monkeypatch.setattr(cmd_play, "run", sit_down)
        monkeypatch.setattr(finding, "LOOK_AGAIN_S", 0.0)

        async def look(label: str, broker: str) -> tuple[str | None, str]:
            return await self.look(label, broker)  # the test's, set after this

        monkeypatch.setattr(finding, "look_announced", look)

        async def on_pipe(search: Any, **options: Any) -> Any:
            async def heard(say: Callable[[str], None]) -> Any:
                def told(line: str) -> None:
                    self.said.append(line)
                    say(line)

                return await search(told)

            return await look_on_screen(heard, **{**options, "input": pipe,
                                                  "output": DummyOutput()})

        monkeypatch.setattr(looking, "look_on_screen", on_pipe)

    def join(self, *more: str) -> int:
        """``lodam join oak --broker URL`` with a terminal on stdin and stdout (set here:
        the stdout a test reads is put in place once its fixtures are set up)."""
        for stream in (sys.stdin, sys.stdout):
            self.monkeypatch.setattr(stream, "isatty", lambda: True, raising=False)
        return main(["join", "oak", "--broker", BROKER, "--state-dir", str(self.home),
                     *more])


@pytest.fixture
def joining(monkeypatch: pytest.MonkeyPatch, pipe: PipeInput, tmp_path: Path) -> Joining:
    return Joining(monkeypatch, pipe, tmp_path / "state")


def test_the_table_announced_while_waiting_is_joined_at_its_game(joining: Joining) -> None:
    joining.look = Broker((None, REFUSED), (None, NOT_ANNOUNCED), ("lorum", "")).look
    assert joining.join() == 0
    (args,) = joining.seated
    assert (args.join_row.table, args.join_row.broker, args.join_row.game) == (
        "oak", BROKER, "lorum")
    assert joining.said[0] == f"waiting for table oak on {BROKER}…"
    assert all(f"table oak on {BROKER}" in line for line in joining.said)


def test_esc_on_the_waiting_screen_leaves_with_status_0(
        joining: Joining, pipe: PipeInput) -> None:
    cancelled = asyncio.Event()

    async def never(label: str, broker: str) -> tuple[str | None, str]:
        try:
            await asyncio.Event().wait()  # the table never comes
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return None, NOT_ANNOUNCED

    joining.look = never
    pipe.send_text(ESC)
    assert joining.join() == 0
    assert joining.seated == [] and cancelled.is_set()


def test_the_wait_over_is_one_line_naming_table_and_broker(
        joining: Joining, capsys: pytest.CaptureFixture[str]) -> None:
    joining.look = Broker((None, REFUSED)).look
    assert joining.join("--wait", "0") == 1
    err = capsys.readouterr().err
    assert err.startswith(f"lodam: no table oak on {BROKER} in 0 s") and err.count("\n") == 1
    assert REFUSED in err and joining.seated == []
