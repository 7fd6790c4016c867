"""Rules are data you can point at: every rule id the code cites is defined in the spec documents."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
RULE_ID = re.compile(r'"((?:tarot|format)\.[a-z0-9.-]*[a-z0-9])"')
TEMPLATE = re.compile(r'f"((?:tarot)\.[a-z.-]+)\.\{kind\}"')
SPECS = {"tarot": ROOT / "spec" / "rules" / "french-tarot.md", "format": ROOT / "spec" / "FORMAT.md"}


def cited_rule_ids() -> set[str]:
    """Rule ids written in the package's source, with misère's two kinds expanded."""
    ids: set[str] = set()
    for path in (ROOT / "recordkit").rglob("*.py"):
        text = path.read_text()
        ids |= set(RULE_ID.findall(text))
        for prefix in TEMPLATE.findall(text):
            ids |= {f"{prefix}.trumps", f"{prefix}.honours"}
    return ids


def test_the_code_cites_rules() -> None:
    assert len(cited_rule_ids()) > 40


def test_every_cited_rule_id_is_defined_in_its_spec() -> None:
    missing = []
    for rule in sorted(cited_rule_ids()):
        spec = SPECS[rule.split(".")[0]].read_text()
        if not re.search(rf"`{re.escape(rule)}`", spec):
            missing.append(rule)
    assert missing == [], f"rule ids cited by the code but not defined in spec/: {missing}"
