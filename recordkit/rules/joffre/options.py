"""Joffre variant options (RULES-NOTES §5, `joffre.*`); every field has the default reading of the notes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from recordkit.model import Strict


class JoffreOptions(Strict):
    """Variant switches for Joffre; the defaults are the source text's literal reading."""

    mode: Literal["individual", "teams"] = Field(
        "individual",
        description="individual: every player for himself (the source's wording). teams: four players, "
        "partners opposite (seats 0 and 2 against 1 and 3); the contract and the points are the team's (J-A1).",
    )
    bid_unit: Literal["tricks", "points"] = Field(
        "tricks",
        description="tricks: a bid is the number of tricks the bidder will take (the source). "
        "points: a bid is made when the points taken (tricks, +5 Joffre, -3 Kaiser) reach it, as in Kaiser (J-A2).",
    )
    min_bid: int = Field(
        1,
        ge=1,
        le=14,
        description="The lowest bid allowed; the highest is the number of tricks (8 or 10), or in points "
        "12 at four players and 14 at three (J-A3).",
    )
    opening_bid_forced: bool = Field(
        True,
        description="The player on the dealer's left must open with a bid (the source: he 'calls the first "
        "bid'); false: he may pass (J-A4).",
    )
    all_pass: Literal["redeal_next_dealer", "dealer_forced_min"] = Field(
        "redeal_next_dealer",
        description="Only when the opening is not forced and everybody passes: the deal is thrown in and the "
        "next dealer deals, or the dealer, speaking last after three passes, must bid at least min_bid (J-A4).",
    )
    dealer_may_equal: bool = Field(
        False,
        description="The dealer, who speaks last, may take the contract by equalling the highest bid "
        "(a Kaiser privilege, not in the source) (J-A5).",
    )
    kaiser_capture: Literal["kaiser_is_winning_card", "same_trick", "none"] = Field(
        "kaiser_is_winning_card",
        description="When the player of the Joffre loses 5: when the Kaiser is the card that wins the trick "
        "holding the Joffre; whenever both fall in one trick that the Joffre does not win; or never (J-A8).",
    )
    opponent_cap: Literal["none", "kaiser47"] = Field(
        "none",
        description="kaiser47: a side that did not bid and has 47 or more before the deal adds no positive "
        "points in that deal (losses still count), as in Kaiser (J-A10).",
    )
    target: int = Field(
        40, ge=1, le=1000, description="The game is won by reaching this total or more (J-A12)."
    )
    end_tiebreak: Literal["highest_total_then_bidder", "bidder_first", "play_another_hand"] = Field(
        "highest_total_then_bidder",
        description="Who wins when several reach the target in the same deal: the highest total, a tie going "
        "to the bidder; the bidder if he reached it; or the highest total, a tie playing another deal (J-A12).",
    )
    allow_no_trump: bool = Field(
        False,
        description="Allow Kaiser's no-trump bids ('6 no trump'): they outrank the same number, the first "
        "lead sets no trump, and the bidder's score for the deal counts double (J-A13).",
    )
