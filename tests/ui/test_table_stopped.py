"""A table that stops with an error while the screen is open closes the screen and says
so to the command (TableStopped), for both games' clients; the log file rotates."""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from lodam_p2p.cli import CliError, play_seats
from lodam_p2p.ui.lodam.client import Client, ClientOptions
from lodam_p2p.ui.lorum.client import LorumClient, LorumSettings
from lodam_p2p.ui.matches import Matches, TableStopped

#: Seconds before a test that waits on a screen gives up (a safety net only).
PATIENCE = 60.0


class Refused(OSError):
    """What a broker that refuses the connection raises."""


async def _refused(person: object) -> object:
    await asyncio.sleep(0)
    raise Refused("cannot connect to mqtt://127.0.0.1:9: Connection refused")


def test_a_failed_match_closes_a_screen_that_never_ends_by_itself() -> None:
    async def scenario() -> tuple[BaseException, bool]:
        failures: list[BaseException] = []
        forever: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        matches = Matches(_refused, failures.append)
        with pytest.raises(TableStopped) as stopped:
            await asyncio.wait_for(matches.around(object(), forever), PATIENCE)
        assert len(failures) == 1
        return stopped.value.cause, forever.cancelled()

    cause, closed = asyncio.run(scenario())
    assert isinstance(cause, Refused) and closed


@pytest.mark.parametrize("game", ["lodam", "lorum"])
def test_each_client_leaves_the_screen_when_its_table_stops(game: str) -> None:
    async def scenario() -> None:
        with create_pipe_input() as pipe:
            if game == "lodam":
                client: Client | LorumClient = Client(
                    _refused, ClientOptions(input=pipe, output=DummyOutput()))
            else:
                client = LorumClient(_refused, LorumSettings(input=pipe, output=DummyOutput()))
            with pytest.raises(TableStopped, match="Connection refused"):
                await asyncio.wait_for(client.run(), PATIENCE)
            assert not client.app.app.is_running

    asyncio.run(scenario())


def test_the_line_says_what_failed_and_what_to_try() -> None:
    line = play_seats.stopped_line(Refused("cannot connect to mqtt://h:1: refused"),
                                   "mqtt://h:1", Path("/tmp/lodam.log"))
    assert line.startswith("the table stopped: cannot connect to mqtt://h:1: refused; ")
    assert "leave out --broker" in line and "/tmp/lodam.log" in line and "\n" not in line


def test_a_stopped_screen_is_a_cli_error_with_a_non_zero_status() -> None:
    from lodam_p2p.cli.cmd_play import play_defaults, stopped

    err = stopped(TableStopped(Refused("boom")), play_defaults(), None)
    assert isinstance(err, CliError) and err.code != 0 and "boom" in str(err)


@pytest.fixture
def root_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    for handler in root.handlers:
        handler.close()
    root.handlers[:], root.level = handlers, level


@pytest.mark.usefixtures("root_logging")
def test_the_log_file_rotates_at_its_cap(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play_seats, "LOG_BYTES", 2000)
    path = play_seats.setup_logging(tmp_path / "lodam.log")
    handler = logging.getLogger().handlers[0]
    assert isinstance(handler, logging.handlers.RotatingFileHandler)
    assert handler.backupCount == play_seats.LOG_KEPT
    for n in range(500):
        logging.getLogger("lodam_p2p.test").info("line %d of a log that would grow", n)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["lodam.log", "lodam.log.1", "lodam.log.2", "lodam.log.3"]
    assert all((tmp_path / name).stat().st_size <= 2000 for name in files)
    assert path.read_text(encoding="utf-8").rstrip().endswith("line 499 of a log that would grow")


def test_the_default_cap_is_a_few_megabytes() -> None:
    assert 1_000_000 <= play_seats.LOG_BYTES <= 20_000_000 and play_seats.LOG_KEPT >= 1
