"""A lazy observer (the host's watcher, which answers nothing) takes proofs of shuffle
unchecked until it is made vigilant, or until a card it shows rests on one, and then
reaches the seats' verdict on the same envelopes; an eager one checks them as they
come."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from lodam_p2p.fairdeal import CardRevealed, Hand, Phase
from lodam_p2p.fairdeal.errors import LocalProtocolError, RemoteProtocolError
from lodam_p2p.fairdeal.group import add, base_mul, mul
from lodam_p2p.fairdeal.messages import DealMsg, RemaskMsg, RevealMsg, ShuffleMsg
from lodam_p2p.fairdeal.remask import remask_secret
from tests.fairdeal import cheats
from tests.fairdeal.table import Table, identity, make_config

CHEATER = 1


def _invented(hand: Hand, msg: RemaskMsg) -> RemaskMsg:
    """A re-randomised copy of another seat's held card in place of one card."""
    a, b = hand.record.held(hand.config.positions_of(3)[0])
    key = hand.record.keys[hand.seat]
    return replace(msg, deck=((add(a, base_mul(7)), add(b, mul(key, 7))), *msg.deck[1:]))


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


def _planted_remask() -> Table:
    table = Table.build(make_config(4, 32),
                        cheaters={CHEATER: cheats.tampering(RemaskMsg, cheats.planted_remask)})
    table.flush()
    table.hands[CHEATER].remask(table.config.positions_of(CHEATER), 0.0)
    table.flush()
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


CHEATS = pytest.mark.parametrize("build", [_false_shuffle, _false_remask, _planted_remask],
                                 ids=["shuffle", "remask", "planted"])


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
    # four shuffles and two re-masks; but the receiver played the card it received,
    # from its re-mask, whose proof was checked before the card was shown
    # (``Record.settle``)
    assert [d.remask is None for d in observer.record.unchecked] == [True] * 4 + [False]
    observer.vigilant()
    assert observer.phase is Phase.DONE and not observer.record.unchecked


@pytest.mark.parametrize("again", [False, True], ids=["from-it", "two-re-masks-down"])
def test_a_lazy_observer_checks_a_remask_before_it_shows_a_card_from_it(again: bool) -> None:
    # the re-masker plants a card of its choosing and reveals it, at once or after
    # re-masking the planted holding once more (honestly, so that the second proof
    # passes): the seats refuse the first re-mask as it comes, and a lazy observer,
    # which took it unchecked, checks the card's whole lineage when the reveal comes
    # and shows no card
    table = Table.build(make_config(4, 32), cheaters={
        CHEATER: cheats.tampering(RemaskMsg, lambda hand, msg: cheats.planted_remask(hand, msg)
                                  if not hand.record.remasks else msg)})
    table.flush()
    cheat = table.hands[CHEATER]
    new = cheat.remask(table.config.positions_of(CHEATER), 0.0)
    planted = new[0]
    if again:
        inputs = tuple(sorted(new))
        new = cheat.remask(new, 0.0)
        assert cheat._me is not None
        pi = remask_secret(cheat._me.remask_seed(), 1, len(new)).permutation
        planted = next(out for out, source in zip(new, pi, strict=True)
                       if inputs[source] == planted)
    cheat.reveal(planted, 0.0)
    table.flush()
    verdict = _seats_verdict(table)
    assert verdict == (CHEATER, "remask")
    observer = Hand(table.config, None, None, None, 0.0, lazy=True)
    errors = _follow(table, observer)
    assert [(e.seat, e.check) for e in errors] == [verdict]
    assert not any(isinstance(e, CardRevealed) for e in observer.events())


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


def _false_remask_then_false_reveal(hand: Hand, msg):
    if isinstance(msg, RemaskMsg):
        return cheats.planted_remask(hand, msg)
    if isinstance(msg, RevealMsg):
        return cheats.bad_reveal_share(hand, msg)
    return msg


def test_a_later_offence_does_not_hide_an_unchecked_remask() -> None:
    # the cheater plants a card in a re-mask, then reveals its share of the talon's top
    # with a false proof (a card the re-mask has nothing to do with): the seats stop at
    # the re-mask; a lazy observer meets the reveal first and still names the re-mask
    table = Table.build(make_config(4, 32), cheaters={
        CHEATER: cheats.tampering(object, _false_remask_then_false_reveal)})
    table.flush()
    c = table.config
    table.hands[CHEATER].remask(c.positions_of(CHEATER), 0.0)
    table.hands[CHEATER].reveal(c.schedule.index(None), table.now)
    table.flush()
    verdict = _seats_verdict(table)
    assert verdict == (CHEATER, "remask")
    observer = Hand(table.config, None, None, None, 0.0, lazy=True)
    cheater_sent = [(s, raw) for s, raw in table.hands[CHEATER].envelopes() if s == CHEATER]
    assert isinstance(table.hands[CHEATER].peek(CHEATER, cheater_sent[-1][1]), RevealMsg)
    errors = _follow(table, observer)
    assert [(e.seat, e.check) for e in errors] == [verdict]
    assert observer.phase is Phase.ABORTED and not observer.record.unchecked
