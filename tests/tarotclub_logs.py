"""TarotClub deal logs written from recordkit deals: the importer's mapping run backwards, to test
it on generated games (spec/IMPORT.md)."""

from __future__ import annotations

from typing import Any

from recordkit.importers.tarotclub import SEATS
from recordkit.rules.french_tarot.record import BIDS

NAMES = {"petite": "Take", "garde": "Guard", "garde_sans": "Guard without", "garde_contre": "Guard against"}
VALUES = {"J": 11, "N": 12, "Q": 13, "K": 14}


def tarotclub_card(code: str) -> str:
    """A recordkit code as TarotClub names the card: `HK` is `14-H`, `EX` is `00-T`."""
    if code == "EX":
        return "00-T"
    suit, rank = code[0], code[1:]
    return f"{VALUES.get(rank) or int(rank):02d}-{suit}"


def tarotclub_cards(codes: str) -> str:
    """A group of recordkit codes as a TarotClub deck string."""
    return ";".join(tarotclub_card(code) for code in codes.split())


def tarotclub_log(deal: dict[str, Any], players: int) -> dict[str, Any]:
    """The log TarotClub writes for a played deal of a generated record (hands, dog and tricks
    written in it, one contract taken)."""
    calls = [call if isinstance(call, str) else call["call"] for call in deal["auction"]]
    strongest = max(calls, key=BIDS.index)
    taker = (deal["dealer"] + 1 + calls.index(strongest)) % players
    slam = any(a["type"] == "slam" for a in deal.get("announcements", []))
    handles = {"attack": "", "defense": ""}
    for announcement in deal.get("announcements", []):
        if announcement["type"] == "poignee":
            side = "attack" if announcement["seat"] == taker else "defense"
            handles[side] = tarotclub_cards(announcement["cards"])
    tricks = [trick if isinstance(trick, str) else trick["cards"] for trick in deal["tricks"]]
    return {
        "version": "3",
        "deal_info": {
            "number_of_players": players,
            "taker": SEATS[taker],
            "contract": NAMES[strongest],
            "slam": slam,
            "first_trick_lead": SEATS[taker if slam else (deal["dealer"] + 1) % players],
            "dog": tarotclub_cards(deal["dog"]),
            "attack_handle": handles["attack"],
            "defense_handle": handles["defense"],
        },
        "tricks": [tarotclub_cards(trick) for trick in tricks],
    }
