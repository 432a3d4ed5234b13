"""The audit hook with the real rules engine: the fair deal feeds ``rules.Deal``, the
game's public actions are replayed against the audited deal, and a revoke — invisible
while the hand is played, since nobody else knows the revoker's hand — names its seat."""

from __future__ import annotations

from lodam_p2p.fairdeal import (
    AuditChecker,
    AuditPassed,
    Blame,
    CardRevealed,
    HandConfig,
    deal_schedule,
)
from lodam_p2p.fairdeal.group import ORDER, add, card_lookup, encode_point, mul, neg
from lodam_p2p.games.lodam import (
    FULL_PACK,
    Action,
    Card,
    Deal,
    Decision,
    ExchangeRule,
    IllegalAction,
    Options,
    Play,
    PublicDeal,
)
from tests.fairdeal.table import Table, identity, raw_public

OPTIONS = Options(exchanges=ExchangeRule.OFF)
DEALER, LIVES = 3, (3, 3, 3, 3)


def _config() -> HandConfig:
    public = PublicDeal.start(OPTIONS, DEALER, LIVES)
    order = public.order  # eldest first: the fair deal's shuffle and dealing order
    schedule = deal_schedule(order, public.hand_size, public.pack_size)
    ids = tuple(raw_public(identity(s)) for s in order)
    return HandConfig(b"rules-audit-tbl!", 1, order, ids, public.pack_size, schedule)


def _god_deck(table: Table) -> list[int]:
    """Every position's card, from all seats' secrets (the test sees everything)."""
    x = sum(h._me.x for h in table.hands.values() if h._me) % ORDER
    lookup = card_lookup(table.config.deck_size)
    out = []
    for a, b in table.hands[table.config.seats[0]].record.final_deck:
        out.append(lookup[encode_point(add(b, neg(mul(a, x))))])
    return out


def _checker(actions: list[Action]) -> AuditChecker:
    def check(deal: tuple[int, ...], masked: object) -> Blame | None:
        game = Deal.start(OPTIONS, DEALER, LIVES, [FULL_PACK[c] for c in deal])
        for action in actions:
            try:
                game.apply(action)
            except IllegalAction as err:
                return Blame(err.seat, "rules", str(err))
        return None

    return check


def _revoke(game: Deal, seat: int) -> Card | None:
    """A card ``seat`` could play that does not follow suit although it can."""
    if not game.current_trick:
        return None
    led = game.current_trick[0][1].suit
    hand = game.hand(seat)
    others = [c for c in hand if c.suit != led]
    return others[0] if others and len(others) < len(hand) else None


def _play(table: Table, actions: list[Action], revoker: int | None) -> Deal:
    c = table.config
    deck = _god_deck(table)
    game = Deal.start(OPTIONS, DEALER, LIVES, [FULL_PACK[i] for i in deck])
    position = {FULL_PACK[card]: j for j, card in enumerate(deck)}
    talon_top, trump_shown = c.schedule.index(None), False
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        if game.awaiting is Decision.PLAY:
            card = _revoke(game, seat) if seat == revoker else None
            action: Action = Play(seat, card or game.legal_actions()[0].card)  # type: ignore[union-attr]
            table.hands[seat].reveal(position[action.card], table.now)
            table.flush()
            shown = [e for e in table.events[0] if isinstance(e, CardRevealed)][-1]
            assert FULL_PACK[shown.card] == action.card
            if card is not None:
                actions.append(action)
                return game  # the revoke passes unnoticed: no one else knows the hand
        else:
            action = game.default_action() or game.legal_actions()[0]
        game.apply(action)
        actions.append(action)
        if game.trump_card is not None and not trump_shown:
            trump_shown = True
            for hand in table.hands.values():
                hand.reveal(talon_top, table.now)
            table.flush()
            shown = [e for e in table.events[0] if isinstance(e, CardRevealed)][-1]
            assert FULL_PACK[shown.card] == game.trump_card
    return game


def test_fair_deal_feeds_the_rules_engine_and_an_honest_hand_passes() -> None:
    actions: list[Action] = []
    table = Table.build(_config(), checker=_checker(actions))
    table.flush()
    game = Deal.start(OPTIONS, DEALER, LIVES, [FULL_PACK[i] for i in _god_deck(table)])
    for seat in table.config.seats:  # each seat decrypted exactly its rules hand
        assert {FULL_PACK[c] for c in table.cards(seat).values()} == set(game.dealt_hands[seat])
    _play(table, actions, revoker=None)
    table.finish()
    assert not table.blamed()
    assert all(any(isinstance(e, AuditPassed) for e in evs) for evs in table.events.values())


def test_revoke_is_found_at_the_audit_and_names_the_seat() -> None:
    actions: list[Action] = []
    table = Table.build(_config(), checker=_checker(actions))
    table.flush()
    revoker = table.config.seats[2]
    _play(table, actions, revoker=revoker)
    assert not table.blamed()  # nothing seen during play
    table.finish()
    assert table.blamed() == {revoker}
    assert table.checks() == {"rules"}
