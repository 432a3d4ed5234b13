"""The rules page (key ``r``) for both games, as plain text a newcomer reads in two minutes.

The page is the short form of the players' guides, docs/rules-lodam.md and
docs/rules-lorum.md: every title here is a heading there, and every word the page
defines is defined there too (tests/ui/test_rules_docs.py checks both).

:func:`rules_page` takes the game's name, its options and what is being played now (the
Lorum contract; for Lodam nothing more is needed, the options say what a deal asks) and
returns titled paragraphs; the screen wraps them to its width. :func:`contract_rule` is
the one line that says what scores in a contract (the Lorum header uses it too).
"""

from __future__ import annotations

from dataclasses import dataclass

from lodam_p2p.games.lodam import ExchangeRule
from lodam_p2p.games.lodam import Options as LodamOptions
from lodam_p2p.games.lorum import Contract, LorumStart, Scoring
from lodam_p2p.games.lorum import Options as LorumOptions
from lodam_p2p.ui.german import CONTRACT_NAMES

#: The title of the paragraph of words a player meets on the screen.
WORDS_TITLE = "Words on the screen"

#: Lodam's words on the screen and what they mean, under the keys (``?``); the rules page
#: itself says what a coat, a loader, a renounce, the talon and a swallow are.
LODAM_WORDS = (
    ("eldest", "the player left of the dealer, who leads first"),
    ("talon", "the cards not dealt"),
    ("counters", "your lives (♥)"),
    ("(silent)", "that player's machine stopped answering; the table waits for it"),
)

#: Lorum's words on the screen and what they mean.
LORUM_WORDS = (
    ("U", "Unter"),
    ("O", "Ober (the two knaves, between 10 and K)"),
    ("eldest", "the player left of the dealer, who leads first"),
    ("run", "Quart's cards played up a suit"),
    ("row", "a suit laid in order in Lorum"),
    ("pass", "nothing fits the rows: 1 point"),
    ("(silent)", "that player's machine stopped answering; the table waits for it"),
)

#: Leaving never pays (protocol/SPEC.md), in both games.
LEAVING = ("Leaving never pays: whoever quits the table, or is put out of it for cheating "
           "or silence, ranks below every player who did not, and cannot win, whatever "
           "the score.")


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A titled paragraph of the rules page."""

    title: str
    text: str


def contract_rule(contract: Contract, options: LorumOptions, players: int = 4) -> str:
    """What scores in ``contract``, in a line: ``every heart 1 point``."""
    if contract is Contract.REDS:
        return "every heart 1 point"
    if contract is Contract.OBERS:
        return "every Ober 2 points"
    if contract is Contract.TRICKS:
        return "every trick 1 point"
    if contract is Contract.FIRST_LAST:
        short = " (2 cards each)" if options.first_last_short else ""
        return f"the first and the last trick {options.first_last_points} points each{short}"
    if contract is Contract.FIFTH:
        return f"trick {options.fifth_trick} alone scores {options.fifth_points()}"
    if contract is Contract.RED_KING:
        if options.red_king_blind:
            return "blind, K♥ 5 points"
        return "K♥ 16 first trick, 32 last (64 announced), else 8"
    if contract is Contract.QUARTET:
        return "runs of four; 1 point a card left when someone is out"
    return "lay in rows; a pass 1 point, 1 a card left at the end"


def contract_title(contract: Contract, options: LorumOptions, players: int = 4) -> str:
    """``Rote — reds: every heart 1 point``."""
    german, english = CONTRACT_NAMES[contract]
    return f"{german} — {english}: {contract_rule(contract, options, players)}"


def rules_page(game: str, options: LorumOptions | LodamOptions,
               contract: Contract | None = None, players: int = 4) -> list[Paragraph]:
    """The rules page of ``game`` (``"lorum"`` or ``"lodam"``)."""
    if game == "lorum":
        assert isinstance(options, LorumOptions)
        return _lorum(options, contract, players)
    assert isinstance(options, LodamOptions)
    return _lodam(options)


def named_page(game: str, options: LorumOptions | LodamOptions, contract: str | None,
               players: int = 4) -> list[Paragraph]:
    """:func:`rules_page` with the Lorum contract given by its name (``quartet``);
    ``ValueError`` for a name that is not one, or a contract for Lodam."""
    if contract is None:
        return rules_page(game, options, None, players)
    if game != "lorum":
        raise ValueError("--contract is a Lorum contract; Losing Lodam has none")
    try:
        chosen = Contract(contract)
    except ValueError:
        names = ", ".join(c.value for c in Contract)
        raise ValueError(f"unknown contract {contract!r} (one of {names})") from None
    return rules_page(game, options, chosen, players)


# -- Lorum -------------------------------------------------------------------------------

def _lorum(options: LorumOptions, contract: Contract | None, players: int) -> list[Paragraph]:
    count = len(options.contracts)
    pack = ("32 German cards, 8 each" if players == 4 else
            "the German pack without 7● 8● (set aside face up), 10 each")
    win = ("Every point costs a bean; the most beans (a pfennig is 20) win."
           if options.scoring is Scoring.BEANS else
           "Every point is a penalty: the lowest total wins.")
    contracts = f"{count} contract{'s' if count != 1 else ''}"
    page = [Paragraph("Lorum", f"{players} players, {pack}. Suits ▼ Eichel, ▲ Grün, ♥ Herz, "
                               f"● Schellen; ranks 7 8 9 10 U O K A. {contracts}, each "
                               f"dealt {players} times in turn. {win} {LEAVING}")]
    order = "; ".join(f"{CONTRACT_NAMES[c][0]} ({contract_rule(c, options, players)})"
                      for c in options.contracts)
    page.append(Paragraph("The contracts, in turn", f"{order}. The dealer passes to the "
                          "left after every deal."))
    if contract is not None:
        text = _contract_text(contract, options, players)
        if options.scoring is Scoring.BEANS:
            text += f" Beans: {_beans_words(contract)}."
        page.append(Paragraph(f"Now: {CONTRACT_NAMES[contract][0]} "
                              f"({CONTRACT_NAMES[contract][1]})", text))
    page.append(Paragraph(WORDS_TITLE, _words(LORUM_WORDS)))
    page.append(Paragraph("Keys", "Type a card as rank then suit (oh: Ober of Herz; 10e, "
                                  "ag, us) or pick it with ←/→, then Enter. a announces "
                                  "the Red King, n keeps quiet; h hints; s the score "
                                  "sheet; r this page (↑/↓ scroll); ? the keys; q leaves "
                                  "(asks first); Esc closes a panel."))
    return page


def _words(words: tuple[tuple[str, str], ...]) -> str:
    """``Eldest: …. Talon: ….``: the words of a game, each with its meaning."""
    return " ".join(f"{word[:1].upper()}{word[1:]}: {meaning}." if word[0].isalpha() else
                    f"{word}: {meaning}." for word, meaning in words)


def _beans_words(contract: Contract) -> str:
    """Where the beans paid for ``contract`` go (LORUM.md 8; docs/rules-lorum.md, Beans)."""
    if contract in (Contract.REDS, Contract.OBERS, Contract.TRICKS):
        return "one bean a point, shared by the one or two who took none, else to the pot"
    if contract is Contract.QUARTET:
        return "one bean a point, to whoever went out first"
    if contract is Contract.LORUM:
        return "one bean a point to whoever went out first, who also takes the whole pot"
    return "one bean a point, into the pot"


def _contract_text(contract: Contract, options: LorumOptions, players: int) -> str:
    scores = f"What scores: {contract_rule(contract, options, players)}."
    if contract is Contract.QUARTET:
        return ("Lead any card. Whoever holds the next higher card of that suit plays it, "
                "then the next, until four are down or the next is gone; the last to play "
                "leads again (an Ace runs alone). You never choose a run card: if you hold "
                "it, it is played. The first player out of cards ends the deal; every card "
                "left in a hand scores 1 point. Lead cards that start long runs.")
    if contract is Contract.LORUM:
        if options.lorum_start is LorumStart.UNTER:
            start = ("Every row starts with an Unter and grows up to the Ace and down to "
                     "the 7. In turn, lay one card: the next above or below a row, or the "
                     "Unter of a new suit.")
        else:
            start = ("The eldest lays any card: its rank starts every row. A row grows by "
                     "the next higher card; after the Ace comes the 7. In turn, lay one "
                     "card: the next card of a row, or the starting rank of a new suit.")
        end = ("The deal goes on after the first is out: later cards left score 2, then 3."
               if options.lorum_play_on else
               "The first player out of cards ends the deal: every card left in a hand "
               "scores 1.")
        return f"{start} If nothing fits you pass and score 1 point. {end}"
    return (f"Tricks: follow suit if you can, else play anything; no trumps, the highest "
            f"card of the suit led wins and leads next. {scores} "
            f"{_trick_extra(contract, options)}").strip()


def _trick_extra(contract: Contract, options: LorumOptions) -> str:
    if contract is Contract.REDS:
        return ("In the first trick nobody may lead or discard a heart while holding "
                "other suits. The deal stops once all hearts are taken.")
    if contract is Contract.OBERS:
        return ("In the first trick no Ober may be led or discarded while you hold other "
                "cards, and you follow with an Ober only if it is your only card of the "
                "suit. The deal stops once all Obers are taken.")
    if contract is Contract.TRICKS:
        return "Take as few tricks as you can."
    if contract is Contract.FIRST_LAST:
        return "Keep low cards for the first and the last trick."
    if contract is Contract.FIFTH:
        return "The deal stops after the scoring trick."
    if options.red_king_blind:
        return ("Blind: nobody sees their cards; on your turn your next card is played for "
                "you, whatever the suit.")
    return ("Before the last trick the holder may announce the red king: whoever takes it "
            "then scores 64. The deal stops once it is taken.")


# -- Lodam -------------------------------------------------------------------------------

def _lodam(options: LodamOptions) -> list[Paragraph]:
    goal = (f"Gain a counter by reaching {options.out_at} points first (or holding the most "
            f"when the cards run out); {options.lives} counters win."
            if options.winning else
            f"Reach {options.out_at} points and you are out of the deal and lose a counter "
            f"(a life, ♥; or the most points when the cards run out); lose all "
            f"{options.lives} and you leave the match. The last player holding counters "
            f"wins.")
    page = [Paragraph("Losing Lodam", "Tricks with a French pack: follow suit if you can; "
                      "if you cannot, play any card (a renounce). Points are the loaders you "
                      "take: A 11, 10 10, K 3, Q 2, J 1. " + goal + " " + LEAVING)]
    page.append(Paragraph("This deal", " ".join(_lodam_deal(options))))
    return page


def _lodam_deal(options: LodamOptions) -> list[str]:
    words = []
    if options.exchanges is not ExchangeRule.OFF:
        when = ("before every trick" if options.exchanges is ExchangeRule.EVERY_TRICK else
                "before the first trick")
        words.append(f"Exchanges {when}: offer a coat (K Q J) for a coat or a card (A 10) "
                     f"for a card, face down, or make no offer (p); the others accept with "
                     f"the same kind or decline (p); same suit and it is void.")
    words.append("No trumps at first: the first renounce turns the top card of the talon "
                 "(the cards not dealt): its suit is trump for the rest of the deal.")
    if options.trump_memory:
        words.append("The trump is shown briefly: remember it.")
    words.append("If a trump takes a trick, whoever played the highest card of the suit led "
                 "may swallow it (y; n leaves it): take the trick and its points, and "
                 "lead.")
    if options.declare_out:
        words.append(f"Totals are hidden: declare out (d) at a trick boundary with "
                     f"{options.out_at} or more, and you may challenge a player.")
    else:
        words.append(f"The deal ends the moment someone reaches {options.out_at}.")
    return words


def page_lines(page: list[Paragraph], width: int) -> list[tuple[str, str]]:
    """The page as (style, text) lines at ``width`` columns: each title, its wrapped text,
    a blank line between paragraphs (for either game's rules panel)."""
    lines: list[tuple[str, str]] = []
    for para in page:
        lines.append(("class:panel.title", para.title))
        lines += [("", line) for line in wrap(para.text, width)]
        lines.append(("", ""))
    return lines[:-1]


def wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` columns, at spaces."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines
