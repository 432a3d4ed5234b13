"""The host's watcher answers nothing, so it takes proofs of shuffle (the deck's and the
re-masks') unchecked; the seat that finds a false one claims it with the evidence
(VOID), and the watcher then checks what it took and reaches the seats' verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from lodam_p2p.fairdeal import Hand, Phase
from lodam_p2p.fairdeal.messages import RemaskMsg, ShuffleMsg
from lodam_p2p.session.course import SessionPhase, Timing
from lodam_p2p.session.wire import Msg
from tests.fairdeal import cheats
from tests.session.machines import Router, with_cheater

TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)
CHEATER = 1


@dataclass
class Played:
    """A match of four random bots, seat ``CHEATER`` playing with ``cheater``'s hand."""

    made: list[Hand]
    router: Router
    watcher: Any
    honest: list[Any]

    def watcher_hands(self) -> list[Hand]:
        return [h for h in self.made if h.seat is None]


def _play(monkeypatch: pytest.MonkeyPatch, cheater: type[Hand]) -> Played:
    made, router, table = with_cheater(monkeypatch, cheater, CHEATER, timing=TIMING)
    return Played(made, router, table[0], [m for m in table[1:] if m.seat != CHEATER])


def _same_verdict_as_the_seats(played: Played, check: str) -> None:
    """The seats claimed with evidence; the watcher's verdict and result are theirs, and
    the match went on without the cheater."""
    watcher, honest = played.watcher, played.honest
    claims = [b for m in honest for b in played.router.sent[m.me] if b.kind is Msg.VOID]
    assert claims and all(b.args[0] == CHEATER and b.envelopes for b in claims)
    assert watcher.blames and watcher.blames[0].startswith(f"seat {CHEATER}: {check}:")
    assert all(m.blames == watcher.blames for m in honest)
    outcomes = [m.outcome for m in (watcher, *honest)]
    assert outcomes[0] is not None and CHEATER not in outcomes[0].winners
    assert all(o is not None and o.to_json() == outcomes[0].to_json() for o in outcomes)
    assert all(m.phase is SessionPhase.DONE and m.unexpected == 0 for m in (watcher, *honest))


def test_the_watcher_convicts_a_false_shuffle_on_the_seats_claim(
        monkeypatch: pytest.MonkeyPatch) -> None:
    played = _play(monkeypatch, cheats.tampering(ShuffleMsg, cheats.duplicated_card))
    # the watcher's first hand took the false shuffle without checking it (the deck
    # after the cheater's is in its record), then convicted on a seat's claim
    first, *later = played.watcher_hands()
    assert len(first.record.decks) > first.config.seats.index(CHEATER) + 1
    assert first.phase is Phase.ABORTED and first.blame is not None
    assert (first.blame.seat, first.blame.check) == (CHEATER, "shuffle")
    assert not first.record.lazy and not first.record.unchecked
    _same_verdict_as_the_seats(played, "shuffle")
    # later hands: the watcher followed them lazily too, and nothing failed
    assert later and all(h.blame is None for h in later)


def test_the_watcher_convicts_a_false_remask_on_the_seats_claim(
        monkeypatch: pytest.MonkeyPatch) -> None:
    played = _play(monkeypatch, cheats.tampering(RemaskMsg, cheats.planted_remask))
    # the watcher took the false re-mask unchecked (it is in the record), then convicted
    # on a seat's claim
    caught = [h for h in played.watcher_hands() if h.blame is not None]
    assert len(caught) == 1
    first = caught[0]
    assert first.blame is not None
    assert any(r.seat == CHEATER for r in first.record.remasks)
    assert (first.blame.seat, first.blame.check) == (CHEATER, "remask")
    assert not first.record.lazy and not first.record.unchecked
    _same_verdict_as_the_seats(played, "remask")
