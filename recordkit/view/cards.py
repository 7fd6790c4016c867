"""How a card looks in a view: its suit's symbol, name and colour, by deck (presentation only;
what a card does is the ruleset's to say)."""

from __future__ import annotations

from typing import Any

from recordkit.cards import Deck

FRENCH = {
    "S": ("♠", "spades", "black"),
    "H": ("♥", "hearts", "red"),
    "D": ("♦", "diamonds", "red"),
    "C": ("♣", "clubs", "black"),
}
"""The French suits, as the Tarot, Charlemagne and Karnöffel decks write them."""

SUITS: dict[str, dict[str, tuple[str, str, str]]] = {
    "French Tarot": {**FRENCH, "T": ("T", "trumps", "trump"), "X": ("★", "the Excuse", "excuse")},
    "Charlemagne": {**FRENCH, "X": ("★", "joker", "joker")},
    "Joffre": {
        "E": ("E", "England", "england"),
        "F": ("F", "France", "france"),
        "R": ("R", "Russia", "russia"),
        "G": ("G", "Germany", "germany"),
    },
}
"""Each deck family's suits (or nations): symbol, name and colour class (RULES-NOTES §0.1 for
Joffre's nations: England red, France blue, Russia green, Germany brown)."""

ASCII = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "★": "*"}
"""The letters a terminal without UTF-8 shows for the symbols."""


def _family(deck: Deck) -> dict[str, tuple[str, str, str]]:
    """The suits of the deck's family (its name without the size: `Joffre (32 cards)`)."""
    for name, suits in SUITS.items():
        if deck.name.startswith(name):
            return suits
    return FRENCH


def card_face(deck: Deck, card: int) -> dict[str, Any]:
    """A card as the views draw it: its code, suit letter, rank text, suit symbol and colour."""
    code = deck.codes[card]
    suit = deck.suits[card]
    symbol, name, colour = _family(deck).get(suit, (suit, suit, "black"))
    rank = code[1:] if code.startswith(suit) else code
    if code == "EX":
        rank = "Excuse"
    return {"code": code, "suit": suit, "rank": rank, "symbol": symbol, "suit_name": name, "colour": colour}


def faces(deck: Deck, cards: list[int]) -> list[dict[str, Any]]:
    """Several cards' faces, in the order given."""
    return [card_face(deck, card) for card in cards]


def label(face: dict[str, Any], symbols: bool) -> str:
    """A card as a line of text shows it: `♠K` with the suit's symbol where the terminal has them
    (the Excuse `★`), else its code."""
    if not symbols or face["symbol"] == face["suit"]:
        return str(face["code"])
    if face["code"] == "EX":
        return "★"
    return f"{face['symbol']}{face['rank']}"
