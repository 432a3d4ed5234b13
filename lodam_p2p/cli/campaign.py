"""``lodam adversary --campaign``: every seat kind against a four-seat table, both games.

One *run* is the table a security reviewer would set up by hand: ``lodam host`` with a
random bot, two ``lodam bot random`` and ``lodam adversary KIND``, each its own process
on one broker, four seats (Lodam with ``lives=1``, Lorum one contract), the adversary
joining last (seat 3) unless its attack needs a low seat (:attr:`Attack.joins_early
<lodam_p2p.redteam.attacks.base.Attack.joins_early>`: it joins first, seat 1). A run is

- ``held`` when the attack was mounted, learned nothing, the three honest results are
  identical, they name no seat but the adversary's, and a named adversary is not among
  their winners;
- ``n/a`` when the attack could not be mounted at this table (its reason is kept);
- ``FAILED`` otherwise (a process failed, the honest results differ, an honest seat is
  named, the attack won something), or ``timeout`` past ``--run-timeout``.

Beside each verdict: the seconds the run took and the host's peak resident memory
(``VmHWM`` from ``/proc``, read while it runs), so that a flood's cost shows next to a
quiet run's. Without ``--broker`` the runs share one embedded broker on loopback. This
is a tool at the edge: it starts processes and reads clocks; the table it drives is the
one every user runs.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lodam_p2p.redteam.attacks import ATTACKS
from lodam_p2p.transport import TransportError
from lodam_p2p.transport.broker import EmbeddedBroker, ListenAddress
from lodam_p2p.transport.lobby import read_lobby
from lodam_p2p.transport.mqtt import MqttTransport

#: The games a campaign plays, and the options that keep each match short.
GAME_OPTIONS: dict[str, tuple[str, ...]] = {"lodam": ("lives=1",),
                                            "lorum": ("contracts=red_king",)}
#: A seat's time limit and grace (s): four processes and a flood on a busy machine must
#: never make an honest seat look silent.
LIMIT_S, GRACE_S = "20", "20"
#: How long one run may take before it is stopped and called a timeout (s).
RUN_TIMEOUT_S = 240.0
#: How often the lobby and the host's memory are looked at (s).
POLL_S = 0.25


@dataclass
class Run:
    """One kind against one game's table: what came of it."""

    kind: str
    game: str
    verdict: str = "FAILED"
    seat: int | None = None
    attempted: bool = False
    learned: list[str] = field(default_factory=list)
    named: list[str] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    agree: bool = False
    reason: str | None = None
    seconds: float = 0.0
    host_rss_mb: float | None = None


def judge(run: Run, honest: Sequence[dict[str, Any]], report: dict[str, Any]) -> Run:
    """Fill ``run``'s verdict from the honest seats' results and the adversary's report."""
    run.seat, run.attempted = report.get("seat"), bool(report.get("attempted"))
    run.learned, run.reason = list(report.get("learned") or []), report.get("reason")
    first = honest[0] if honest else {}
    run.agree = bool(honest) and all(result == first for result in honest)
    run.named = sorted({str(line).split(":")[0] for line in first.get("blames", [])})
    run.winners = list(first.get("winners", []))
    if not run.attempted:
        run.verdict = "n/a"
        return run
    only_attacker = set(run.named) <= {f"seat {run.seat}"}
    kept_out = not run.named or run.seat not in run.winners
    held = run.agree and not run.learned and only_attacker and kept_out
    run.verdict = "held" if held else "FAILED"
    return run


class _Seat:
    """One process of a run, and its output."""

    def __init__(self, name: str, process: asyncio.subprocess.Process, log: Path) -> None:
        self.name, self.process, self.log = name, process, log
        self.peak_kb = 0

    def sample(self) -> None:
        """Read the process's peak resident memory so far."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                self.peak_kb = max(self.peak_kb, int(line.split()[1]))


async def _start(name: str, args: Sequence[str], logs: Path) -> _Seat:
    # a state directory of each process's own (one is locked by the process using it):
    # no journal of an earlier match at this table name (a campaign stopped half-way)
    # is taken for a seat to return to
    args = [*args, "--state-dir", str(logs / f"state-{name}")]
    log = logs / f"{name}.log"
    with log.open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "lodam_p2p", *args, stdout=asyncio.subprocess.PIPE,
            stderr=err)
    return _Seat(name, process, log)


async def _seated(url: str, table: str) -> int:
    """How many seats the lobby shows taken at ``table`` (-1: not announced)."""
    try:
        async with MqttTransport(url, timeout=5.0) as transport:
            found = await read_lobby(transport, limit=5.0)
    except (TransportError, OSError):
        return -1
    counts = [len(a.seated) for a in found if a.table == table]
    return max(counts) if counts else -1


async def _until_seated(url: str, table: str, count: int, deadline: float) -> None:
    while await _seated(url, table) < count:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{count} seats never taken at {table}")
        await asyncio.sleep(POLL_S)


async def play_run(kind: str, game: str, url: str, logs: Path,
                   run_timeout: float = RUN_TIMEOUT_S) -> Run:
    """Play one run (see the module docstring) and judge it."""
    run, began = Run(kind, game), time.monotonic()
    deadline = began + run_timeout
    table = (kind.replace("-", "") + game)[:24]
    rules = [arg for option in (*GAME_OPTIONS[game], f"rejoin_grace={GRACE_S}")
             for arg in ("--option", option)]
    common = ["--table", table, "--broker", url, "--json", "--timeout", LIMIT_S, *rules]
    seats: list[_Seat] = [await _start("host", ["host", "--seats", "4", "--bot", "random",
                                                "--game", game, *common], logs)]
    early = getattr(ATTACKS.get(kind), "joins_early", False)
    joiners = [("bot1", ["bot", "random"]), ("bot2", ["bot", "random"])]
    attacker = ("adversary", ["adversary", kind])
    order = [attacker, *joiners] if early else [*joiners, attacker]
    try:
        await _until_seated(url, table, 1, deadline)
        for name, args in order:
            seats.append(await _start(name, [*args, *common], logs))
            await _until_seated(url, table, len(seats), deadline)
        outs = await _outputs(seats, deadline)
    except TimeoutError as err:
        run.verdict, run.reason = "timeout", str(err)
        return run
    finally:
        for seat in seats:
            if seat.process.returncode is None:
                seat.process.kill()
                await seat.process.wait()
        run.seconds = round(time.monotonic() - began, 1)
        run.host_rss_mb = round(seats[0].peak_kb / 1024, 1) if seats[0].peak_kb else None
    failed = [s.name for s in seats if s.process.returncode != 0]
    if failed or any(out is None for out in outs.values()):
        run.reason = f"process failed: {', '.join(failed) or 'no JSON line'}; see {logs}"
        return run
    report = outs.pop("adversary") or {}
    return judge(run, [out for out in outs.values() if out is not None], report)


async def _outputs(seats: list[_Seat], deadline: float) -> dict[str, dict[str, Any] | None]:
    """Wait for every process to end (sampling the host's memory); their last JSON lines."""
    reads = {seat.name: asyncio.ensure_future(seat.process.communicate()) for seat in seats}
    while not all(task.done() for task in reads.values()):
        if time.monotonic() > deadline:
            raise TimeoutError("the match did not end in time")
        seats[0].sample()
        await asyncio.wait(list(reads.values()), timeout=POLL_S)
    return {name: _last_json(task.result()[0]) for name, task in reads.items()}


def _last_json(out: bytes) -> dict[str, Any] | None:
    lines = out.decode(errors="replace").strip().splitlines()
    try:
        found = json.loads(lines[-1]) if lines else None
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


async def campaign(kinds: Sequence[str], games: Sequence[str], url: str | None, logs: Path,
                   run_timeout: float = RUN_TIMEOUT_S, *,
                   each: Callable[[Run], None] | None = None) -> list[Run]:
    """Every kind of ``kinds`` against every game of ``games``; ``each(run)`` is called
    as each run ends (to print it). Without ``url``, on an embedded broker."""
    if url is None:
        async with EmbeddedBroker(ListenAddress("127.0.0.1", 0)) as broker:
            return await campaign(kinds, games, broker.url, logs, run_timeout, each=each)
    runs: list[Run] = []
    for game in games:
        for kind in kinds:
            where = logs / f"{game}-{kind}"
            where.mkdir(parents=True, exist_ok=True)
            run = await play_run(kind, game, url, where, run_timeout)
            runs.append(run)
            if each is not None:
                each(run)
    return runs


def line(run: Run) -> str:
    """One run as a line of the campaign's table."""
    memory = f"{run.host_rss_mb:g} MB" if run.host_rss_mb is not None else "-"
    why = f"  ({run.reason})" if run.reason and run.verdict != "held" else ""
    return (f"{run.game:6} {run.kind:26} {run.verdict:8} seat {run.seat!s:4} "
            f"named {','.join(run.named) or '-':10} {run.seconds:6.1f} s  host {memory}{why}")


def as_json(run: Run) -> str:
    """One run as a JSON line."""
    return json.dumps(asdict(run))
