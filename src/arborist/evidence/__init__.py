"""Evidence selection (EvidenceK) and context admission (rune budget)."""

from arborist.evidence.admission import Admission, EvidenceChunk, admit

__all__ = ["Admission", "EvidenceChunk", "admit"]
