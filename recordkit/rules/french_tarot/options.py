"""French Tarot variant options (RULES-NOTES §5); every field has the default reading of the notes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from recordkit.model import Strict


class TarotOptions(Strict):
    """Variant switches for French Tarot; the defaults are the FFT rules."""

    discard_policy: Literal["fft", "source_permissive"] = Field(
        "fft",
        description="fft: no King, no bout, trumps only if unavoidable (T-A1). "
        "source_permissive: anything but a bout may be discarded.",
    )
    excuse_last_trick: Literal["to_other_side", "to_trick_winner"] = Field(
        "to_other_side",
        description="Who gets the Excuse played to the last trick outside a slam: the side that did "
        "not play it (the source's 'it switches sides'), or the trick's winners like any card (T-A19).",
    )
    petit_sec: Literal["annul", "ignore"] = Field(
        "annul",
        description="annul: a hand whose only trump is the Petit, without the Excuse, voids the deal (T-A16).",
    )
    all_pass: Literal["redeal", "goulash"] = Field(
        "redeal", description="When everybody passes: redeal (FFT) or play the goulash (T-A11)."
    )
    misere: bool = Field(False, description="Allow the misère announcements of the source (T-A12).")
    called_suit_first_lead_ban: Literal["lead_card", "suit_setting_card", "off"] = Field(
        "lead_card",
        description="Five players: the first lead may not be in the called suit unless it is the called card. "
        "suit_setting_card extends the ban to the card after a led Excuse (T-A13).",
    )
    defence_slam_bonus: int = Field(
        200, ge=0, description="Each defender's bonus when the defence wins every trick (T-A6)."
    )
