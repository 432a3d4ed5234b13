"""The public machine checks what public knowledge can; the audit proves the rest."""

from __future__ import annotations

import pytest

from lodam_p2p.games.lorum import (
    Announce,
    Card,
    Contract,
    Decision,
    IllegalAction,
    Lay,
    MalformedInput,
    Options,
    Pass,
    Play,
    PublicDeal,
    first_breach,
)
from tests.lorum.scenes import BY_SUIT, deal_of
from tests.lorum.test_quartet_lorum import LORUM, QUARTET
from tests.lorum.test_tricks import REDS_HANDS


def _c(text: str) -> Card:
    return Card.parse(text)


def test_quartet_public_awaits_the_holder_of_the_next_card() -> None:
    public = PublicDeal.start(Options(), Contract.QUARTET, 4, 3)
    public.play(0, _c("7E"))
    assert public.to_act is None and public.awaiting_card == _c("8E") and public.forced
    with pytest.raises(IllegalAction, match="the run goes on with 8E"):
        public.play(1, _c("9E"))
    public.play(1, _c("8E"))  # anyone may claim it: the audit checks the hand
    public.play(2, _c("9E"))
    public.play(3, _c("TE"))
    assert public.to_act == 3 and public.awaiting_card is None
    assert [t.winner for t in public.tricks] == [3]


def test_public_refuses_what_public_knowledge_refutes() -> None:
    public = PublicDeal.start(Options(), Contract.TRICKS, 3, 2)
    with pytest.raises(IllegalAction, match="it is seat 0's turn"):
        public.play(1, _c("7E"))
    with pytest.raises(IllegalAction, match="7S is out of play"):
        public.play(0, _c("7S"))  # set aside
    public.play(0, _c("7E"))
    with pytest.raises(IllegalAction, match="7E is out of play"):
        public.play(1, _c("7E"))
    with pytest.raises(MalformedInput):
        public.play(5, _c("8E"))


def test_lorum_public_checks_the_fit_but_not_the_pass() -> None:
    public = PublicDeal.start(Options(), Contract.LORUM, 4, 3)
    public.lay(0, _c("KE"))
    with pytest.raises(IllegalAction, match="does not fit"):
        public.lay(1, _c("7E"))
    public.pass_turn(1)  # maybe a breach: only the hands can tell
    assert public.points == [0, 1, 0, 0] and public.to_act == 2


def test_red_king_public_announcement_by_the_claimed_holder() -> None:
    public = PublicDeal.start(Options(), Contract.RED_KING, 4, 3)
    for e, g, h, s in zip(*(row.split()[:7] for row in
                            ("7E 8E 9E TE UE OE KE", "7G 8G 9G TG UG OG KG",
                             "7H 8H 9H TH UH OH AH", "7S 8S 9S TS US OS KS")), strict=True):
        for seat, card in enumerate((e, g, h, s)):
            public.play(seat, _c(card))
    assert public.awaiting is Decision.ANNOUNCE and public.to_act is None
    public.announce(2, True)
    assert public.announced and public.to_act == 0


def test_the_audit_blames_a_pass_while_able_to_lay() -> None:
    deal = deal_of("lorum", LORUM, auto=False)
    breach = first_breach(deal, [Lay(0, _c("KE")), Pass(1)])
    assert breach is not None and breach.seat == 1 and "may not pass" in str(breach)


def test_the_audit_blames_a_revoke_and_a_forbidden_first_trick_card() -> None:
    revoke = first_breach(deal_of("reds", REDS_HANDS, auto=False),
                          [Play(0, _c("7E")), Play(1, _c("8H"))])
    assert revoke is not None and revoke.seat == 1 and "follow suit" in str(revoke)
    lead = first_breach(deal_of("reds", REDS_HANDS, auto=False), [Play(0, _c("7H"))])
    assert lead is not None and lead.seat == 0


def test_the_audit_blames_a_claim_to_a_run_card_not_held() -> None:
    breach = first_breach(deal_of("quartet", QUARTET, auto=False),
                          [Play(0, _c("7E")), Play(2, _c("8E"))])
    assert breach is not None and breach.seat == 2


def test_the_audit_blames_a_silent_holder_and_a_false_announcement() -> None:
    silent = first_breach(deal_of("quartet", QUARTET, auto=False), [Play(0, _c("7E"))])
    assert silent is not None and silent.seat == 1  # held 8E and never played it
    events: list[Play | Announce] = []
    for row in zip(*(r.split()[:7] for r in BY_SUIT), strict=True):
        events += [Play(s, _c(c)) for s, c in enumerate(row)]
    events[-2] = Play(2, _c("AH"))  # seat 2 keeps KH for the last trick
    events.append(Announce(1, True))
    false = first_breach(deal_of("red_king", BY_SUIT, auto=False), events)
    assert false is not None and false.seat == 1


def test_the_audit_blames_a_blind_card_out_of_order() -> None:
    deal = deal_of("red_king", BY_SUIT, auto=False, red_king_blind=True)
    assert deal.legal_actions() == [Play(0, _c("7E"))]
    breach = first_breach(deal, [Play(0, _c("8E"))])
    assert breach is not None and breach.seat == 0 and "next card is 7E" in str(breach)


def test_garbage_events_are_malformed_never_a_crash() -> None:
    public = PublicDeal.start(Options(), Contract.RED_KING, 4, 3)
    for event in (lambda: public.play(0, "7E"), lambda: public.play("0", _c("7E")),
                  lambda: public.lay(0, None), lambda: public.announce(0, "yes"),
                  lambda: public.apply_event("play 7E"), lambda: public.play(True, _c("7E"))):
        with pytest.raises(MalformedInput):
            event()  # type: ignore[no-untyped-call]
    public.play(0, _c("7E"))
    assert public.hand_sizes == [7, 8, 8, 8]


def test_a_full_deal_refuses_garbage_as_malformed() -> None:
    deal = deal_of("tricks", BY_SUIT)
    for action in (Play(0, "7E"), Play("0", _c("7E")), "play", Lay(0, 7)):  # type: ignore[arg-type]
        with pytest.raises(MalformedInput):
            deal.apply(action)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="no such seat"):
        deal.apply(Play(7, _c("7E")))
