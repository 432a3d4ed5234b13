"""``mqtts://`` against a Mosquitto TLS listener: CA file, client certificates, refusals."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lodam_p2p.transport.base import ConnectError
from lodam_p2p.transport.mqtt import MqttTransport
from tests.support.aio import Inbox, run
from tests.support.brokers import Mosquitto
from tests.support.tls import TlsFiles, make_tls_files


@pytest.fixture
def tls_files(tmp_path: Path) -> TlsFiles:
    folder = tmp_path / "tls"
    folder.mkdir()
    return make_tls_files(folder)


def tls_broker(make: Callable[[str], Mosquitto], files: TlsFiles, client_cert: bool) -> str:
    config = [f"cafile {files.ca}", f"certfile {files.server_cert}",
              f"keyfile {files.server_key}"]
    if client_cert:
        config.append("require_certificate true")
    return make("\n".join(config)).url.replace("mqtt://", "mqtts://")


def test_mqtts_with_a_ca_file(make_mosquitto: Callable[[str], Mosquitto],
                              tls_files: TlsFiles) -> None:
    url = tls_broker(make_mosquitto, tls_files, client_cert=False) + f"?ca={tls_files.ca}"

    async def scenario() -> bytes:
        async with MqttTransport(url) as client:
            await client.subscribe("lodam/#")
            inbox = Inbox(client)
            await client.publish("lodam/v3/lobby/oak", b"over tls")
            message = await inbox.topic("lodam/v3/lobby/oak")
            await inbox.stop()
            return message.payload

    assert run(scenario()) == b"over tls"


def test_mqtts_with_a_client_certificate(make_mosquitto: Callable[[str], Mosquitto],
                                         tls_files: TlsFiles) -> None:
    base = tls_broker(make_mosquitto, tls_files, client_cert=True) + f"?ca={tls_files.ca}"
    with_cert = base + f"&cert={tls_files.client_cert}&key={tls_files.client_key}"

    async def scenario() -> None:
        async with MqttTransport(with_cert) as client:
            await client.publish("lodam/v3/lobby/oak", b"")
        with pytest.raises(ConnectError, match="cannot connect"):
            await MqttTransport(base).connect()

    run(scenario())


def test_untrusted_broker_and_missing_files_are_clean_errors(
        make_mosquitto: Callable[[str], Mosquitto], tls_files: TlsFiles) -> None:
    url = tls_broker(make_mosquitto, tls_files, client_cert=False)

    async def scenario() -> None:
        with pytest.raises(ConnectError, match="certificate verify failed"):
            await MqttTransport(url).connect()  # the system store does not know our CA
        with pytest.raises(ConnectError, match="cannot load the TLS files"):
            await MqttTransport(url + "?ca=/nonexistent/ca.pem").connect()

    run(scenario())
