"""Answer verification (docs/verifier.md): explainable word rules, and an entailment judge behind one protocol.

`verify_answer` labels an answer STRICT / HYBRID / UNGROUNDED / ABSTAINED with per-claim verdicts and reason
codes (`REASONS`); it imports no model provider and nothing from the CLI.
"""

from arborist.verify.checks import Check
from arborist.verify.policy import PolicyError, VerifierPolicy, load_policy, verifier_policy_hash
from arborist.verify.quantifier import Quantifier, QuantifierClass, classify_quantifier
from arborist.verify.reasons import REASONS, AuditMode, Label, Reason, Verdict
from arborist.verify.schema import MODES, Evidence, VerifyInputError
from arborist.verify.verifier import ClaimChecks, ClaimVerification, Verification, find_denials, verify_answer

__all__ = [
    "MODES",
    "REASONS",
    "AuditMode",
    "Check",
    "ClaimChecks",
    "ClaimVerification",
    "Evidence",
    "Label",
    "PolicyError",
    "Quantifier",
    "QuantifierClass",
    "Reason",
    "Verdict",
    "Verification",
    "VerifierPolicy",
    "VerifyInputError",
    "classify_quantifier",
    "find_denials",
    "load_policy",
    "verifier_policy_hash",
    "verify_answer",
]
