"""What a French Tarot contract's score depends on, as a score sheet writes it: the facts a played
deal's replay gives (`scoring.contract_facts`) and a score sheet's line states (`sheet.sheet_facts`),
both scored by the same functions of `scoring`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ContractFacts:
    """What a contract's score depends on, as a score sheet writes it. A played deal gives them
    from its replay (`contract_facts`), a score sheet's line from its `result`: both are scored by
    `count_contract` and `contract_deal_scores`, so each scoring rule is stated once."""

    players: int
    contract: int
    """The bid's strength, 1 (petite) to 4 (garde contre)."""
    taker: int
    partner: int | None
    """Five players: the called card's holder; None when the taker plays alone."""
    half_points: int
    """The attack's card points, doubled."""
    bouts: int
    petit_au_bout: int = 0
    """+1 when the attack wins the Petit au bout, -1 when the defence does, 0 when nobody."""
    poignees: tuple[str, ...] = ()
    """The level of each poignée shown, by either side."""
    slam: str | None = None
    """One of SLAM_OUTCOMES, None when nobody won every trick and no slam was announced."""
    miseres: tuple[int, ...] = ()
    """The seat of each misère declared (a seat twice for both kinds)."""


SLAM_OUTCOMES = ("made", "announced_made", "announced_failed", "defence", "announced_defence")
"""A deal's slam as the score sheet writes it: the attack won every trick unannounced or after
announcing it, an announced slam failed, the defence won every trick (unannounced or announced)."""
