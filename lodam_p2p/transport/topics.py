"""Topic names of the wire (DESIGN section 4), and the names that go into them.

::

    lodam/v3/lobby/<table>/<print>          one announcer's retained, signed table
                                            announcement (lobby.py)
    lodam/v3/t/<table>/p/<peer>             everything <peer> says at <table>
    lodam/v3/t/<table>/p/+                  what every peer at <table> subscribes to
    lodam/v3/t/<table>/p/<peer>/to/<asker>  <peer>'s answers to <asker>'s resend
                                            requests, read by <asker> alone
    lodam/v3/t/<table>/p/+/to/<asker>       what <asker> subscribes to for its answers
    lodam/v3/t/<table>/presence/<peer>      retained presence, and the Last Will
    lodam/v3/probe/<nonce>                  a lobby reader's echo (lobby.read_lobby)

Each peer publishes only on its own ``p/<peer>`` topic and the answer topics under it,
so per-publisher order is the only order the protocol needs and a broker ACL can pin a
client to ``p/<peer>/#``. A resend answer goes to the one peer that asked (it carries the
frame as first published, so it is checked like any other): a peer asking again and
again spends its own link and the answering peer's budget, never the other peers'
readers (protocol/SPEC.md, "Limits").

Table and peer names become single topic levels (and a table name also becomes a
DNS-SD instance name), so they are checked here once: printable, no ``/``, ``+`` or
``#``, not starting with ``$`` (reserved by brokers), no surrounding blanks, and short
(:data:`MAX_NAME_CHARS` characters, :data:`MAX_NAME_BYTES` bytes of UTF-8).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum

#: Protocol version: the second topic level and the ``v`` of every announcement, so that
#: peers of different versions never meet at a table (3: held cards under their holder's
#: key, transfers that switch keys, re-masks nobody answers; the fair-deal envelopes say
#: 3 as well).
PROTOCOL_VERSION = 3
#: Root of every topic this version uses.
ROOT = f"lodam/v{PROTOCOL_VERSION}"
#: Longest table or peer name, in characters.
MAX_NAME_CHARS = 40
#: Longest table or peer name, in bytes of UTF-8 (DNS labels stop at 63).
MAX_NAME_BYTES = 60

_FORBIDDEN = frozenset("/+#")


class BadName(ValueError):
    """A table or peer name that cannot be a topic level, or a topic not of ours."""


def check_name(name: str, what: str = "name") -> str:
    """Return ``name`` if it may be a table or peer name, else raise :class:`BadName`.

    ``what`` ("table", "peer") only words the error message.
    """
    problem = _name_problem(name)
    if problem is not None:
        raise BadName(f"bad {what} name {name!r}: {problem}")
    return name


@functools.lru_cache(maxsize=1024)
def _name_problem(name: str) -> str | None:
    """Why ``name`` is not acceptable, or None (remembered: every received message's
    topic names its table and peer, the same few names over and over)."""
    if not name:
        return "empty"
    if len(name) > MAX_NAME_CHARS or len(name.encode()) > MAX_NAME_BYTES:
        return f"longer than {MAX_NAME_CHARS} characters or {MAX_NAME_BYTES} bytes"
    if _FORBIDDEN & set(name):
        return "contains '/', '+' or '#'"
    if name.startswith("$"):
        return "starts with '$'"
    if not name.isprintable():
        return "contains control characters"
    if name != name.strip():
        return "has leading or trailing blanks"
    return None


def is_valid_name(name: str) -> bool:
    """Whether :func:`check_name` would accept ``name``."""
    return _name_problem(name) is None


def peer_topic(table: str, peer: str) -> str:
    """The topic ``peer`` publishes on at ``table``."""
    return f"{ROOT}/t/{check_name(table, 'table')}/p/{check_name(peer, 'peer')}"


def table_peers_pattern(table: str) -> str:
    """The filter matching every peer's topic at ``table``."""
    return f"{ROOT}/t/{check_name(table, 'table')}/p/+"


def answer_topic(table: str, peer: str, asker: str) -> str:
    """The topic ``peer`` publishes its answers to ``asker``'s resend requests on."""
    return f"{peer_topic(table, peer)}/to/{check_name(asker, 'peer')}"


def table_answers_pattern(table: str, asker: str) -> str:
    """The filter matching every peer's answers to ``asker`` at ``table``."""
    return f"{ROOT}/t/{check_name(table, 'table')}/p/+/to/{check_name(asker, 'peer')}"


def presence_topic(table: str, peer: str) -> str:
    """The retained presence (and Last Will) topic of ``peer`` at ``table``."""
    return f"{ROOT}/t/{check_name(table, 'table')}/presence/{check_name(peer, 'peer')}"


def table_presence_pattern(table: str) -> str:
    """The filter matching every presence at ``table``."""
    return f"{ROOT}/t/{check_name(table, 'table')}/presence/+"


def lobby_topic(table: str) -> str:
    """The filter matching every announcement of ``table``: each announcer of the name
    has a retained topic of its own (:func:`announcement_topic`)."""
    return f"{ROOT}/lobby/{check_name(table, 'table')}/+"


def announcement_topic(table: str, print_: str) -> str:
    """The retained topic of one announcer of ``table``, named by ``print_`` (the
    head of its key's fingerprint, :mod:`.lobby`)."""
    if not _is_print(print_):
        raise BadName(f"bad announcer print {print_[:40]!r}")
    return f"{ROOT}/lobby/{check_name(table, 'table')}/{print_}"


def _is_print(text: str) -> bool:
    return 0 < len(text) <= 64 and all(c in "0123456789abcdef" for c in text)


#: The filter matching every table announcement on a broker.
LOBBY_PATTERN = f"{ROOT}/lobby/+/+"


class TopicKind(Enum):
    """What a received topic is."""

    #: ``lodam/v3/t/<table>/p/<peer>`` and ``lodam/v3/t/<table>/p/<peer>/to/<asker>``
    PEER = "p"
    #: ``lodam/v3/t/<table>/presence/<peer>``
    PRESENCE = "presence"
    #: ``lodam/v3/lobby/<table>/<print>``
    LOBBY = "lobby"


@dataclass(frozen=True, slots=True)
class ParsedTopic:
    """A topic of ours, taken apart. ``peer`` is the announcer's print for lobby
    topics; ``to`` the asker an answer topic is meant for (None on every other)."""

    kind: TopicKind
    table: str
    peer: str | None = None
    to: str | None = None


def parse_topic(topic: str) -> ParsedTopic:
    """Take a received topic apart; raise :class:`BadName` if it is not one of ours."""
    levels = topic.split("/")
    if levels[:2] != ROOT.split("/"):
        raise BadName(f"not a {ROOT} topic: {topic!r}")
    rest = levels[2:]
    if len(rest) == 3 and rest[0] == "lobby" and is_valid_name(rest[1]) and _is_print(rest[2]):
        return ParsedTopic(TopicKind.LOBBY, rest[1], rest[2])
    if len(rest) == 4 and rest[0] == "t" and rest[2] in ("p", "presence"):
        table, peer = rest[1], rest[3]
        if is_valid_name(table) and is_valid_name(peer):
            return ParsedTopic(TopicKind(rest[2]), table, peer)
    if (len(rest) == 6 and rest[0] == "t" and rest[2] == "p" and rest[4] == "to"
            and all(is_valid_name(name) for name in (rest[1], rest[3], rest[5]))):
        return ParsedTopic(TopicKind.PEER, rest[1], rest[3], rest[5])
    raise BadName(f"unknown topic: {topic!r}")


def stream_of(topic: str) -> tuple[str, str] | None:
    """The peer whose stream ``topic`` carries (its own topic, or one of its answer
    topics) and that stream's own topic; None for any other topic, ours or not."""
    try:
        parsed = parse_topic(topic)
    except BadName:
        return None
    if parsed.kind is not TopicKind.PEER or parsed.peer is None:
        return None
    return parsed.peer, peer_topic(parsed.table, parsed.peer)
