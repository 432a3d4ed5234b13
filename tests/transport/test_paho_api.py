"""The part of paho-mqtt that lodam_p2p.transport.mqtt drives, pinned.

The transport runs paho on the event loop through paho's public API for external
event loops. A paho release that renames, drops or reshapes any piece of it must fail
here, by name, rather than as a match that hangs: pyproject.toml states the range of
releases this holds for (``paho-mqtt>=2.1,<3``), and a user's pip install may bring any
release in it.
"""

from __future__ import annotations

import inspect
import socket
from importlib.metadata import version

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion

from lodam_p2p.transport import mqtt
from lodam_p2p.transport.base import Message
from lodam_p2p.transport.url import BrokerUrl
from tests.support.aio import run
from tests.support.brokers import Mosquitto

#: Methods called, with the keyword arguments they are given.
METHODS = {
    "connect": (), "socket": (), "loop_read": (), "loop_write": (), "loop_misc": (),
    "want_write": (), "disconnect": (), "username_pw_set": (), "tls_set_context": (),
    "publish": ("qos", "retain"), "subscribe": ("qos",), "will_set": ("qos", "retain"),
}
#: Callbacks set (each a settable property).
CALLBACKS = ("on_connect", "on_disconnect", "on_message", "on_publish", "on_subscribe",
             "on_socket_close", "on_socket_register_write", "on_socket_unregister_write")


def test_the_installed_paho_is_in_the_supported_range() -> None:
    major, minor = (int(part) for part in version("paho-mqtt").split(".")[:2])
    assert (major, minor) >= (2, 1) and major < 3, version("paho-mqtt")


def test_the_client_takes_the_arguments_given_to_it() -> None:
    client = paho.Client(callback_api_version=CallbackAPIVersion.VERSION2, client_id="",
                         protocol=MQTTProtocolVersion.MQTTv311, clean_session=True,
                         reconnect_on_failure=False)
    client.connect_timeout = 2.5
    assert client.connect_timeout == 2.5
    assert client.socket() is None and not client.want_write()
    assert client.loop_misc() == MQTTErrorCode.MQTT_ERR_NO_CONN


@pytest.mark.parametrize("name", sorted(METHODS))
def test_each_method_driven_is_there_with_its_keywords(name: str) -> None:
    method = getattr(paho.Client, name)
    parameters = inspect.signature(method).parameters
    missing = [keyword for keyword in METHODS[name] if keyword not in parameters]
    assert not missing, f"paho.Client.{name} lost {missing}"


@pytest.mark.parametrize("name", CALLBACKS)
def test_each_callback_is_a_settable_property(name: str) -> None:
    attribute = inspect.getattr_static(paho.Client, name)
    assert isinstance(attribute, property) and attribute.fset is not None, name


def test_paho_asks_the_loop_to_write_and_calls_back_as_the_transport_expects(
        mosquitto: Mosquitto) -> None:
    """A connection made and used through the transport's driver: paho calls the
    version-2 callbacks with the arguments the driver takes (a mismatch would break the
    link), asks for each write through ``on_socket_register_write``, and calls nothing
    on another thread once connected."""
    import asyncio
    import threading

    async def scenario() -> tuple[list[bytes], int, set[int], bool]:
        got: list[bytes] = []
        three = asyncio.Event()

        def take(message: Message) -> None:
            got.append(message.payload)
            if len(got) == 3:
                three.set()

        link = mqtt._Connection(BrokerUrl.parse(mosquitto.url), client_id=None, keepalive=10,
                                will=None, tls_context=None, take=take)
        await link.connect(5.0)
        asks, threads = [0], set()
        driver = link._on_register_write

        def counted(*args: object) -> None:
            asks[0] += 1
            threads.add(threading.get_ident())
            driver(*args)

        link._paho.on_socket_register_write = counted
        await link.subscribe("lodam/v3/test/api", 1)
        for n in range(3):
            await link.publish("lodam/v3/test/api", b"%d" % n, 1, False)
        async with asyncio.timeout(30):  # a safety net only
            await three.wait()
        sock = link._paho.socket()
        nodelay = isinstance(sock, socket.socket) and bool(
            sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        link.disconnect()
        return got, asks[0], threads, nodelay

    got, asks, threads, nodelay = run(scenario())
    assert got == [b"0", b"1", b"2"]
    assert asks >= 4  # the SUBSCRIBE, three PUBLISHes (and PUBACKs)
    assert len(threads) == 1 and nodelay
