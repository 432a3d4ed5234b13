"""The table's time limit: set by the host in START, shown in the announcement, one for all."""

from __future__ import annotations

from lodam_p2p.games.lodam import Options
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.lobby import HostDesk, Roster
from lodam_p2p.session.wire import Body, peer_name, raw_public


def _desk(limit: float) -> HostDesk:
    desk = HostDesk("oak", "phost", 3, Options(), limit_s=limit)
    for place, kind in enumerate(["bot:random", "human", "bot:random"]):
        key = raw_public(new_identity(seeded(1, place)))
        assert desk.join(peer_name(key), key, f"p{place}", kind)
    return desk


def test_start_carries_the_limit_and_every_seat_reads_the_same() -> None:
    body = Body.decode(_desk(7.5).start_body(bytes(16)).encode())
    roster = Roster.from_start(body)
    assert roster.limit_s == 7.5
    assert [s.kind for s in roster.sitters] == ["bot:random", "human", "bot:random"]


def test_the_announcement_shows_the_limit() -> None:
    assert ("time_limit_s", "12") in _desk(12).announcement().options
