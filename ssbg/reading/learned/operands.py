"""Features of a literal's candidate readings, for the learned grounding scorer (edge, ADR 0021).

The proposers of :data:`ssbg.reading.grounding.CANDIDATE_RULES` give each number of a solution its
candidate readings (an earlier result, a mention of the question, a cued constant, ...) with the prior
of the rule that proposed them; the words give their evidence (the unit the solution writes beside the
number, the words its line shares with the candidate's).  The scorer weighs these as features instead
of adding them with hand-set weights: ``score = Σ weight · feature``, the factor ``operand`` of the
shipped model (:mod:`ssbg.reading.learned.model`).

>>> sorted(operand_features("mention", "mention", 2.0, rank=0, n=2, used=False, twin=1, overlap=1.5, op="multiply"))[:3]
['o:first=False', 'o:hand', 'o:kind=mention']
"""

from __future__ import annotations

__all__ = ["operand_features"]


def _proposer(label: str) -> str:
    """The family of the rule that proposed a candidate, from its label."""
    if label.startswith("step"):
        return "step"
    if label.startswith("scaled"):
        return "scaled"
    if label.startswith("part of"):
        return "part"
    if label.startswith("constant"):
        return "said" if "solution's words" in label else "constant"
    return "mention"


def operand_features(
    kind: str,
    label: str,
    prior: float,
    *,
    rank: int,
    n: int,
    used: bool,
    twin: int,
    overlap: float,
    op: str | None,
    recency: int | None = None,
    constant: str | None = None,
    hand: float = 0.0,
) -> dict[str, float]:
    """The features of one candidate reading of a literal.

    ``kind`` is ``step``, ``mention`` or ``constant``; ``label`` names the proposer; ``prior`` is the
    proposer's prior; ``rank`` the candidate's place among the literal's ``n`` candidates (the
    proposers' order); ``used`` whether its mention already stands for another number; ``twin`` +1
    when the solution writes the candidate's unit beside the number, -1 another unit, 0 none;
    ``overlap`` the weighted words the line shares with it; ``op`` the operation; ``recency`` how many
    results back an earlier result is; ``constant`` a constant's id; ``hand`` the rules' own score (the
    prior plus the hand-weighed evidence), so the model learns where to depart from it.
    """
    fam = _proposer(label)
    nb = str(min(n, 5))
    f: dict[str, float] = {
        f"o:kind={fam}": 1.0,
        f"o:kind={fam}*n={nb}": 1.0,
        f"o:kind={fam}*op={op}": 1.0,
        "o:prior": prior,
        "o:hand": hand,
        f"o:first={rank == 0 and fam != 'mention'}": 1.0,
    }
    if used:
        f["o:used"] = 1.0
        f[f"o:used*op={op}"] = 1.0
    if twin:
        f[f"o:twin={twin}"] = 1.0
        f[f"o:twin={twin}*kind={fam}"] = 1.0
    if overlap:
        f["o:overlap"] = min(overlap, 6.0)
        f[f"o:overlap*kind={fam}"] = min(overlap, 6.0)
    if recency is not None:
        f[f"o:recency={min(recency, 4)}"] = 1.0
    if constant is not None:
        f[f"o:constant={constant}"] = 1.0
        f[f"o:constant*op={op}"] = 1.0
    return f
