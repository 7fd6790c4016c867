"""Card identities, the decks of the four games, and the text notation (RULES-NOTES §0.1).

A card is a small int, its index in its deck. Codes are suit (or nation) first, then rank,
case-insensitive on input (ASCII letters only), upper-case on output. Each deck carries its own aliases, read
position by position (first character = suit) so that rank letters never clash with suits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

_SEPARATORS = re.compile(r"[\s,;]+")
PLAIN_GROUP = re.compile(r"[A-Z0-9]+(?: [A-Z0-9]+)*")
"""Upper-case codes separated by single spaces: a group that splitting and upper-casing leave as is."""


_TO_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_TO_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_upper(text: str) -> str:
    """`text` with the ASCII letters a-z upper-cased and every other character kept: `str.upper`
    would read the long s `ſ6` as `S6` and `ﬀ` as `FF` (issue 15)."""
    return text.upper() if text.isascii() else text.translate(_TO_UPPER)


def ascii_lower(text: str) -> str:
    """`text` with the ASCII letters A-Z lower-cased and every other character kept: `str.lower`
    would read the Kelvin sign `K` as `k`."""
    return text.lower() if text.isascii() else text.translate(_TO_LOWER)


class CardError(ValueError):
    """A card code that is not in the deck; carries the offending code for the message."""

    def __init__(self, code: str, deck: str, hint: str = "") -> None:
        self.code = code
        self.deck = deck
        super().__init__(f"unknown card {code!r} for {deck}{hint}")


@dataclass(frozen=True)
class Deck:
    """The cards of one game (or variant), with their suits, ranks and accepted aliases."""

    name: str
    codes: tuple[str, ...]
    suits: tuple[str, ...]
    ranks: tuple[int, ...]
    aliases: dict[str, str] = field(default_factory=dict)
    index: dict[str, int] = field(init=False, repr=False, compare=False)
    canonical_codes: frozenset[str] = field(init=False, repr=False, compare=False)
    """The canonical codes, for telling at once that a group needs no re-spelling."""

    def __post_init__(self) -> None:
        index = {code: i for i, code in enumerate(self.codes)}
        for alias, code in self.aliases.items():
            index.setdefault(alias, index[code])
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "canonical_codes", frozenset(self.codes))

    def __len__(self) -> int:
        return len(self.codes)

    def card(self, code: str) -> int:
        """The id of a card code, aliases and case accepted; CardError if it is not in this deck."""
        found = self.index.get(code)
        if found is None:
            found = self.index.get(ascii_upper(code.strip()))
            if found is None:
                raise CardError(code, self.name, self._hint())
        return found

    def is_canonical(self, text: str) -> bool:
        """Whether a card group is already canonical: canonical codes separated by single spaces."""
        return self.canonical_codes.issuperset(text.split(" "))

    def canonical(self, code: str) -> str:
        """The canonical spelling of a card code."""
        return self.codes[self.card(code)]

    def cards(self, text: str | Sequence[str]) -> list[int]:
        """Ids of a group of cards written as one string ("HK T21 EX") or as a list of codes."""
        return [self.card(code) for code in split_codes(text)]

    def mask(self, ids: Iterable[int]) -> int:
        """A bitmask of card ids."""
        bits = 0
        for card in ids:
            bits |= 1 << card
        return bits

    def format(self, ids: Iterable[int]) -> str:
        """Canonical text of a group of cards, in the given order."""
        return " ".join(self.codes[i] for i in ids)

    def format_mask(self, mask: int) -> str:
        """Canonical text of the cards in a bitmask, in deck order."""
        return self.format(ids_of(mask))

    def _hint(self) -> str:
        return f" (cards look like {', '.join(self.codes[i] for i in (0, len(self.codes) // 2, -1))})"


def split_codes(text: str | Sequence[str]) -> list[str]:
    """The codes of a card group written as a string or a list; empty items are dropped."""
    if isinstance(text, str):
        return [code for code in _SEPARATORS.split(text) if code]
    return list(text)


def ids_of(mask: int) -> list[int]:
    """The card ids set in a bitmask, lowest first."""
    ids = []
    while mask:
        low = mask & -mask
        ids.append(low.bit_length() - 1)
        mask ^= low
    return ids


# --- French Tarot -------------------------------------------------------------------------------

TAROT_SUITS = "SHDC"
TAROT_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
TAROT_TRUMP_SUIT = "T"
TAROT_EXCUSE_SUIT = "X"


@cache
def tarot_deck() -> Deck:
    """78 cards: ids 0-55 suit cards (S, H, D, C; 1..K), 56-76 trumps T1..T21, 77 the Excuse."""
    codes: list[str] = []
    suits: list[str] = []
    ranks: list[int] = []
    aliases: dict[str, str] = {}
    rank_aliases = {"K": ("R",), "Q": ("D",), "N": ("C",), "J": ("V",), "1": ("A", "01")}
    for suit in TAROT_SUITS:
        for value, rank in enumerate(TAROT_RANKS, start=1):
            code = suit + rank
            codes.append(code)
            suits.append(suit)
            ranks.append(value)
            for alias in rank_aliases.get(rank, ()):
                aliases[suit + alias] = code
            if len(rank) == 1 and rank.isdigit():
                aliases[suit + "0" + rank] = code
    for value in range(1, 22):
        code = f"T{value}"
        codes.append(code)
        suits.append(TAROT_TRUMP_SUIT)
        ranks.append(value)
        if value < 10:
            aliases[f"T0{value}"] = code
    codes.append("EX")
    suits.append(TAROT_EXCUSE_SUIT)
    ranks.append(0)
    for alias in ("FOOL", "EXC", "EXCUSE", "T0"):
        aliases[alias] = "EX"
    return Deck("French Tarot", tuple(codes), tuple(suits), tuple(ranks), aliases)


# --- Charlemagne (standard with jokers, Maine without) ----------------------------------------

CHARLEMAGNE_SUITS = "SHDC"
CHARLEMAGNE_RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
JOKER_SUIT = "X"


@cache
def charlemagne_deck(jokers: bool = True) -> Deck:
    """32 cards S, H, D, C x 7..A (rank 7 = 1 ... A = 8), plus X1 (high) and X2 (low) jokers."""
    codes: list[str] = []
    suits: list[str] = []
    ranks: list[int] = []
    aliases: dict[str, str] = {}
    for suit in CHARLEMAGNE_SUITS:
        for value, rank in enumerate(CHARLEMAGNE_RANKS, start=1):
            codes.append(suit + rank)
            suits.append(suit)
            ranks.append(value)
        aliases[suit + "T"] = suit + "10"
    if jokers:
        for value, code in ((2, "X1"), (1, "X2")):
            codes.append(code)
            suits.append(JOKER_SUIT)
            ranks.append(value)
    name = "Charlemagne" if jokers else "Charlemagne (Maine)"
    return Deck(name, tuple(codes), tuple(suits), tuple(ranks), aliases)


# --- Karnöffel ------------------------------------------------------------------------------------

KARNOFFEL_SUITS = "SCHD"
KARNOFFEL_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@cache
def karnoffel_deck(size: int = 48) -> Deck:
    """48 cards S, C, H, D x 2..K (rank = face value, J 11, Q 12, K 13); 52 adds aces (rank 14)."""
    if size not in (48, 52):
        raise ValueError(f"a Karnöffel deck has 48 or 52 cards, not {size}")
    ranks_used = KARNOFFEL_RANKS if size == 52 else KARNOFFEL_RANKS[:-1]
    codes: list[str] = []
    suits: list[str] = []
    ranks: list[int] = []
    aliases: dict[str, str] = {}
    for suit in KARNOFFEL_SUITS:
        for value, rank in enumerate(ranks_used, start=2):
            codes.append(suit + rank)
            suits.append(suit)
            ranks.append(value)
        aliases[suit + "T"] = suit + "10"
    return Deck(f"Karnöffel ({size} cards)", tuple(codes), tuple(suits), tuple(ranks), aliases)


# --- Joffre (the nations deck) ----------------------------------------------------------------

JOFFRE_NATIONS = "EFRG"
# Standard-pack equivalents (RULES-NOTES §0.1): F = hearts, G = spades, E = diamonds, R = clubs;
# 7 ~ A, 6 ~ K, 5 ~ Q, 4 ~ J, 3 ~ 10, 2 ~ 9, 1 ~ 8, 0 ~ 7.
JOFFRE_PACK_SUITS = {"E": "D", "F": "H", "R": "C", "G": "S"}
JOFFRE_PACK_RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")


@cache
def joffre_deck(players: int = 4) -> Deck:
    """32 cards E, F, R, G x 0..7 (rank = number); at three players E0 and R0 are left out."""
    if players not in (3, 4):
        raise ValueError(f"Joffre is played by 3 or 4 players, not {players}")
    codes: list[str] = []
    suits: list[str] = []
    ranks: list[int] = []
    aliases: dict[str, str] = {}
    for nation in JOFFRE_NATIONS:
        for value in range(8):
            code = f"{nation}{value}"
            if players == 3 and code in ("E0", "R0"):
                continue
            codes.append(code)
            suits.append(nation)
            ranks.append(value)
            pack_suit = JOFFRE_PACK_SUITS[nation]
            aliases[pack_suit + JOFFRE_PACK_RANKS[value]] = code
            if JOFFRE_PACK_RANKS[value] == "10":
                aliases[pack_suit + "T"] = code
    # A Kaiser pack marks the Joffre as the 5 of hearts and the Kaiser as the 3 of spades.
    aliases["H5"] = "F0"
    aliases["S3"] = "G0"
    return Deck(f"Joffre ({len(codes)} cards)", tuple(codes), tuple(suits), tuple(ranks), aliases)
