"""The score sheet kept from what the table tells, with no match object at hand.

A client seated by a table driver (the local table, or the network session) never holds
the :class:`~lodam_p2p.games.lorum.Match`: it hears a deal begin (its first view names
dealer and contract) and end (``DealEnded``, whose ``detail`` is the deal's
:class:`~lodam_p2p.games.lorum.DealResult`). :class:`LorumLedger` keeps those results and
settles the beans the way the match does (LORUM.md 8), so that the score sheet, the
purses, the pfennig sales and the pot are drawn the same on every seat. A voided deal
(a proven breach) scores ``breach_points`` for its offender alone, in the contract's row
and, with beans, into the pot.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lodam_p2p.games.lorum import Contract, DealResult, Options, Scoring
from lodam_p2p.games.lorum.beans import Purse, pay_into_pot, settle
from lodam_p2p.games.lorum.plan import eldest_of
from lodam_p2p.ui.lorum.model import ScoreSheet


@dataclass(slots=True)
class LorumLedger:
    """Results and purses of one match, as the table reported them."""

    options: Options
    players: int
    results: list[DealResult] = field(default_factory=list)
    breaches: list[tuple[int, Contract]] = field(default_factory=list)
    purse: Purse | None = None

    def __post_init__(self) -> None:
        if self.purse is None:
            self.purse = Purse.start(self.players)

    @property
    def deals_total(self) -> int:
        """Deals in the match without breaches: contracts × players × rounds."""
        return len(self.options.contracts) * self.players * self.options.rounds

    def round_over(self) -> int:
        """The round the last scored deal completed, when another round follows; else 0
        (voided deals are dealt again, so they do not count)."""
        per_round = len(self.options.contracts) * self.players
        done = len(self.results)
        if not done or done % per_round or done >= per_round * self.options.rounds:
            return 0
        return done // per_round

    def deal_ended(self, result: DealResult, dealer: int) -> None:
        """A deal dealt by ``dealer`` is scored."""
        self.results.append(result)
        if self.options.scoring is Scoring.BEANS:
            assert self.purse is not None
            settle(self.purse, result.contract, result.points, result.out,
                   eldest_of(self.players, dealer))

    def breach(self, seat: int, contract: Contract) -> None:
        """A deal of ``contract`` was voided by ``seat``'s proven breach."""
        self.breaches.append((seat, contract))
        if self.options.scoring is Scoring.BEANS:
            assert self.purse is not None
            pay_into_pot(self.purse, seat, self.options.breach_points)

    def sheet(self) -> ScoreSheet:
        """The sheet as it stands."""
        sheet = ScoreSheet.from_results(self.options, self.players, self.results,
                                        self.breaches)
        if self.options.scoring is not Scoring.BEANS:
            return sheet
        p = self.purse
        assert p is not None
        return ScoreSheet(sheet.players, sheet.contracts, sheet.points, sheet.dealt,
                          sheet.per_contract, sheet.totals, Scoring.BEANS, tuple(p.beans),
                          tuple(p.pfennigs), p.pot, p.pot_pfennigs)


def offenders(counter_change: tuple[int, ...], points: tuple[int, ...]) -> list[int]:
    """The seats a voided deal charged: those it took from, else those it scored."""
    charged = [s for s, c in enumerate(counter_change) if c < 0]
    return charged or [s for s, p in enumerate(points) if p > 0]
