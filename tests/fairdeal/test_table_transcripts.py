"""Transcripts from real tables: the table machine hands its runner each finished hand's
transcript (``TranscriptReady``), the runner writes it, and ``lodam verify`` accepts it.

In memory over the hub (every seat and the host's watcher in one process), and over a
private Mosquitto with ``lodam host … --transcripts DIR`` and bot processes.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lodam_p2p.fairdeal import Transcript, verify_transcript
from lodam_p2p.games.lodam import Options
from lodam_p2p.session.effects import TranscriptReady
from lodam_p2p.session.runner import transcript_name
from lodam_p2p.transport.memory import MemoryHub
from tests.lorum_net.helpers import lorum_table
from tests.session.helpers import PATIENT, bots, run_all, table
from tests.support.aio import MATCH_PATIENCE
from tests.support.brokers import Mosquitto
from tests.support.procs import announced, wait_for
from tests.support.virtual import run_on_table_clock as run


def test_every_hand_of_an_in_memory_match_hands_over_a_transcript_that_verifies(
        tmp_path: Path) -> None:
    sessions = table(MemoryHub(), bots(["random"] * 3), Options(lives=1))
    handed: list[TranscriptReady] = []
    watcher = sessions[0]
    keep = watcher.runner._keep

    def record(ready: TranscriptReady, folder: Path) -> None:
        handed.append(ready)
        keep(ready, folder)

    watcher.runner._keep = record  # type: ignore[method-assign]
    for session in sessions:
        session.runner.transcripts = tmp_path

    async def scenario() -> list[object]:
        return list(await asyncio.gather(*(s.run() for s in sessions)))

    outcomes = run(scenario(), MATCH_PATIENCE)
    deals = outcomes[0].deals  # type: ignore[attr-defined]
    assert deals >= 1 and not outcomes[0].blames  # type: ignore[attr-defined]
    # the watcher was handed one transcript per hand, each complete and sound
    assert [r.hand for r in handed] == list(range(1, deals + 1))
    for ready in handed:
        assert ready.table == "oak" and ready.seat is None
        assert ready.transcript.config.hand == ready.hand
        verdict = verify_transcript(ready.transcript)
        assert verdict.sound, verdict.summary
    # and every seat wrote its own file of every hand, each one verifying alike
    for hand in range(1, deals + 1):
        texts = {seat: (tmp_path / transcript_name("oak", hand, seat)).read_text()
                 for seat in (None, 0, 1, 2)}
        configs = {Transcript.from_json(t).config for t in texts.values()}
        assert len(configs) == 1
        for text in texts.values():
            assert verify_transcript(Transcript.from_json(text)).sound
    # what a table wrote is what verify judges: one changed signed byte is refused
    written = Transcript.from_json((tmp_path / transcript_name("oak", 1, 1)).read_text())
    seat, raw = written.envelopes[3]
    forged = (seat, raw[:-1] + bytes([raw[-1] ^ 1]))
    assert not verify_transcript(Transcript(written.config, (
        *written.envelopes[:3], forged, *written.envelopes[4:]))).sound


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


@pytest.mark.slow
def test_lodam_host_with_transcripts_leaves_files_lodam_verify_accepts(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto("set_tcp_nodelay true")
    folder = tmp_path / "transcripts"
    host = _lodam("host", "--table", "ash", "--seats", "3", "--bot", "random",
                  "--broker", broker.url, "--json", "--option", "lives=1",
                  "--state-dir", str(tmp_path / "host-state"),
                  "--transcripts", str(folder), log=tmp_path / "host.log")
    wait_for("the host's announcement on the broker", lambda: announced(broker, "ash"))
    joined = [_lodam("bot", "random", "--table", "ash", "--broker", broker.url,
                     "--state-dir", str(tmp_path / f"bot{i}-state"),
                     "--transcripts", str(tmp_path / f"bot{i}"), log=tmp_path / f"bot{i}.log")
              for i in range(2)]
    out, _ = host.communicate(timeout=MATCH_PATIENCE)
    for bot in joined:
        bot.communicate(timeout=60)
    assert host.returncode == 0, (tmp_path / "host.log").read_text()
    result = json.loads(out.decode().splitlines()[-1])
    files = sorted(folder.glob("ash-hand*.json"))
    # the watcher and the host's bot seat, one file each per hand
    assert len(files) == 2 * result["deals"] >= 2
    assert len(list((tmp_path / "bot0").glob("ash-hand*-seat*.json"))) == result["deals"]
    for path in files:
        verify = subprocess.run([sys.executable, "-m", "lodam_p2p", "verify", "--json",
                                 str(path)], capture_output=True, check=False)
        assert verify.returncode == 0, verify.stdout + verify.stderr
        verdict = json.loads(verify.stdout)
        assert verdict["sound"] and verdict["attributable"] is False
        assert verdict["seat"] is None and verdict["argument"] == "tw"


def _verdict(path: Path) -> tuple[int, dict[str, Any]]:
    verify = subprocess.run([sys.executable, "-m", "lodam_p2p", "verify", "--json", str(path)],
                            capture_output=True, check=False)
    return verify.returncode, json.loads(verify.stdout)


@pytest.mark.slow
def test_a_cheat_at_a_real_table_is_named_by_the_honest_seats_transcripts(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    broker = make_mosquitto("set_tcp_nodelay true")
    host = _lodam("host", "--table", "yew", "--seats", "3", "--bot", "random",
                  "--broker", broker.url, "--json", "--option", "lives=1", "--timeout", "20",
                  "--state-dir", str(tmp_path / "host-state"),
                  "--transcripts", str(tmp_path / "host"), log=tmp_path / "host.log")
    wait_for("the host's announcement on the broker", lambda: announced(broker, "yew"))
    honest = _lodam("bot", "random", "--table", "yew", "--broker", broker.url,
                    "--state-dir", str(tmp_path / "bot-state"), log=tmp_path / "bot.log")
    cheat = _lodam("adversary", "bad-share-proof", "--table", "yew", "--broker", broker.url,
                   "--state-dir", str(tmp_path / "adv-state"),
                   "--transcripts", str(tmp_path / "adv"), log=tmp_path / "adv.log")
    out, _ = host.communicate(timeout=MATCH_PATIENCE)
    report = json.loads(cheat.communicate(timeout=60)[0].decode().splitlines()[-1])
    honest.communicate(timeout=60)
    assert host.returncode == 0, (tmp_path / "host.log").read_text()
    guilty = report["seat"]
    result = json.loads(out.decode().splitlines()[-1])
    assert result["blames"][0].startswith(f"seat {guilty}: ")
    # the hand the cheat spoiled: every honest copy convicts the cheat, attributably
    spoiled = sorted((tmp_path / "host").glob("yew-hand0001-*.json"))
    after = sorted((tmp_path / "host").glob("yew-hand0002-*.json"))
    assert len(spoiled) == len(after) == 2  # the watcher's and the host's bot seat's
    for path in spoiled:
        code, verdict = _verdict(path)
        assert code == 1 and not verdict["sound"]
        assert verdict["attributable"] is True and verdict["seat"] == guilty
        assert verdict["evidence"]
    # the next hand, without it, is sound and names nobody
    for path in after:
        code, verdict = _verdict(path)
        assert code == 0 and verdict["sound"] and verdict["seat"] is None


@pytest.mark.parametrize(("short", "written"), [(False, True), (True, False)])
def test_a_lorum_table_hands_over_every_deal_unless_its_deck_carries_over(
        tmp_path: Path, short: bool, written: bool) -> None:
    """A deal of its own deck verifies like a Lodam hand; a deck that carries over to the
    next deal (the short First-and-last) hands over nothing, since a transcript names
    one deal's schedule and would read the later deals' shares against it."""
    options = ["contracts=first_last", *(["first_last_short=true"] if short else [])]
    sessions = lorum_table(MemoryHub(), 4, *options, timing=PATIENT)
    for session in sessions:
        session.runner.transcripts = tmp_path
    outcomes = run(run_all(sessions), MATCH_PATIENCE)
    assert outcomes[0].deals == 4 and not outcomes[0].blames
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == (4 * 5 if written else 0)
    for path in files:
        assert verify_transcript(Transcript.from_json(path.read_text())).sound


def test_a_person_s_seat_hands_its_transcripts_directory_to_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal client's seat (lodam join TABLE, lodam host in a terminal) writes
    its transcripts like a bot's: its driver gives the table the directory, whose
    runner writes each hand (as the in-memory test above shows for any seat)."""
    from lodam_p2p import session
    from lodam_p2p.cli import cmd_play, play_drivers

    given: dict[str, object] = {}

    async def joined(**kwargs: object) -> None:
        given.update(kwargs)

    monkeypatch.setattr(session, "join_table", joined)
    play = cmd_play.play_defaults()
    play.state_dir, play.transcripts = tmp_path / "state", tmp_path / "hands"
    play.join_row = types.SimpleNamespace(table="oak", broker="mqtt://127.0.0.1:1")
    driver = play_drivers.choose_driver(play)
    asyncio.run(driver(None, [types.SimpleNamespace()], None))  # type: ignore[arg-type]
    assert given["table"] == "oak" and given["transcripts"] == tmp_path / "hands"
