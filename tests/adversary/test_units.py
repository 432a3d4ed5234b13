"""The adversary's pieces in process: its list, its errors, and that its attacks bite."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace
from typing import Any, cast

from lodam_p2p.redteam.attacks import ATTACKS
from lodam_p2p.redteam.attacks.rules import PredictableSeed
from lodam_p2p.redteam.broker import KINDS as BROKER_KINDS
from lodam_p2p.session.keys import new_identity, seeded
from lodam_p2p.session.wire import raw_public

ISSUE_KINDS = {"remask-steal", "deck-replace", "void-anyone", "early-audit-open",
               "reveal-held-card", "slow-human", "predictable-seed", "bad-key-proof",
               "bad-share-proof", "shuffle-drop", "shuffle-duplicate",
               "shuffle-commitment-mismatch", "replay-other-hand", "replay-other-table",
               "equivocation", "false-exchange-claim", "withheld-audit-opening", "stall",
               "revoke"}
#: The kinds issue 29 names, and how many seat kinds it asks for at least.
ISSUE_29_KINDS = {"rejoin-mulligan", "lone-timeout-vote", "resume-same-hand",
                  "leave-while-leading", "resend-flood", "early-frame-flood", "away-toggle"}
AT_LEAST = 26


def _lodam(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lodam_p2p", *args], capture_output=True,
                          text=True, timeout=60, check=False)


def test_the_list_names_one_kind_a_line_and_every_kind_of_the_issue() -> None:
    done = _lodam("adversary", "--list")
    assert done.returncode == 0
    kinds = done.stdout.split()
    assert len(kinds) == len(set(kinds)) == len(done.stdout.splitlines())
    assert set(kinds) >= ISSUE_KINDS | ISSUE_29_KINDS
    assert set(kinds) == set(ATTACKS) | set(BROKER_KINDS) and len(kinds) >= AT_LEAST
    brokers = [k for k in kinds if k.startswith("broker-")]  # issue 30: at least four
    assert {"broker-fire-will", "broker-censor", "broker-split-view",
            "broker-replay", "broker-lobby-censor"} <= set(brokers)


def test_every_kind_says_what_it_does_and_what_the_table_must_do() -> None:
    for kind, attack in ATTACKS.items():
        assert attack.kind == kind and attack.summary, kind
        assert "The table" in (attack.__doc__ or ""), kind


def test_no_attack_lives_in_the_session() -> None:
    for attack in ATTACKS.values():
        assert attack.__module__.startswith("lodam_p2p.redteam."), attack


def test_an_unknown_attack_is_a_one_line_error() -> None:
    done = _lodam("adversary", "no-such-attack", "--table", "oak")
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "no-such-attack" in done.stderr


def test_seeded_secrets_are_found_by_the_predictable_seed_attack() -> None:
    """The attack is real: a seat whose identity came from a small seed is found."""
    mine, theirs = new_identity(seeded(5, 0)), new_identity(seeded(3, 1))
    roster = SimpleNamespace(sitters=[SimpleNamespace(pubkey=raw_public(mine)),
                                      SimpleNamespace(pubkey=raw_public(theirs))])
    attack = PredictableSeed()
    attack.seated(cast(Any, SimpleNamespace(roster=roster, seat=0)))
    assert attack.attempted and attack.learned == ["seat 1's secrets (seed 3, place 1)"]


def test_the_report_keeps_its_shape_and_says_why_an_attack_was_not_mounted() -> None:
    from tests.adversary.memory import cheat_table

    attack = ATTACKS["resend-flood"]()
    cheat = cheat_table(attack)[2]
    report = cheat.report()  # type: ignore[attr-defined]
    assert set(report) == {"kind", "seat", "attempted", "reason", "learned", "result"}
    assert report["kind"] == "resend-flood" and report["attempted"] is False
    assert report["reason"] and report["learned"] == [] and report["result"] is None
