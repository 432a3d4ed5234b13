"""The red team's kinds below the session — floods, oversized and foreign frames —
against honest seats with links and runners over the in-memory hub: each is mounted,
wins nothing, no honest seat is blamed, every honest seat ends with the same result, and
a flood costs an honest seat a bounded amount (see :mod:`tests.adversary.memory`)."""

from __future__ import annotations

import asyncio

import pytest

from lodam_p2p.redteam.attacks import ATTACKS
from lodam_p2p.redteam.attacks.floods import EarlyFrameFlood, ResendFlood
from tests.adversary.memory import assert_linked_held, play_linked

#: What an honest seat may publish over a whole short match under a flood of resend
#: requests: a quiet match costs it some 200 kB, and the flood asks for its whole stream
#: hundreds of times (tens of MB if every request were answered).
RESEND_BUDGET = 2_000_000


@pytest.mark.parametrize("game", ["lodam", "lorum"])
def test_a_flood_of_resend_requests_costs_each_seat_a_bounded_amount(game: str) -> None:
    attack = ResendFlood()
    attack.REQUESTS = 300
    played = asyncio.run(play_linked(attack, game=game))
    assert_linked_held(played)
    sent = [session.link.bytes_sent for session in played.sessions]
    assert max(sent) < RESEND_BUDGET, sent


def test_frames_far_ahead_and_from_strangers_in_the_lobby_stop_nobody() -> None:
    attack = EarlyFrameFlood()
    attack.KEYS, attack.FRAMES, attack.SIZE, attack.AHEAD = 16, 4, 20_000, 64
    assert_linked_held(asyncio.run(play_linked(attack)))


@pytest.mark.parametrize("kind", ["oversized-frame", "foreign-resend"])
def test_frames_that_fail_their_checks_stop_nobody(kind: str) -> None:
    assert_linked_held(asyncio.run(play_linked(ATTACKS[kind]())))


def test_without_a_link_a_flood_says_why_it_was_not_mounted() -> None:
    from tests.adversary.memory import play_against

    played = play_against("resend-flood")
    report = played.cheat.report()
    assert not report["attempted"] and "no network link" in str(report["reason"])
