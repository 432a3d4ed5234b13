"""The golden vectors in protocol/vectors/: reproduced by the generator, and each step
checkable on its own from the recorded values (as another implementation would)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from coincurve import PublicKey
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from lodam_p2p.fairdeal import Transcript, verify_transcript
from lodam_p2p.fairdeal.group import ORDER, base_mul, hash_to_scalar, mul, parse_point
from lodam_p2p.fairdeal.proofs import Context, Proof, challenge, verify_dleq, verify_key
from lodam_p2p.fairdeal.shuffleproof import Statement, decode_proof, verify_shuffle

ROOT = Path(__file__).resolve().parents[2] / "protocol"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_vectors", ROOT / "gen_vectors.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load(name: str) -> Any:
    return json.loads((ROOT / "vectors" / name).read_text(encoding="utf-8"))


def _ctx(obj: dict[str, Any]) -> Context:
    ctx = Context(bytes.fromhex(obj["table_id"]), obj["hand"], obj["seat"])
    assert ctx.encode().hex() == obj["encoded"]
    return ctx


def _s(hexed: str) -> int:
    return int(hexed, 16)


def _p(hexed: str) -> PublicKey:
    return parse_point(bytes.fromhex(hexed))


def test_generator_reproduces_every_file() -> None:
    gen = _generator()
    for name, content in gen.build_all().items():
        assert (ROOT / "vectors" / name).read_text(encoding="utf-8") == gen.render(content), name


@pytest.mark.parametrize("deck", [32, 52])
def test_card_points_follow_try_and_increment(deck: int) -> None:
    for card, hexed in enumerate(_load("card_points.json")[str(deck)]):
        for counter in range(256):
            x = hashlib.sha256(b"lodam/v1/card\x00" + bytes([deck, card, counter])).digest()
            try:
                point = PublicKey(b"\x02" + x)
            except ValueError:
                continue
            assert point.format().hex() == hexed
            break


def test_schnorr_vector_step_by_step() -> None:
    v = _load("proofs.json")["schnorr"]
    ctx, x, k, c, s = _ctx(v["context"]), _s(v["x"]), _s(v["k"]), _s(v["c"]), _s(v["s"])
    assert base_mul(x).format().hex() == v["X"] and base_mul(k).format().hex() == v["R"]
    assert c == challenge(b"key", ctx, bytes.fromhex(v["X"]), bytes.fromhex(v["R"]))
    assert s == (k + c * x) % ORDER
    assert verify_key(ctx, _p(v["X"]), Proof(c, s))
    assert not verify_key(Context(ctx.table_id, ctx.hand + 1, ctx.seat), _p(v["X"]), Proof(c, s))


def test_dleq_vector_step_by_step() -> None:
    v = _load("proofs.json")["dleq"]
    ctx, x, k, c, s = _ctx(v["context"]), _s(v["x"]), _s(v["k"]), _s(v["c"]), _s(v["s"])
    a = _p(v["A"])
    assert mul(a, x).format().hex() == v["D"] and mul(a, k).format().hex() == v["R2"]
    inputs = [bytes.fromhex(v[f]) for f in ("extra", "X", "A", "D", "R1", "R2")]
    assert c == challenge(b"share", ctx, *inputs)
    assert s == (k + c * x) % ORDER
    ok = verify_dleq(b"share", ctx, big_x=_p(v["X"]), a=a, d=_p(v["D"]),
                     extra=bytes.fromhex(v["extra"]), proof=Proof(c, s))
    assert ok


def test_batch_weights_vector() -> None:
    v = _load("proofs.json")["deal_batch"]
    ctx = _ctx(v["context"])
    h = hashlib.sha256(b"lodam/v1/deal-weights\x00" + ctx.encode() + bytes.fromhex(v["X"]))
    for e in v["entries"]:
        h.update(e["position"].to_bytes(2, "big") + bytes.fromhex(e["A"]) + bytes.fromhex(e["D"]))
    assert h.hexdigest() == v["seed"]
    for i, z in enumerate(v["weights"]):
        digest = hashlib.sha256(h.digest() + i.to_bytes(2, "big")).digest()
        assert (int.from_bytes(digest[:16], "big") or 1) == _s(z) < 2**128


def test_envelope_vector_layout() -> None:
    v = _load("envelope.json")
    raw = bytes.fromhex(v["envelope"])
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(v["public_key"])).verify(raw[:64], raw[64:])
    header = b"LDM\x03" + bytes.fromhex(v["table_id"]) + v["hand"].to_bytes(4, "big")
    header += bytes([v["seat"]]) + v["seq"].to_bytes(4, "big") + bytes.fromhex(v["prev"])
    assert raw[64:] == header + bytes.fromhex(v["body"])


def test_hand_vector_transcript_verifies_to_the_recorded_deal() -> None:
    v = _load("hand_3seats_32cards.json")
    transcript = Transcript.from_json(json.dumps(v["config"]))
    envelopes = tuple((seat, bytes.fromhex(raw)) for seat, raw in v["envelopes"])
    verdict = verify_transcript(Transcript(transcript.config, envelopes))
    assert verdict.sound and list(verdict.deal or ()) == v["deal"]
    masked = {int(p): c for p, c in v["masked"].items()}
    # two re-masks of nine positions each, and the four positions the transfers made
    assert dict(verdict.masked or {}) == masked and len(masked) == 22
    every = dict(enumerate(v["deal"])) | masked
    for seat, secrets in v["seat_secrets"].items():
        assert base_mul(_s(secrets["x"])).format().hex() == secrets["X"]
        assert {int(p): c for p, c in secrets["cards"].items()} == {
            p: every[p] for p in map(int, secrets["cards"])
        }, seat


def test_remask_vector_step_by_step() -> None:
    """The stream, π (Fisher–Yates on 2-byte draws), r, salt, commitment, ciphertexts."""
    v = _load("remask.json")
    ctx, seed = _ctx(v["context"]), bytes.fromhex(v["seed"])
    prefix = b"lodam/v1/remask-prg\x00" + seed + v["round"].to_bytes(2, "big")
    stream = b"".join(hashlib.sha256(prefix + i.to_bytes(4, "big")).digest() for i in range(2))
    assert stream.hex() == v["prg_first_64_bytes"]
    k = len(v["inputs"])
    h = hashlib.sha256(b"lodam/v1/remask\x00" + ctx.encode() + bytes([k]))
    h.update(bytes(v["permutation"]) + b"".join(bytes.fromhex(r) for r in v["randomness"]))
    h.update(bytes.fromhex(v["salt"]))
    assert h.hexdigest() == v["commitment"]
    keys = [_p(x) for x in v["hand_keys"]]
    joint = _p(v["joint_key"])
    assert joint == PublicKey.combine_keys(keys)
    # each input is held under seat 2's key alone: its deck ciphertext less the deal
    # shares x_c·A of seats 0 and 1
    for j, ((a, b), (a_held, b_held)) in enumerate(zip(v["deck_ciphertexts"],
                                                       v["input_ciphertexts"], strict=True)):
        shares = [v["deal_shares"][str(c)][j] for c in (0, 1)]
        for c, d in zip((0, 1), shares, strict=True):
            assert _p(d) == mul(_p(a), hash_to_scalar(b"vector key " + bytes([c])))
        assert a_held == a
        assert _p(b) == PublicKey.combine_keys([_p(b_held), *map(_p, shares)])
    key = keys[2]
    for i, (a_new, b_new) in enumerate(v["output_ciphertexts"]):
        a_old, b_old = v["input_ciphertexts"][v["permutation"][i]]
        r = _s(v["randomness"][i])
        assert _p(a_new) == PublicKey.combine_keys([_p(a_old), base_mul(r)])
        assert _p(b_new) == PublicKey.combine_keys([_p(b_old), mul(key, r)])
    # seat index 2 of 3, round 1, 32 cards: 32 + (1·3 + 2)·32
    assert v["outputs"] == list(range(192, 192 + k))
    # and the proof shows it under seat 2's key, not under the joint key
    pair = [tuple(_p(x) for x in c) for c in v["input_ciphertexts"]]
    st = Statement(b"remask", ctx, key, tuple(pair),
                   tuple(tuple(_p(x) for x in c) for c in v["output_ciphertexts"]),
                   bytes.fromhex(v["proof_extra"]))
    proof = decode_proof(bytes.fromhex(v["proof"]), k)
    assert verify_shuffle(st, proof)
    assert not verify_shuffle(replace(st, joint=joint), proof)


def test_transfer_vector_step_by_step() -> None:
    """The key switch: ρ, the new ciphertext, the nonces, R1–R3, c, s, u."""
    v = _load("transfer.json")
    ctx = _ctx(v["context_from"])
    x, x_to, rho = _s(v["x_from"]), _s(v["x_to"]), _s(v["rho"])
    giver, receiver = base_mul(x), base_mul(x_to)
    assert giver.format().hex() == v["X_from"] and receiver.format().hex() == v["X_to"]
    alpha, beta = (_p(h) for h in v["held"])
    share = _p(v["share"])
    assert share == mul(alpha, x)
    card = PublicKey.combine_keys([beta, mul(share, ORDER - 1)])  # β − D
    assert card.format() == parse_point(bytes.fromhex(
        _load("card_points.json")["52"][v["card_index"]])).format()
    alpha2, beta2 = (_p(h) for h in v["new"])
    assert alpha2 == base_mul(rho)
    assert beta2 == PublicKey.combine_keys([card, mul(receiver, rho)])
    k, q = _s(v["nonce_k"]), _s(v["nonce_q"])
    r3 = PublicKey.combine_keys([mul(receiver, q), mul(alpha, ORDER - k)])
    assert [p.format().hex() for p in (base_mul(k), base_mul(q), r3)] == [
        v["R1"], v["R2"], v["R3"]]
    statement = v["position"].to_bytes(2, "big") + bytes([v["to"]])
    points = [bytes.fromhex(h) for h in (v["X_from"], v["X_to"], *v["held"], *v["new"],
                                         v["R1"], v["R2"], v["R3"])]
    c = challenge(b"switch", ctx, statement, *points)
    assert c == _s(v["c"])
    assert _s(v["s"]) == (k + c * x) % ORDER and _s(v["u"]) == (q + c * rho) % ORDER
    assert v["encoded"] == v["c"] + v["s"] + v["u"]
    # the receiver reads the card: β' − x_to·α'
    read = PublicKey.combine_keys([beta2, mul(alpha2, ORDER - x_to)])
    assert read.format() == card.format()
