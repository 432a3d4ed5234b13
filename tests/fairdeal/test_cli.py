"""``lodam verify`` exit statuses and ``lodam bench deal`` output shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lodam_p2p.cli import main
from lodam_p2p.fairdeal import Transcript
from lodam_p2p.fairdeal.messages import AuditMsg, ShuffleMsg, decode
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
    assert main(["bench", "shuffle", "--cards", "105"]) == 2


def test_bench_deal_reports_rounds_envelopes_and_the_spread_of_repeats(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "deal", "--workload", "deal", "--seats", "5", "--cards", "20",
            "--repeat", "3", "--json"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["workload"], figures["rounds"], figures["envelopes"]) == ("deal", 7, 15)
    assert figures["repeat"] == 3 and figures["argument"] == "tw"
    spread = figures["spread"]["cpu_ms_per_seat"]
    assert len(spread["runs"]) == 3 and spread["min"] <= spread["median"] <= spread["max"]
    assert spread["median"] == figures["cpu_ms_per_seat"]
    assert figures["critical_path_ms"] >= figures["cpu_ms_slowest_seat"] > 0
    assert figures["equivalent_mults"] < (figures["scalar_mults"] + figures["msm_terms"]
                                          + figures["msm_short_terms"])


@pytest.mark.parametrize("argument", ["tw", "bg", "none"])
def test_bench_deal_transcript_names_its_argument(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argument: str) -> None:
    path = tmp_path / "hand.json"
    assert main(["bench", "deal", "--seats", "3", "--cards", "32", "--argument", argument,
                 "--json", "--transcript", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["argument"] == argument
    assert json.loads(path.read_text())["argument"] == argument
    assert main(["verify", "--json", str(path)]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["sound"], verdict["attributable"], verdict["seat"]) == (True, False, None)
    assert verdict["argument"] == argument


@pytest.mark.parametrize("args", [["--seats", "17"], ["--cards", "40"],
                                  ["--workload", "deal", "--cards", "105"],
                                  ["--workload", "deal", "--cards", "104"],
                                  ["--argument", "nope"], ["--repeat", "0"]])
def test_bench_deal_refuses_what_it_cannot_play(args: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "deal", *args]) == 2
    assert "lodam:" in capsys.readouterr().err


def test_bench_shuffle_reports_each_arguments_proof_bytes(
        capsys: pytest.CaptureFixture[str]) -> None:
    sizes = {}
    for argument in ("tw", "bg", "none"):
        assert main(["bench", "shuffle", "--cards", "52", "--rounds", "1", "--argument",
                     argument, "--json"]) == 0
        figures = json.loads(capsys.readouterr().out)
        sizes[argument] = figures["proof_bytes"]
    assert sizes["tw"] == 52 * 163 + 293 and 0 < sizes["bg"] < sizes["tw"] and not sizes["none"]


def _hand_file(tmp_path: Path, cheater: type | None = None,
               argument: str = "tw") -> tuple[Path, Table]:
    table = Table.build(make_config(3, 32, argument=argument),
                        cheaters={1: cheater} if cheater else None)
    if cheater is None:
        table.play_through()
    else:
        table.flush()  # the cheat is refused as it arrives
    return _write(tmp_path, table), table


@pytest.mark.parametrize("argument", ["tw", "bg"])
def test_verify_json_convicts_a_failing_proof_under_a_valid_signature(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], argument: str) -> None:
    path, _ = _hand_file(tmp_path, cheats.tampering(ShuffleMsg, cheats.duplicated_card),
                         argument)
    assert main(["verify", "--json", str(path)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["attributable"], verdict["seat"], verdict["check"]) == (True, 1, "shuffle")


@pytest.mark.parametrize("argument", ["tw", "bg"])
def test_a_forged_signature_convicts_nobody(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            argument: str) -> None:
    path, _ = _hand_file(tmp_path, argument=argument)
    obj = json.loads(path.read_text())
    seat, raw = obj["envelopes"][5]
    flipped = raw[:100] + ("0" if raw[100] != "0" else "1") + raw[101:]
    obj["envelopes"][5] = [seat, flipped]
    path.write_text(json.dumps(obj))
    assert main(["verify", str(path)]) == 1
    line = capsys.readouterr().out
    assert "no seat convicted" in line and "failed" not in line.split("dropped")[0]
    assert main(["verify", "--json", str(path)]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert (verdict["sound"], verdict["attributable"], verdict["seat"]) == (False, False, None)
    assert verdict["dropped"] == 1
