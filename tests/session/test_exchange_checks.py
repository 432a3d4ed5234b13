"""An exchange's bodies are checked against what they carry: an answer or an outcome
must hand its card over, and a re-mask must take exactly the seat's holding. Either
fault is convicted on the signed body as it is taken, naming its sender: the other
trader, who cannot go on without the card, is never the one the table waits for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from lodam_p2p.fairdeal import Hand
from lodam_p2p.fairdeal.messages import Kind, RemaskMsg, encode
from lodam_p2p.fairdeal.remask import first_position
from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN
from lodam_p2p.fairdeal.wire import seal as seal_envelope
from lodam_p2p.redteam.attacks.envelope import envelope_kind
from lodam_p2p.session.course import SessionPhase, Timing
from tests.session.machines import Router, with_cheater

TIMING = Timing(timeout_s=20.0, grace_s=40.0, linger_s=3.0, lobby_s=600.0)
CHEATER = 1


@dataclass
class Played:
    router: Router
    watcher: Any
    honest: list[Any]
    cheated: list[Hand]


def _play(monkeypatch: pytest.MonkeyPatch, cheater: type[Hand]) -> Played:
    made, router, table = with_cheater(monkeypatch, cheater, CHEATER, timing=TIMING)
    cheated = [h for h in made if isinstance(h, cheater) and getattr(h, "cheated", False)]
    return Played(router, table[0], [m for m in table[1:] if m.seat != CHEATER], cheated)


def _convicted_on_evidence(played: Played, check: str) -> None:
    """Every honest peer names the cheater alone, on ``check`` (not a timeout vote), and
    the match went on without it."""
    assert played.cheated, "the cheater never had its chance"
    peers = (played.watcher, *played.honest)
    for peer in peers:
        assert peer.blames and peer.blames[0].startswith(f"seat {CHEATER}: {check}:"), \
            peer.blames
        assert all(line.startswith(f"seat {CHEATER}: ") for line in peer.blames)
    outcomes = [m.outcome for m in peers]
    assert outcomes[0] is not None and CHEATER not in outcomes[0].winners
    assert all(o is not None and o.to_json() == outcomes[0].to_json() for o in outcomes)
    assert all(m.phase is SessionPhase.DONE for m in peers)


class _Unhanded(Hand):
    """Applies its transfers to its own record but never sends them: its answer (or
    outcome) names a card it does not hand over."""

    cheated = False

    def outgoing(self) -> list[bytes]:
        out = super().outgoing()
        kept = [raw for raw in out if envelope_kind(raw) is not Kind.TRANSFER]
        self.cheated = self.cheated or len(kept) < len(out)
        return kept


def test_an_exchange_without_its_transfer_convicts_its_sender(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _convicted_on_evidence(_play(monkeypatch, _Unhanded), "transfer")


class _Reaching(Hand):
    """Sends, in place of its first re-mask, one that also takes a position the other
    trader's next transfer would make: a position that does not exist yet, which would
    keep the message waiting in every peer's queue."""

    cheated = False

    def remask(self, positions: Any, now: float) -> tuple[int, ...]:
        new = super().remask(positions, now)
        if self.cheated:
            return new
        self.cheated = True
        raw = self._out[-1]
        honest = self.record.made[-1].msg
        assert isinstance(honest, RemaskMsg)
        c = self.config
        other = next(s for s in c.seats if s != self.seat)
        reach = first_position(c.deck_size, len(c.seats), c.index(other),
                               self.record.next_round(other) + 1)
        assert reach is not None
        forged = RemaskMsg((*honest.inputs, reach), (*honest.deck, honest.deck[0]),
                           honest.commitment)
        header = raw[SIG_LEN:SIG_LEN + HEADER_LEN]
        seq = int.from_bytes(header[25:29], "big")
        assert self._identity is not None
        self._out[-1] = seal_envelope(self._identity, encode(forged), table_id=c.table_id,
                                      hand=c.hand, seat=self.seat or 0, seq=seq,
                                      prev=header[-32:])
        return new


def test_a_remask_reaching_past_the_holding_is_convicted_as_it_comes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _convicted_on_evidence(_play(monkeypatch, _Reaching), "remask")
