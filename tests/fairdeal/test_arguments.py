"""Shuffle arguments as plug-ins: the registry, the name on the wire and in transcripts."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from lodam_p2p.fairdeal import Transcript, sim, verify_transcript
from lodam_p2p.fairdeal import arguments as registry
from lodam_p2p.fairdeal.arguments import (
    TW,
    ShuffleArgument,
    Statement,
    UnknownArgumentError,
    get_argument,
    register_argument,
)
from lodam_p2p.fairdeal.messages import KeyMsg, decode
from lodam_p2p.fairdeal.shuffle import ShuffleSecret
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from tests.fairdeal.table import Table, make_config


class Renamed:
    """Terelius–Wikström under another name: an argument from outside the package."""

    title = "TW, renamed for a test"
    max_size = TW.max_size

    def __init__(self, name: str) -> None:
        self.name = name
        self.proved = 0

    def prove(self, statement: Statement, secret: ShuffleSecret, entropy: Any) -> Any:
        self.proved += 1
        return TW.prove(statement, secret, entropy)

    def verify(self, statement: Statement, proof: Any) -> bool:
        return TW.verify(statement, proof)

    def encode(self, proof: Any) -> bytes:
        return TW.encode(proof)

    def decode(self, data: bytes, n: int) -> Any:
        return TW.decode(data, n)

    def size(self, n: int) -> int:
        return TW.size(n)


#: What an entry point names (``tests.fairdeal.test_arguments:PLUGGED``).
PLUGGED = Renamed("plugged")


def test_the_registry_knows_the_bundled_arguments() -> None:
    assert {"tw", "none"} <= set(registry.argument_names())
    assert get_argument("tw") is TW and isinstance(TW, ShuffleArgument)
    assert get_argument("none").size(52) == 0
    with pytest.raises(UnknownArgumentError, match="unknown shuffle argument 'nope'"):
        get_argument("nope")


def test_an_entry_point_adds_an_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_installed",
                        lambda: {"plugged": "tests.fairdeal.test_arguments:PLUGGED",
                                 "misnamed": "tests.fairdeal.test_arguments:PLUGGED"})
    assert get_argument("plugged") is PLUGGED
    assert "plugged" in registry.argument_names()
    with pytest.raises(UnknownArgumentError, match="calls itself 'plugged'"):
        get_argument("misnamed")
    assert "misnamed" not in registry.argument_names()


def test_a_hand_proves_and_checks_with_its_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    mine = Renamed("renamed")
    monkeypatch.setitem(registry._registered, "renamed", mine)
    table = Table.build(make_config(3, 32, argument="renamed"))
    table.play_through()
    assert not any(table.errors.values()) and mine.proved == 3 + 2  # shuffles, re-masks
    key = decode(table.hands[0].sent_since(0)[0][SIG_LEN + HEADER_LEN:])
    assert isinstance(key, KeyMsg) and key.argument == b"renamed"
    text = Transcript(table.config, tuple(table.hands[0].envelopes())).to_json()
    assert json.loads(text)["argument"] == "renamed"
    verdict = verify_transcript(Transcript.from_json(text))
    assert verdict.sound and "(renamed)" in verdict.summary


def test_the_legacy_arguments_name_nothing_in_their_key() -> None:
    for proofs in (True, False):
        table = Table.build(make_config(3, 32, proofs=proofs))
        key = decode(table.hands[1].sent_since(0)[0][SIG_LEN + HEADER_LEN:])
        assert isinstance(key, KeyMsg) and key.argument == b""


def test_seats_that_disagree_on_the_argument_refuse_each_others_key(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._registered, "renamed", Renamed("renamed"))
    config = make_config(3, 32)
    table = Table.build(config)
    odd = Table.build(replace(config, argument="renamed"))
    table.hands[2] = odd.hands[2]
    table.flush()
    assert {(e.seat, e.check) for e in table.errors[0]} == {(2, "argument")}
    assert {(e.seat, e.check) for e in table.errors[2]} == {(0, "argument")}


def test_an_old_transcript_reads_its_argument_from_proofs() -> None:
    table = Table.build(make_config(3, 32, proofs=False))
    table.play_through()
    obj = json.loads(Transcript(table.config, tuple(table.hands[0].envelopes())).to_json())
    assert (obj["argument"], obj["proofs"]) == ("none", False)
    del obj["argument"]
    old = Transcript.from_json(json.dumps(obj))
    assert old.config.argument == "none" and verify_transcript(old).sound
    obj["argument"] = "tw"
    with pytest.raises(ValueError, match="disagree"):
        Transcript.from_json(json.dumps(obj))
    obj["argument"], obj["proofs"] = "nope", True
    with pytest.raises(ValueError, match="unknown shuffle argument"):
        Transcript.from_json(json.dumps(obj))


def test_a_deck_whose_shuffle_cannot_fit_one_body_is_refused() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        Table.build(make_config(4, 104, hand_size=5))
    Table.build(make_config(4, 104, hand_size=5, proofs=False)).flush()


def test_register_refuses_what_is_no_argument() -> None:
    with pytest.raises(TypeError):
        register_argument(object())  # type: ignore[arg-type]


def test_tw_proves_a_deck_beyond_52_cards_as_far_as_one_body_carries() -> None:
    config, keys = sim.table(2, 70, hand_size=30)
    table = sim.Sim(config, keys)
    table.deal()
    table.finish()
    assert not table.convictions and verify_transcript(table.transcript()).sound
    with pytest.raises(ValueError, match="71-card shuffle proven with 'tw' does not fit"):
        sim.Sim(*sim.table(2, 71))
