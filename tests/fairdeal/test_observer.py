"""A lazy observer (the host's watcher, which answers nothing) takes proofs of shuffle
and re-mask share batches unchecked until it is made vigilant, and then reaches the
seats' verdict on the same envelopes; an eager one checks them as they come."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from lodam_p2p.fairdeal import CardRevealed, Hand, Phase
from lodam_p2p.fairdeal.errors import LocalProtocolError, RemoteProtocolError
from lodam_p2p.fairdeal.group import add, base_mul, mul
from lodam_p2p.fairdeal.messages import DealMsg, RemaskMsg, RevealMsg, SharesMsg, ShuffleMsg
from tests.fairdeal import cheats
from tests.fairdeal.table import Table, identity, make_config

CHEATER = 1


def _invented(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    """A re-randomised copy of another seat's position in place of one card."""
    a, b = hand.record.ciphertext(hand.config.positions_of(3)[0])
    joint = hand.record.joint
    return replace(msg, deck=((add(a, base_mul(7)), add(b, mul(joint, 7))), *msg.deck[1:]))


def _false_shuffle() -> Table:
    table = Table.build(make_config(4, 32),
                        cheaters={CHEATER: cheats.tampering(ShuffleMsg, cheats.duplicated_card)})
    table.flush()
    return table


def _false_remask() -> Table:
    table = Table.build(make_config(4, 32),
                        cheaters={CHEATER: cheats.tampering(RemaskMsg, _invented)})
    table.flush()
    c = table.config
    table.trade(CHEATER, 2, c.positions_of(CHEATER)[0], c.positions_of(2)[0])
    return table


def _bad_remask_share(hand: Hand, msg: SharesMsg) -> SharesMsg:
    return replace(msg, shares=(cheats.shifted(msg.shares[0]), *msg.shares[1:]))


def _false_remask_shares() -> Table:
    # the cheater answers its trading partner's re-mask (which holds the card it gave)
    # with a false share
    table = Table.build(make_config(4, 32),
                        cheaters={CHEATER: cheats.tampering(SharesMsg, _bad_remask_share)})
    table.flush()
    c = table.config
    table.trade(0, CHEATER, c.positions_of(0)[0], c.positions_of(CHEATER)[0])
    return table


def _follow(table: Table, observer: Hand) -> list[RemoteProtocolError]:
    """Feed the observer every envelope the seats took, the cheater's own included."""
    envelopes = table.hands[0].envelopes() + table.hands[CHEATER].envelopes()
    errors = []
    for seat, raw in envelopes:
        if observer.phase is Phase.ABORTED:
            break
        try:
            observer.receive(seat, raw, 0.0)
        except RemoteProtocolError as err:
            errors.append(err)
    return errors


def _seats_verdict(table: Table) -> tuple[int, str]:
    caught = {(e.seat, e.check) for s, errs in table.errors.items() if s != CHEATER
              for e in errs}
    assert len(caught) == 1, caught
    return caught.pop()


CHEATS = pytest.mark.parametrize("build", [_false_shuffle, _false_remask, _false_remask_shares],
                                 ids=["shuffle", "remask", "remask-shares"])


@CHEATS
def test_a_lazy_observer_convicts_when_made_vigilant(build: Callable[[], Table]) -> None:
    table = build()
    verdict = _seats_verdict(table)
    observer = Hand(table.config, None, None, None, 0.0, lazy=True)
    assert _follow(table, observer) == []  # taken unchecked: nothing to say yet
    assert observer.record.unchecked and observer.phase is not Phase.ABORTED
    with pytest.raises(RemoteProtocolError) as caught:
        observer.vigilant()
    assert (caught.value.seat, caught.value.check) == verdict
    assert observer.phase is Phase.ABORTED and observer.blame == caught.value
    observer.vigilant()  # an aborted hand has nothing more to check


@CHEATS
def test_a_vigilant_observer_checks_proofs_as_they_come(build: Callable[[], Table]) -> None:
    table = build()
    for observer in (Hand(table.config, None, None, None, 0.0),
                     Hand(table.config, None, None, None, 0.0, lazy=True)):
        observer.vigilant()  # a claim before the false proof came: checked on arrival
        errors = _follow(table, observer)
        assert [(e.seat, e.check) for e in errors] == [_seats_verdict(table)]
        assert not observer.record.unchecked


def test_an_honest_hand_leaves_nothing_to_convict() -> None:
    table = Table.build(make_config(4, 32))
    table.play_through()
    observer = Hand(table.config, None, None, None, 0.0, lazy=True)
    assert _follow(table, observer) == []
    taken = [d.what for d in observer.record.unchecked]
    # four shuffles and two re-masks, each re-mask answered by the trader whose card it
    # holds (the two other seats' shares carried); but the receiver played the card it
    # received, from its re-mask, whose proof and batch were checked before the card
    # was shown (``Record.settle``)
    assert taken.count("proof") == 4 + 1
    assert taken.count("shares") == 1
    observer.vigilant()
    assert observer.phase is Phase.DONE and not observer.record.unchecked


def _forged_carried(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    return replace(msg, carried=((cheats.shifted(msg.carried[0][0]), *msg.carried[0][1:]),
                                 *msg.carried[1:]))


def test_a_lazy_observer_checks_a_remask_before_it_shows_a_card_from_it() -> None:
    # a carried share moved off true makes the re-masker's own reveal decrypt to another
    # point; the seats refuse the re-mask at once, and a lazy observer, which took it
    # unchecked, checks it when the reveal comes and shows no card
    table = Table.build(make_config(4, 32),
                        cheaters={CHEATER: cheats.tampering(RemaskMsg, _forged_carried)})
    table.flush()
    cheat = table.hands[CHEATER]
    new = cheat.remask(table.config.positions_of(CHEATER), 0.0)
    cheat.reveal(new[0], 0.0)
    table.flush()
    verdict = _seats_verdict(table)
    assert verdict == (CHEATER, "remask")
    observer = Hand(table.config, None, None, None, 0.0, lazy=True)
    errors = _follow(table, observer)
    assert [(e.seat, e.check) for e in errors] == [verdict]
    assert not any(isinstance(e, CardRevealed) and e.position == new[0]
                   for e in observer.events())


def test_only_an_observer_may_be_lazy() -> None:
    with pytest.raises(LocalProtocolError, match="observer"):
        Hand(make_config(3, 32), 0, identity(0), bytes, 0.0, lazy=True)


def _false_shuffle_then_false_shares(hand: Hand, msg):
    if isinstance(msg, ShuffleMsg):
        return cheats.duplicated_card(hand, msg)
    if isinstance(msg, DealMsg):
        return cheats.bad_deal_share(hand, msg)
    return msg


def test_a_later_offence_does_not_hide_an_unchecked_one() -> None:
    # the last shuffler's deck is false, and it deals on with a false share proof: the
    # seats stop at the shuffle; a lazy observer that took the shuffle unchecked meets
    # the share proof first, and still names the shuffle, as an eager one would
    last = 3
    table = Table.build(make_config(4, 32), cheaters={
        last: cheats.tampering(object, _false_shuffle_then_false_shares)})
    table.flush()
    assert {(e.seat, e.check) for s in (0, 1, 2) for e in table.errors[s]} == {(last, "shuffle")}
    observer = Hand(table.config, None, None, None, 0.0, lazy=True)
    errors = []
    for seat, raw in table.hands[0].envelopes() + table.hands[last].envelopes():
        try:
            observer.receive(seat, raw, 0.0)
        except RemoteProtocolError as err:
            errors.append(err)
            break
    assert [(e.seat, e.check) for e in errors] == [(last, "shuffle")]
    assert observer.phase is Phase.ABORTED and not observer.record.unchecked


def _false_shares_then_false_reveal(hand: Hand, msg):
    if isinstance(msg, SharesMsg):
        return _bad_remask_share(hand, msg)
    if isinstance(msg, RevealMsg):
        return cheats.bad_reveal_share(hand, msg)
    return msg


def test_a_later_offence_does_not_hide_unchecked_shares() -> None:
    # the cheater answers a re-mask with a false share, then reveals its own card with a
    # false proof: the seats stop at the shares; a lazy observer meets the reveal first
    # and still names the shares
    table = Table.build(make_config(4, 32), cheaters={
        CHEATER: cheats.tampering(object, _false_shares_then_false_reveal)})
    table.flush()
    c = table.config
    table.trade(0, 2, c.positions_of(0)[0], c.positions_of(2)[0])
    table.hands[CHEATER].reveal(c.positions_of(CHEATER)[0], table.now)
    table.flush()
    verdict = _seats_verdict(table)
    assert verdict == (CHEATER, "share-proof")
    observer = Hand(table.config, None, None, None, 0.0, lazy=True)
    cheater_sent = [(s, raw) for s, raw in table.hands[CHEATER].envelopes() if s == CHEATER]
    assert isinstance(table.hands[CHEATER].peek(CHEATER, cheater_sent[-1][1]), RevealMsg)
    errors = _follow(table, observer)
    assert [(e.seat, e.check) for e in errors] == [verdict]
    assert observer.phase is Phase.ABORTED and not observer.record.unchecked
