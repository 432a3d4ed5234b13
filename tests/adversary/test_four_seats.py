"""The red team's new kinds over a real broker, every seat its own process, four seats:
``lodam host`` with a random bot, two ``lodam bot random`` and ``lodam adversary KIND``
(see :func:`tests.adversary.support.play_four`). The attack is mounted and wins nothing,
the honest seats agree, and they name no honest seat."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.adversary.support import assert_held, play_four
from tests.support.brokers import Mosquitto

pytestmark = pytest.mark.slow

NODELAY = "set_tcp_nodelay true"
#: A short Lorum: one contract, four deals.
SHORT_LORUM = ("contracts=red_king",)


@pytest.mark.parametrize(("kind", "game", "early"), [
    ("rejoin-mulligan", "lodam", False),
    ("resend-flood", "lodam", False),
    ("resume-same-hand", "lodam", True),
    ("lone-timeout-vote", "lorum", False),
    ("early-frame-flood", "lorum", False),
    ("leave-while-leading", "lorum", False),
])
def test_the_table_holds_with_every_seat_a_process(
        kind: str, game: str, early: bool, make_mosquitto: Callable[[str], Mosquitto],
        tmp_path: Path) -> None:
    options = ("lives=1",) if game == "lodam" else SHORT_LORUM
    played = play_four(kind, make_mosquitto(NODELAY), tmp_path, game=game, options=options,
                       early=early)
    assert_held(played)
    assert played.adversary["seat"] == (1 if early else 3), played.logs
