"""Attacks on the deck, the re-masks and the transfers: stopped before the next card
only by proofs.

Without zero-knowledge proofs of shuffle (and of re-mask and key switch), a replaced
deck, a shuffle that drops or copies a card, is found by the size and distinctness
checks or only at the audit, after the cards were played. These tests ask for the stronger promise:
the attacker learns nothing and every honest seat names it, alone and in the same words.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.adversary.support import assert_convicted, assert_out_before_a_card, play_against
from tests.support.brokers import Mosquitto

pytestmark = pytest.mark.slow

NODELAY = "set_tcp_nodelay true"


@pytest.mark.parametrize("kind", ["shuffle-drop", "shuffle-duplicate", "deck-replace"])
def test_a_false_shuffle_is_refused_before_a_card_is_dealt(
        kind: str, make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    played = play_against(kind, make_mosquitto(NODELAY), tmp_path)
    assert_convicted(played)
    assert_out_before_a_card(played)
    # a dropped card leaves the proof the wrong size for the deck (malformed); a
    # duplicate fails the proof itself (shuffle): either way a signed message that
    # fails a public check, before any share is released
    assert played.honest[0]["blames"][0].split(": ")[1] in {"shuffle", "malformed"}, played.logs


def test_a_remask_of_another_seats_card_is_refused_on_arrival(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """The re-mask is proven before anything rests on it, and nobody ever sends a share
    for a re-mask: nothing to read."""
    played = play_against("remask-steal", make_mosquitto(NODELAY), tmp_path, lives=2)
    assert_convicted(played)
    assert played.honest[0]["blames"][0].split(": ")[1].startswith("remask"), played.logs


def test_a_transfer_of_a_forged_card_is_refused_on_arrival(
        make_mosquitto: Callable[[str], Mosquitto], tmp_path: Path) -> None:
    """A transfer is the giver's own re-encryption: set off, the receiver would read a
    card of the giver's choosing. Its key-switch proof is public, so every seat refuses
    it as it comes, not only the receiver, and not only at the audit."""
    played = play_against("forged-transfer", make_mosquitto(NODELAY), tmp_path, lives=2)
    assert_convicted(played)
    blame = played.honest[0]["blames"][0]
    assert blame.split(": ")[1].startswith("transfer"), played.logs
    assert "key-switch proof" in blame, played.logs
