"""``lodam verify`` exit statuses and ``lodam bench deal`` output shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lodam_p2p.cli import main
from lodam_p2p.fairdeal import Transcript
from lodam_p2p.fairdeal.messages import AuditMsg, decode
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from tests.fairdeal import cheats
from tests.fairdeal.table import Table, make_config


def _write(tmp_path: Path, table: Table) -> Path:
    path = tmp_path / "hand.json"
    envelopes = {raw: s for h in table.hands.values() for s, raw in h.envelopes()}
    path.write_text(Transcript(table.config, tuple((s, r) for r, s in envelopes.items())).to_json())
    return path


def test_verify_sound_transcript(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = Table.build(make_config(3, 32))
    table.play_through()
    assert main(["verify", str(_write(tmp_path, table))]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "sound" in out[0]


def test_verify_names_the_guilty_seat(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = Table.build(make_config(3, 32),
                        cheaters={1: cheats.tampering(AuditMsg, cheats.wrong_audit_key)})
    table.play_through()
    path = _write(tmp_path, table)
    assert main(["verify", str(path)]) == 1
    assert "seat 1 failed audit-key" in capsys.readouterr().out
    assert main(["verify", "--json", str(path)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["sound"], verdict["seat"], verdict["check"]) == (False, 1, "audit-key")
    # the evidence is seat 1's signed opening itself
    evidence = bytes.fromhex(verdict["evidence"])
    assert evidence in table.hands[1].sent_since(0)
    assert isinstance(decode(evidence[SIG_LEN + HEADER_LEN:]), AuditMsg)


@pytest.mark.parametrize("text", ["", "{}", "[1, 2]", '{"format": "lodam-fairdeal-transcript"}',
                                  "\x00\x01 not json",
                                  '{"format": "lodam-fairdeal-transcript", "version": 3, '
                                  '"table_id": "00", "hand": true}',
                                  # an earlier protocol's transcript
                                  '{"format": "lodam-fairdeal-transcript", "version": 2}'])
def test_verify_unreadable_exits_2(tmp_path: Path, text: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    assert main(["verify", str(path)]) == 2
    assert main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "lodam:" in capsys.readouterr().err


def test_bench_deal_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    transcript = tmp_path / "bench.json"
    args = ["bench", "deal", "--seats", "3", "--cards", "32", "--json", "--transcript",
            str(transcript)]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert {"seats", "cards", "cpu_ms_per_seat", "cpu_ms_by_phase", "bytes_per_hand",
            "scalar_mults", "us_per_scalar_mult"} <= set(figures)
    assert (figures["seats"], figures["cards"], figures["proofs"]) == (3, 32, True)
    assert figures["native_msm"] is True
    assert figures["shuffle_proof"]["proof_bytes"] == 32 * 163 + 293
    assert set(figures["cpu_ms_by_phase"]) == {"keys", "shuffle", "deal", "play", "audit"}
    assert main(["verify", str(transcript)]) == 0


def test_bench_deal_without_proofs_and_bench_shuffle(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "deal", "--seats", "2", "--cards", "32", "--json", "--no-proofs"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["proofs"] is False and figures["shuffle_proof"] is None
    assert main(["bench", "shuffle", "--cards", "5", "--rounds", "1", "--json"]) == 0
    shuffle = json.loads(capsys.readouterr().out)
    assert shuffle["cards"] == 5 and shuffle["proof_bytes"] == 5 * 163 + 293
    assert main(["bench", "shuffle", "--cards", "53"]) == 2
