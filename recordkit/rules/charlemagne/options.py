"""Charlemagne variant options (RULES-NOTES §5); every field has the default reading of the notes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from recordkit.model import Strict


class CharlemagneOptions(Strict):
    """Variant switches for Charlemagne; the defaults are the standard (Canadian) game of the source."""

    variant: Literal["standard", "maine"] = Field(
        "standard",
        description="standard: 34 cards with two jokers, a kitty, bids Five to Gros Charlemagne, game to 32. "
        "maine: the Maine game of the source: 32 cards, no kitty, bids One to Charlemagne naming a suit.",
    )
    all_pass: Literal["redeal_next_dealer", "dealer_forced_5"] = Field(
        "redeal_next_dealer",
        description="Standard game, when the first three players pass: the dealer may pass too and the "
        "cards are dealt again by the next dealer, or the dealer must bid (C-A3). The Maine dealer is "
        "always forced.",
    )
    gros_mulot_expose: Literal["after_first_trick", "before_first_lead"] = Field(
        "after_first_trick",
        description="When the Gros Mulot bidder spreads his hand face up (C-A6); information only.",
    )
    gros_charlemagne_allow_no_exchange: bool = Field(
        False,
        description="Gros Charlemagne may keep his hand, taking neither the kitty nor a card from his "
        "partner (C-A5). By default he takes exactly one of the two.",
    )
    allow_early_claim: bool = Field(
        False,
        description="A player may claim the remaining tricks between two tricks instead of playing them "
        "out (C-A10). By default all eight tricks are played.",
    )
    maine_target: Literal[21, 32] = Field(
        21, description="Maine game: the score that wins the game (C-A11); the standard game is to 32."
    )
    maine_lone_defender_priority: Literal["left_of_bidder_first", "either"] = Field(
        "left_of_bidder_first",
        description="Maine Charlemagne alone: the opponent on the bidder's left answers first whether he "
        "goes alone too, then the other; or either opponent may, in any order (C-A12).",
    )
