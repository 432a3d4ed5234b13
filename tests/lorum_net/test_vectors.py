"""The Lorum hand vectors in protocol/vectors/: reproduced by their generator, sound for
``lodam verify``, and each part checkable from the recorded values alone (SPEC.md 14)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from lodam_p2p.cli import main
from lodam_p2p.fairdeal import Transcript, verify_transcript
from lodam_p2p.games import WireAction
from lodam_p2p.games.lorum.cards import Card
from lodam_p2p.session.wire import Body, Msg
from tests.lorum_net.helpers import LORUM

ROOT = Path(__file__).resolve().parents[2] / "protocol"
STEMS = ["lorum_quartet_4seats", "lorum_rows_3seats"]


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_lorum_vectors",
                                                  ROOT / "gen_lorum_vectors.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load(name: str) -> Any:
    return json.loads((ROOT / "vectors" / name).read_text(encoding="utf-8"))


def test_the_generator_reproduces_every_lorum_file() -> None:
    gen = _generator()
    built = gen.build_all()
    assert sorted(built) == sorted([f"{s}.json" for s in STEMS]
                                   + [f"{s}.transcript.json" for s in STEMS])
    for name, content in built.items():
        assert (ROOT / "vectors" / name).read_text(encoding="utf-8") == gen.render(content), name


@pytest.mark.parametrize("stem", STEMS)
def test_lodam_verify_finds_each_transcript_sound(stem: str, capsys: Any) -> None:
    path = ROOT / "vectors" / f"{stem}.transcript.json"
    assert main(["verify", str(path)]) == 0
    assert "audit passed" in capsys.readouterr().out
    assert verify_transcript(Transcript.from_json(path.read_text())).summary == \
        _load(f"{stem}.json")["verdict"]


@pytest.mark.parametrize("stem", STEMS)
def test_a_changed_envelope_is_not_sound(stem: str, tmp_path: Path) -> None:
    obj = _load(f"{stem}.transcript.json")
    seat, raw = obj["envelopes"][5]
    flipped = bytes.fromhex(raw)
    obj["envelopes"][5] = [seat, (flipped[:-1] + bytes([flipped[-1] ^ 1])).hex()]
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(obj))
    assert main(["verify", str(path)]) == 1


@pytest.mark.parametrize("stem", STEMS)
def test_the_moves_replay_to_the_recorded_points(stem: str) -> None:
    vector = _load(f"{stem}.json")
    pack = [Card.parse(c) for c in vector["pack"]]
    deck = [pack[i] for i in vector["deal"]]
    # the cards the audit opened, seat by seat, in dealt order
    positions = {s: [p for p, owner in enumerate(vector["config"]["schedule"]) if owner == s]
                 for s in range(vector["seats"])}
    assert {str(s): [str(deck[p]) for p in ps] for s, ps in positions.items()} == \
        vector["hands"]
    # the MOVE bodies, in each seat's order, are the moves as taken
    sent = [Body.decode(bytes.fromhex(raw)) for _seat, raw in vector["bodies"]]
    moves = [[seat, *body.args] for (seat, _), body in zip(vector["bodies"], sent,
                                                            strict=True)
             if body.kind is Msg.MOVE]
    assert sorted(map(repr, moves)) == sorted(map(repr, vector["moves"]))
    notes = [body for body in sent if body.kind is Msg.NOTES]
    assert len(notes) == vector["seats"] and {b.step for b in notes} == {len(moves)}
    # the engine replays the moves over the opened deck to the recorded points
    options = LORUM.parse_options(vector["options"])
    match = LORUM.start_match(options, vector["seats"], vector["dealer"])
    actions = [LORUM.decode_action(seat, WireAction(kind, tuple(args),
                                                    None if pos is None else deck[pos]))
               for seat, kind, args, pos in vector["moves"]]
    replayed = LORUM.replay(match, deck, actions)
    assert replayed.error is None and replayed.deal.is_over
    assert list(LORUM.finish_deal(match, replayed.deal).points) == vector["points"]
