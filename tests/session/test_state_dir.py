"""``--state-dir`` of ``lodam play`` (and of ``host``/``join``, which pass it on) at a
networked table: each match holds that directory while it runs and gives it back when
it ends, so that "play again" takes it up again, and another process cannot share it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from lodam_p2p import session
from lodam_p2p.cli.cmd_play import play_defaults
from lodam_p2p.cli.play_drivers import choose_driver
from lodam_p2p.session.journal import Journal, JournalError
from lodam_p2p.tableplan import MatchOutcome


def _joined(tmp_path: Path) -> Any:
    args = play_defaults()
    args.state_dir = tmp_path / "mine"
    args.join_row = SimpleNamespace(table="oak", broker="mqtt://127.0.0.1:1")
    return args


def test_each_match_holds_the_state_dir_and_gives_it_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    held: list[Journal] = []  # as a finished match's sessions may still hold it

    async def join_table(*, journal: Journal, **_kwargs: Any) -> MatchOutcome:
        held.append(journal)
        with pytest.raises(JournalError, match="in use"):  # not another process's
            Journal.open(journal.directory)
        return MatchOutcome("oak", (0,), 1, 1, ())

    monkeypatch.setattr(session, "join_table", join_table)
    driver = choose_driver(_joined(tmp_path))
    for _match in range(3):  # the first match, then "play again" twice
        asyncio.run(driver(None, [SimpleNamespace(player=None)], None))  # type: ignore[list-item]
    assert [journal.directory for journal in held] == [tmp_path / "mine"] * 3
    Journal.open(tmp_path / "mine").close()  # given back after the last one too
