"""The waiting screen of a person joining a table by name: it shows what the search
says, returns what it found, and Esc leaves it (the search cancelled).

The screen runs for real: keys through ``create_pipe_input()``, the screen to
``DummyOutput()``. Nothing waits on the clock: a search that must still be running
when Esc comes waits on an event that never fires.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.input.base import PipeInput
from prompt_toolkit.output import DummyOutput

from lodam_p2p.cli import cmd_play, main, netrun
from lodam_p2p.cli.finding import Finder, TableNotFound
from lodam_p2p.ui import looking
from lodam_p2p.ui.looking import look_on_screen
from tests.support.aio import run

ESC = "\x1b"


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as keys:
        yield keys


def test_the_screen_returns_what_the_search_found(pipe: PipeInput) -> None:
    said: list[Callable[[str], None]] = []

    async def search(say: Callable[[str], None]) -> str:
        say("lodam: waiting for table oak…")
        said.append(say)
        return "mqtt://10.0.0.9:1883"

    found = run(look_on_screen(search, title="Joining table oak", input=pipe,
                               output=DummyOutput()))
    assert found == "mqtt://10.0.0.9:1883" and len(said) == 1


def test_esc_leaves_the_screen_and_cancels_the_search(pipe: PipeInput) -> None:
    cancelled = asyncio.Event()

    async def search(say: Callable[[str], None]) -> str:
        try:
            await asyncio.Event().wait()  # the table never comes
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return "never"

    async def scenario() -> tuple[str | None, bool]:
        pipe.send_text(ESC)
        found = await look_on_screen(search, title="Joining table oak", input=pipe,
                                     output=DummyOutput())
        return found, cancelled.is_set()

    assert run(scenario()) == (None, True)


def test_a_search_that_gives_up_raises_once_the_screen_is_closed(pipe: PipeInput) -> None:
    async def search(say: Callable[[str], None]) -> str:
        raise TableNotFound("no table oak found in 1 s")

    with pytest.raises(TableNotFound, match="no table oak"):
        run(look_on_screen(search, title="Joining table oak", input=pipe,
                           output=DummyOutput()))


@pytest.fixture
def joining(monkeypatch: pytest.MonkeyPatch, pipe: PipeInput
            ) -> list[argparse.Namespace]:
    """``lodam join`` in a terminal whose screens read ``pipe``; what reaches the table's
    screen (``lodam play``'s route, which opens it)."""
    import sys

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    seen: list[argparse.Namespace] = []

    def sit_down(args: argparse.Namespace, *_: Any, **__: Any) -> int:
        seen.append(args)
        return 0

    monkeypatch.setattr(cmd_play, "run", sit_down)

    async def on_pipe(search: Any, **options: Any) -> Any:
        return await look_on_screen(search, **{**options, "input": pipe,
                                               "output": DummyOutput()})

    monkeypatch.setattr(looking, "look_on_screen", on_pipe)
    return seen


def test_joining_by_name_finds_the_tables_brokers_and_game_on_the_screen(
        joining: list[argparse.Namespace], monkeypatch: pytest.MonkeyPatch) -> None:
    nodes = "mqtt://10.0.0.9:1884,mqtt://10.0.0.8:1884"

    async def find(self: Finder) -> str:
        return nodes

    async def game(table: str, broker: str, waiting: Any) -> str:
        assert (table, broker) == ("oak", nodes)
        return "lorum"

    monkeypatch.setattr(Finder, "find", find)
    monkeypatch.setattr(netrun, "announced_game", game)
    assert main(["join", "oak"]) == 0
    (args,) = joining
    assert args.join_row.broker == nodes and args.join_row.game == "lorum"


def test_esc_on_the_waiting_screen_leaves_before_any_table(
        joining: list[argparse.Namespace], monkeypatch: pytest.MonkeyPatch,
        pipe: PipeInput) -> None:
    async def never(self: Finder) -> str:
        await asyncio.Event().wait()
        return "never"

    monkeypatch.setattr(Finder, "find", never)
    pipe.send_text(ESC)
    assert main(["join", "oak"]) == 0
    assert joining == []
