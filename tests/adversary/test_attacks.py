"""Each attack ``lodam adversary`` mounts, against honest seats in separate processes.

The attacker is convicted on evidence every honest seat checks for itself: both honest
results name its seat, alone and in the same words, it learned nothing, and the honest
seats play the match to its end.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.adversary.support import assert_convicted, assert_out_before_a_card, play_against
from tests.support.brokers import Mosquitto

pytestmark = pytest.mark.slow

NODELAY = "set_tcp_nodelay true"


#: Attacks mounted before the deal, and so refused before any card is played.
_BEFORE_THE_DEAL = {"bad-key-proof", "bad-share-proof", "equivocation", "replay-other-table",
                    "stall", "shuffle-commitment-mismatch"}


def _first_check(played_blames: list[str]) -> str:
    return played_blames[0].split(": ")[1]


@pytest.mark.parametrize(("kind", "check"), [
    ("void-anyone", "false-claim"),
    ("early-audit-open", "early-audit"),
    ("slow-human", "timeout"),
    ("stall", "timeout"),
    ("withheld-audit-opening", "timeout"),
    ("equivocation", "equivocation"),
    ("replay-other-table", "replay"),
    ("bad-key-proof", "key-proof"),
    ("bad-share-proof", "share-proof"),
    # the proof of shuffle is bound to its commitment: a swapped one fails on arrival
    ("shuffle-commitment-mismatch", "shuffle"),
    ("false-exchange-claim", "false-exchange-kind"),
    ("revoke", "revoke"),
])
def test_the_attacker_is_named_by_every_honest_seat(
        kind: str, check: str, make_mosquitto: Callable[[str], Mosquitto],
        tmp_path: Path) -> None:
    played = play_against(kind, make_mosquitto(NODELAY), tmp_path)
    assert_convicted(played)
    if kind in _BEFORE_THE_DEAL:
        assert_out_before_a_card(played)
    assert _first_check(played.honest[0]["blames"]) == check, played.logs


def test_an_envelope_of_an_earlier_hand_convicts_its_signer(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """Two lives each, so that a second hand comes for the replay."""
    played = play_against("replay-other-hand", make_mosquitto(NODELAY), tmp_path, lives=2)
    assert_convicted(played)
    assert _first_check(played.honest[0]["blames"]) == "replay", played.logs


def test_predictable_seeds_give_nothing_away(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """The honest seats run with ``--seed 3``: their secrets must not follow from it."""
    played = play_against("predictable-seed", make_mosquitto(NODELAY), tmp_path, seed="3")
    assert played.adversary["attempted"], played.logs
    assert played.adversary["learned"] == [], played.logs
    assert [r["blames"] for r in played.honest] == [[], []], played.logs
    assert all(r["winners"] for r in played.honest), played.logs


def test_a_card_revealed_outside_its_play_convicts_the_revealer(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """After an exchange the attacker can read the card it handed over (or was shown);
    revealing it is refused before anyone decrypts it. Two lives: time for an exchange."""
    played = play_against("reveal-held-card", make_mosquitto(NODELAY), tmp_path, lives=2)
    assert_convicted(played)
    assert _first_check(played.honest[0]["blames"]) == "false-reveal", played.logs
