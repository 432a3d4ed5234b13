"""Fixtures shared by every test area: a private home, and real brokers on ephemeral
loopback ports.

- ``private_home`` (autouse) — ``HOME``, ``XDG_STATE_HOME`` and ``XDG_CONFIG_HOME`` point
  into the test's own temporary folder, for the test and every process it starts: the
  suite never writes the player's log (``~/.local/state/lodam/lodam.log``) nor their
  remembered name (``~/.config/lodam/name``).

- ``mosquitto`` — a running private Mosquitto (``.url``, ``.port``, ``.stop()``,
  ``.start()`` again on the same port). Fails — never skips — when mosquitto is
  missing: ``.ci/run`` installs it.
- ``make_mosquitto`` — a factory taking extra configuration lines (e.g.
  ``"allow_anonymous false"``), for brokers set up differently.
- ``amqtt_broker`` — the embedded amqtt broker (``lodam_p2p.transport.broker``) running in a
  thread of its own (``.url``, ``.port``); usable from sync tests, ``asyncio.run``
  scenarios and child processes alike. A test that wants the broker in its own event
  loop uses ``lodam_p2p.transport.broker.EmbeddedBroker`` directly.

Property tests draw the same examples on every run (hypothesis's ``derandomize``): a
run of the suite passes or fails by the code alone, never by the draw. To explore new
examples, run with ``HYPOTHESIS_PROFILE=explore``; a case it finds goes in as an
``@example``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.brokers import BrokerUnavailable, Mosquitto, ThreadedAmqtt

settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory,
                 monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home of the test's own (see the module docstring)."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    return home


@pytest.fixture
def make_mosquitto(tmp_path: Path) -> Iterator[Callable[[str], Mosquitto]]:
    """Start private mosquittos with extra configuration; all are stopped afterwards."""
    started: list[Mosquitto] = []

    def make(extra_config: str = "") -> Mosquitto:
        workdir = tmp_path / f"mosquitto-{len(started)}"
        workdir.mkdir()
        problem = None
        try:
            broker = Mosquitto(workdir, extra_config)
            broker.start()
        except BrokerUnavailable as err:
            problem = str(err)
        if problem is not None:
            pytest.fail(problem, pytrace=False)
        started.append(broker)
        return broker

    yield make
    for broker in started:
        broker.stop()


@pytest.fixture
def mosquitto(make_mosquitto: Callable[[str], Mosquitto]) -> Mosquitto:
    """A running private mosquitto on an ephemeral 127.0.0.1 port."""
    return make_mosquitto("")


@pytest.fixture
def amqtt_broker() -> Iterator[ThreadedAmqtt]:
    """The embedded amqtt broker on an ephemeral 127.0.0.1 port, in its own thread."""
    broker = ThreadedAmqtt()
    broker.start()
    yield broker
    broker.stop()


@pytest.fixture(autouse=True)
def private_state_home(tmp_path_factory: pytest.TempPathFactory,
                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat journals (``--state-dir`` by default) go to a temporary directory, never to
    the user's own state directory; child processes inherit it."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
