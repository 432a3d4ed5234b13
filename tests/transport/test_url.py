"""Broker URLs: what parses, what is refused, and how they print."""

from __future__ import annotations

import pytest

from lodam_p2p.transport.url import BadBrokerUrl, BrokerUrl


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mqtt://localhost", BrokerUrl("mqtt", "localhost", 1883)),
        ("mqtt://10.0.0.7:1999", BrokerUrl("mqtt", "10.0.0.7", 1999)),
        ("mqtts://broker.lan", BrokerUrl("mqtts", "broker.lan", 8883)),
        ("mqtt://ann:pw@h:2", BrokerUrl("mqtt", "h", 2, "ann", "pw")),
        ("mqtt://ann@h", BrokerUrl("mqtt", "h", 1883, "ann")),
        ("mqtt://a%40b:p%3Aw@h/", BrokerUrl("mqtt", "h", 1883, "a@b", "p:w")),
        ("mqtt://[::1]:1884", BrokerUrl("mqtt", "::1", 1884)),
        ("  mqtt://h:1  ", BrokerUrl("mqtt", "h", 1)),
        ("mqtts://h?ca=/etc/ca.pem", BrokerUrl("mqtts", "h", 8883, ca_file="/etc/ca.pem")),
        ("mqtts://h:1?ca=c.pem&cert=me.pem&key=me.key",
         BrokerUrl("mqtts", "h", 1, ca_file="c.pem", cert_file="me.pem", key_file="me.key")),
    ],
)
def test_good_urls_parse(text: str, expected: BrokerUrl) -> None:
    assert BrokerUrl.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "scheme"),
        ("localhost:1883", "scheme"),
        ("http://h", "scheme"),
        ("mqtt://", "no host"),
        ("mqtt://:1883", "no host"),
        ("mqtt://h:notaport", "bad broker URL"),
        ("mqtt://h:70000", "bad broker URL"),
        ("mqtt://h:0", "port 0"),
        ("mqtt://h/some/path", "path"),
        ("mqtt://h#frag", "fragment"),
        ("mqtt://:pw@h", "password needs a user name"),
        ("mqtt://h?ca=x.pem", "need mqtts"),
        ("mqtts://h?cafile=x.pem", "unknown option"),
        ("mqtts://h?ca=", "empty or repeated"),
        ("mqtts://h?ca=a&ca=b", "empty or repeated"),
        ("mqtts://h?cert=me.pem", "go together"),
        ("mqtts://h?junk", "malformed query"),
    ],
)
def test_bad_urls_say_why(text: str, reason: str) -> None:
    with pytest.raises(BadBrokerUrl, match=reason):
        BrokerUrl.parse(text)


@pytest.mark.parametrize(
    "text",
    ["mqtt://h:1883", "mqtt://ann:p%40ss@h:1", "mqtt://[::1]:7",
     "mqtts://h:8883?ca=%2Ftmp%2Fca%20x.pem&cert=c&key=k"],
)
def test_str_round_trips(text: str) -> None:
    url = BrokerUrl.parse(text)
    assert BrokerUrl.parse(str(url)) == url


def test_redacted_hides_only_the_password() -> None:
    url = BrokerUrl.parse("mqtt://ann:secret@h:1")
    assert url.redacted() == "mqtt://ann:***@h:1"
    assert str(url.without_login()) == "mqtt://h:1"
    assert BrokerUrl.parse("mqtt://h").redacted() == "mqtt://h:1883"
