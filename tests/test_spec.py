"""Rules are data you can point at: every rule id the code cites is defined in its spec document."""

from __future__ import annotations

import re
from pathlib import Path

from recordkit.games import RULESETS

ROOT = Path(__file__).parent.parent
SPECS = {ruleset.rule_prefix: ROOT / ruleset.spec for ruleset in RULESETS.values()} | {
    "format": ROOT / "spec" / "FORMAT.md",
    "notation": ROOT / "spec" / "NOTATION.md",
}
PREFIXES = "|".join(sorted(SPECS))
RULE_ID = re.compile(rf'"((?:{PREFIXES})\.[a-z0-9.-]*[a-z0-9])"')
TEMPLATE = re.compile(rf'f"((?:{PREFIXES})\.[a-z.-]+)\.\{{kind\}}"')


def cited_rule_ids() -> set[str]:
    """Rule ids written in the package's source, with misère's two kinds expanded."""
    ids: set[str] = set()
    for path in (ROOT / "recordkit").rglob("*.py"):
        text = path.read_text()
        ids |= set(RULE_ID.findall(text))
        for prefix in TEMPLATE.findall(text):
            ids |= {f"{prefix}.trumps", f"{prefix}.honours"}
    return ids


def test_the_code_cites_rules_of_every_game() -> None:
    prefixes = {rule.split(".")[0] for rule in cited_rule_ids()}
    assert prefixes == set(SPECS)


def test_every_cited_rule_id_is_defined_in_its_spec() -> None:
    missing = []
    for rule in sorted(cited_rule_ids()):
        spec = SPECS[rule.split(".")[0]].read_text()
        if not re.search(rf"`{re.escape(rule)}`", spec):
            missing.append(rule)
    assert missing == [], f"rule ids cited by the code but not defined in spec/: {missing}"
