"""Karnöffel variant options (RULES-NOTES §5); every field has the default reading of the notes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from recordkit.model import Strict


class KarnoffelOptions(Strict):
    """Variant switches for Karnöffel; the defaults are the readings of spec/rules/karnoffel.md."""

    deck: Literal[48, 52] = Field(
        48,
        description="48: the pack without aces (K-A1). 52: the source's 'standard 52-card' pack; "
        "an ace ranks above the King of its suit and has no power of its own.",
    )
    chosen_suit_tiebreak: Literal["first_dealt", "suit_rank"] = Field(
        "first_dealt",
        description="Two face-up cards equally low: the first dealt chooses the suit, or the lower suit "
        "(spades > clubs > hearts > diamonds) does (K-A7).",
    )
    partial_trumps: Literal["led_suit_exceptions", "any_suit_exceptions", "linear_faq"] = Field(
        "led_suit_exceptions",
        description="How the partial trumps 3, 4, 5 of the chosen suit fare against Kings, Queens and "
        "Jacks: only those of the suit led stop them, those of any suit do, or the FAQ's linear order "
        "in which they beat every plain card (K-A2, K-A3).",
    )
    reraise: Literal["unlimited", "single", "max_total_raises"] = Field(
        "unlimited",
        description="Counter-raises: as many as the sides like in a window; one per window; or at most "
        "`max_total_raises` raises in the whole deal (K-A8).",
    )
    max_total_raises: int = Field(
        3, ge=1, le=30, description="With reraise = max_total_raises: the most raises a deal may hold (K-A8)."
    )
    dealer_after_surrender: Literal["next_in_rotation", "proposer"] = Field(
        "next_in_rotation",
        description="Who deals after a surrender: the next seat as always, or the player whose raise "
        "was refused (K-A10).",
    )
    raise_cap_when_game_reachable: bool = Field(
        True,
        description="Once the value in force lets either side reach the target, nobody may raise (K-A11).",
    )
    play_out: bool = Field(
        False,
        description="Play all five tricks even after a side has three; the score is the same (K-A13).",
    )
    target: int = Field(
        101,
        ge=11,
        le=10001,
        description="The score that wins the game, agreed beforehand: a multiple of ten plus one (K5).",
    )
    base_value: int = Field(4, ge=1, le=100, description="What a deal is worth before any raise (K3).")
    raise_step: int = Field(3, ge=1, le=100, description="What each raise adds to the value (K3).")

    @field_validator("target")
    @classmethod
    def _ten_plus_one(cls, target: int) -> int:
        """The source agrees targets as a multiple of ten plus one (31, 51, 101...)."""
        if target % 10 != 1:
            raise ValueError(f"the target is a multiple of ten plus one, like 51 or 101, not {target}")
        return target
