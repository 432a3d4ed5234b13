"""Honest hands: every seat learns exactly its cards, reveals and transfers agree,
the audit passes and the transcript verifies."""

from __future__ import annotations

import pytest

from lodam_p2p.fairdeal import (
    AuditPassed,
    CardLearned,
    CardRevealed,
    Dealt,
    LocalProtocolError,
    Phase,
    Transcript,
    verify_transcript,
)
from lodam_p2p.fairdeal import hand as hand_module
from lodam_p2p.fairdeal.messages import KeyMsg
from tests.fairdeal.table import Table, make_config


def _of(table: Table, seat: int, kind: type) -> list:
    return [e for e in table.events[seat] if isinstance(e, kind)]


@pytest.mark.parametrize(("seats", "deck"), [(3, 32), (5, 52), (10, 52)])
def test_honest_hand_completes_and_agrees(seats: int, deck: int) -> None:
    table = Table.build(make_config(seats, deck))
    table.play_through()
    assert not table.blamed() and not any(table.errors.values())
    deals = {s: _of(table, s, AuditPassed)[0].deal for s in table.config.seats}
    deal = deals[0]
    assert set(deals.values()) == {deal}
    assert sorted(deal) == list(range(deck))
    for s in table.config.seats:
        assert table.hands[s].phase is Phase.DONE
        dealt = _of(table, s, Dealt)[0].cards
        assert dealt == {p: deal[p] for p in table.config.positions_of(s)}


def test_reveal_talon_and_exchange_both_sides_learn() -> None:
    table = Table.build(make_config(4, 52))
    table.play_through()
    c = table.config
    deal = _of(table, 0, AuditPassed)[0].deal
    top = c.schedule.index(None)
    for s in c.seats:
        revealed = {e.position: e.card for e in _of(table, s, CardRevealed)}
        assert revealed[top] == deal[top]
        assert revealed[c.positions_of(0)[0]] == deal[c.positions_of(0)[0]]
    pa, pb = c.positions_of(1)[0], c.positions_of(2)[0]
    made = table.hands[3].record.switched  # the positions the two transfers made
    # the void case needs exactly this: each side learns the other's card, held by it
    # under its own key at the position the transfer made
    assert _of(table, 2, CardLearned) == [CardLearned(made[pa], deal[pa], 1)]
    assert _of(table, 1, CardLearned) == [CardLearned(made[pb], deal[pb], 2)]
    assert table.hands[3].record.holder_of(made[pa]) == 2
    assert not _of(table, 3, CardLearned)
    # the receiver played the card it received, from its re-masked holding
    assert any(e.card == deal[pa] and e.by == 2 and e.position >= c.deck_size
               for e in _of(table, 3, CardRevealed))


def test_no_seat_learns_another_seats_cards_before_audit() -> None:
    table = Table.build(make_config(3, 32))
    table.flush()
    for s in table.config.seats:
        assert set(table.cards(s)) == set(table.config.positions_of(s))


def test_transcript_verifies_offline_and_round_trips() -> None:
    table = Table.build(make_config(3, 32))
    table.play_through()
    transcript = Transcript(table.config, tuple(table.hands[1].envelopes()))
    again = Transcript.from_json(transcript.to_json())
    verdict = verify_transcript(again)
    assert verdict.sound, verdict.summary
    assert verdict.deal == _of(table, 0, AuditPassed)[0].deal
    # envelopes in reverse order verify too: the verifier orders every chain itself
    backwards = Transcript(table.config, tuple(reversed(transcript.envelopes)))
    assert verify_transcript(backwards).sound


def test_unfinished_transcript_names_the_missing_seat() -> None:
    table = Table.build(make_config(3, 32))
    table.flush()
    verdict = verify_transcript(Transcript(table.config, tuple(table.hands[0].envelopes())))
    assert not verdict.sound and verdict.blame is not None
    assert verdict.blame.check == "missing"


def test_local_errors_for_illegal_commands() -> None:
    table = Table.build(make_config(3, 32))
    hand = table.hands[0]
    with pytest.raises(LocalProtocolError):
        hand.reveal(0, 0.0)  # not dealt yet
    table.flush()
    with pytest.raises(LocalProtocolError):
        hand.reveal(99, 0.0)
    with pytest.raises(LocalProtocolError):
        hand.transfer(table.config.positions_of(1)[0], 2, 0.0)  # not this seat's card
    with pytest.raises(LocalProtocolError):
        hand.transfer(table.config.positions_of(0)[0], 0, 0.0)
    own = table.config.positions_of(0)[0]
    hand.reveal(own, 0.0)
    table.flush()
    with pytest.raises(LocalProtocolError):
        hand.reveal(own, 0.0)  # already public
    hand.finish(0.0)
    with pytest.raises(LocalProtocolError):
        hand.finish(0.0)


def test_message_sizes_are_those_of_the_spec() -> None:
    """protocol/SPEC.md section 5, 5 seats and 52 cards: body bytes per message kind."""
    from lodam_p2p.fairdeal.messages import decode
    from lodam_p2p.fairdeal.wire import HEADER_LEN, SIG_LEN

    table = Table.build(make_config(5, 52))
    table.play_through()
    sizes: dict[str, set[int]] = {}
    for _, raw in table.hands[0].envelopes():
        body = raw[SIG_LEN + HEADER_LEN :]
        sizes.setdefault(type(decode(body)).__name__, set()).add(len(body))
    assert SIG_LEN + HEADER_LEN == 125
    assert sizes["KeyMsg"] == {103} and sizes["ShuffleMsg"] == {12243}  # 3471 + 8769 + 3
    assert sizes["DealMsg"] == {1259} and sizes["AuditMsg"] == {1825}
    # a reveal is 103 bytes and its position: 1 byte below 128, 3 from 256 (a re-mask's)
    assert sizes["RevealMsg"] == {104, 106} and sizes["TransferMsg"] == {170}
    assert sizes["RemaskMsg"] == {2416}  # k = 9: 18 + 594 + 32 + 1760 + 12 of msgpack


def test_a_peeked_envelope_is_opened_once_and_only_for_its_sender(monkeypatch) -> None:
    # the session looks at an envelope (its screen), again (its take), then feeds it:
    # one signature check and one decoding in all, and the hand still takes it
    table = Table.build(make_config(3, 32))
    raw = table.hands[1].outgoing()[0]
    hand = table.hands[0]
    opened = []
    real_open = hand_module.open_envelope
    monkeypatch.setattr(hand_module, "open_envelope",
                        lambda *args: opened.append(args[1]) or real_open(*args))
    first = hand.peek(1, raw)
    assert isinstance(first, KeyMsg)
    assert hand.peek(1, raw) is first
    assert hand.peek(2, raw) is None  # not 2's envelope, kept or not
    hand.receive(1, raw, 0.0)
    assert opened == [1, 2]
    assert 1 in hand.record.keys
