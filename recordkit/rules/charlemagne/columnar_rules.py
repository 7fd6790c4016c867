"""The tables Charlemagne's columnar check works from, built once per options from the ruleset's own.

Each card's suit and power under each trump come from `cards.context`, each contract's level, lone
hand, first lead and trump from the ladder (`bids.LADDERS`), every score from `scoring.scores_of`,
the target from `scoring.target`: the NumPy forms look them up rather than restate them. What is
restated here is which calls rows each contract's exchange may have (`exchanges`), held to the
replay's own steps by tests/test_charlemagne_columnar.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import orjson
from pydantic import ValidationError

from recordkit.rules.charlemagne import scoring
from recordkit.rules.charlemagne.auction import forced_applies
from recordkit.rules.charlemagne.bids import FORCED_LEVEL, LADDERS, Bid
from recordkit.rules.charlemagne.cards import DECKS, JOKER_SUIT, KITTY_SIZE, PLAYERS, TRICKS, context
from recordkit.rules.charlemagne.options import CharlemagneOptions
from recordkit.rules.charlemagne.state import CharlemagneState
from recordkit.rules.columns import Bools, Ints
from recordkit.rules.values import Table

KINDS = ("bid", "partner_card", "discard", "trump", "defence", "defender_card", "defender_discard", "knock")
"""The kinds of calls rows the check reads (a claim, or any other, is left to the record path)."""
BID, PARTNER_CARD, DISCARD, TRUMP, DEFENCE, DEFENDER_CARD, DEFENDER_DISCARD, KNOCK = range(len(KINDS))
ANSWER_PASS, ANSWER_ALONE = len(KINDS), len(KINDS) + 1
"""Row codes of the Maine defenders' answers `pass` and `alone` (other rows are coded by kind)."""
ANSWERS = ("pass", "alone")
EXCHANGE_ROWS = 6
"""The most calls rows between the auction and the play (a Maine lone Charlemagne and defender)."""
BASE = 16
"""Row codes are below BASE: a deal's exchange rows are one number, digit by digit in this base."""
NO_TRUMP = JOKER_SUIT
"""A no-trump deal's 'trump' index in the suit tables (the jokers' own suit then is the top one)."""
STANDARD_CODES = DECKS["standard"].codes
"""Card codes are looked up once in the standard deck, whose first 32 cards are the Maine deck."""
KITTY_TAKEN, DEFENDER_FROM, PARTNER_AT, TRUMP_AT, DEFENDER_CARD_AT, DEFENDER_DISCARD_AT = range(6)
DISCARD_AT = (6, 7, 8)
"""Columns of `Rules.exchange_table`: whether the kitty is taken, where the lone defender sits
from the bidder (0: none), and the exchange row of each card passed or discarded and of the
trump (-1: none)."""
KNOCK_WORDS = tuple(
    f"knock after card {after} of trick {trick}" for trick in range(1, TRICKS + 1) for after in range(5)
)
"""A knock's calls row (`Ruleset.describe`), numbered 5 * (trick - 1) + after."""


@dataclass(frozen=True)
class Exchange:
    """One way a contract goes from the auction to the play: its calls rows (row codes), whether the
    bidder takes the kitty, and where the lone defender sits from the bidder (0: none)."""

    rows: tuple[int, ...]
    kitty: bool = False
    defender: int = 0


@dataclass(frozen=True)
class Rules:
    """One variant and options as arrays: cards, ladder, exchanges, suits and powers, scores."""

    cards: int
    kitty: int
    bids: tuple[str, ...]
    level: Ints
    alone: Bools
    leads: Bools
    """Whether the bidder leads the first trick (else the player on his left)."""
    named: Bools
    """Whether the bidder names the trump after the exchange (standard Five to Gros Charlemagne)."""
    bid_suit: Ints
    """The trump a bid names, NO_TRUMP for none (or for one named after the exchange)."""
    forced: int
    """The level a forced dealer must bid at least, 0 when the dealer is not forced."""
    exchange_keys: Ints
    """Sorted keys contract * BASE**EXCHANGE_ROWS + exchange rows (`exchange_key`) of every exchange."""
    exchange_table: Ints
    """The exchange of each key, in the order of `exchange_keys` (columns KITTY_TAKEN...)."""
    suit: Ints
    """Each card's suit for following, by trump (0-3, NO_TRUMP): (5, cards)."""
    power: Ints
    jokers_apart: Bools
    """By trump: whether the jokers are apart and carry duties (standard Mulot, Gros Mulot)."""
    scores: Ints
    """Each seat's score by contract, bidder and tricks of the bidding side: (bids, 4, 9, 4)."""
    target: int


def exchange_key(contract: Ints, rows: Ints) -> Ints:
    """One number for each contract and the codes of its exchange rows ((k, EXCHANGE_ROWS), below
    BASE - 1; -1 where there is no row)."""
    weights = BASE ** np.arange(EXCHANGE_ROWS, dtype=np.int64)
    found: Ints = contract * BASE**EXCHANGE_ROWS + (rows + 1) @ weights
    return found


def exchanges(bid: Bid, options: CharlemagneOptions) -> list[Exchange]:
    """The calls rows a contract may have between the auction and the play, each way it can go
    (charlemagne.exchange.*, charlemagne.trump.named, charlemagne.defence.*)."""
    discard = (DISCARD,) * KITTY_SIZE["standard"]
    found = {
        "kitty": [Exchange(discard, kitty=True)],
        "kitty_and_partner": [Exchange((PARTNER_CARD, DISCARD, *discard), kitty=True)],
        "kitty_or_partner": [Exchange((PARTNER_CARD, DISCARD)), Exchange(discard, kitty=True)]
        + ([Exchange(())] if options.gros_charlemagne_allow_no_exchange else []),
        "partner": [
            *(
                Exchange((PARTNER_CARD, DISCARD, *answers))
                for answers in ((), (ANSWER_PASS,), (ANSWER_PASS,) * 2)
            ),
            Exchange((PARTNER_CARD, DISCARD, ANSWER_ALONE, DEFENDER_CARD, DEFENDER_DISCARD), defender=1),
            Exchange(
                (PARTNER_CARD, DISCARD, ANSWER_PASS, ANSWER_ALONE, DEFENDER_CARD, DEFENDER_DISCARD),
                defender=3,
            ),
        ],
        "none": [Exchange(())],
    }[bid.exchange]
    if bid.trump == "named":
        found = [Exchange((*e.rows, TRUMP), e.kitty, e.defender) for e in found]
    return found


@cache
def rules_of(text: str) -> Rules | None:
    """The rules of a games row's options (JSON text), None when they do not read as options."""
    try:
        options = CharlemagneOptions.model_validate(orjson.loads(text))
    except (orjson.JSONDecodeError, ValidationError):
        return None
    variant = options.variant
    deck = DECKS[variant]
    table = Table(options, PLAYERS, deck)
    ladder = LADDERS[variant]
    keyed = sorted(
        (int(exchange_key(np.array([index]), _padded(e.rows)[None, :])[0]), e)
        for index, bid in enumerate(ladder)
        for e in exchanges(bid, options)
    )
    contexts = [context(variant, trump) for trump in (0, 1, 2, 3, None)]
    probe = CharlemagneState(table, variant, 0, [0] * PLAYERS, [0] * PLAYERS, 0)
    return Rules(
        cards=len(deck),
        kitty=KITTY_SIZE[variant],
        bids=tuple(bid.name for bid in ladder),
        level=np.array([bid.level for bid in ladder], dtype=np.int64),
        alone=np.array([bid.alone for bid in ladder], dtype=bool),
        leads=np.array([bid.bidder_leads for bid in ladder], dtype=bool),
        named=np.array([bid.trump == "named" for bid in ladder], dtype=bool),
        bid_suit=np.array([NO_TRUMP if bid.suit is None else bid.suit for bid in ladder], dtype=np.int64),
        forced=FORCED_LEVEL[variant] if forced_applies(probe) else 0,
        exchange_keys=np.array([key for key, _ in keyed], dtype=np.int64),
        exchange_table=np.array([_row(e) for _, e in keyed], dtype=np.int64),
        suit=np.array([c.suit for c in contexts], dtype=np.int64),
        power=np.array([c.power for c in contexts], dtype=np.int64),
        jokers_apart=np.array([c.jokers_apart for c in contexts], dtype=bool),
        scores=np.array(
            [
                [
                    [scoring.scores_of(table, bid, bidder, won) for won in range(TRICKS + 1)]
                    for bidder in range(PLAYERS)
                ]
                for bid in ladder
            ],
            dtype=np.int64,
        ),
        target=scoring.target(table),
    )


def _row(exchange: Exchange) -> list[int]:
    """An exchange as a row of `Rules.exchange_table`."""
    rows = exchange.rows
    discards = [i for i, code in enumerate(rows) if code == DISCARD]
    row = [int(exchange.kitty), exchange.defender]
    row += [
        rows.index(code) if code in rows else -1
        for code in (PARTNER_CARD, TRUMP, DEFENDER_CARD, DEFENDER_DISCARD)
    ]
    return [*row, *discards, *([-1] * (len(DISCARD_AT) - len(discards)))]


def _padded(rows: tuple[int, ...]) -> Ints:
    """Exchange rows padded to EXCHANGE_ROWS with -1 (a digit 0: no row)."""
    return np.array([*rows, *([-1] * (EXCHANGE_ROWS - len(rows)))], dtype=np.int64)
