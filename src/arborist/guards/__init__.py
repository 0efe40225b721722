"""Guards the verifier consults: sidecars that read the evidence and the answer, and never promote a label.

- `instruction`: the instruction (prompt-injection) guard, which flags evidence
  that addresses the model instead of informing the reader; `directives` is
  its grammar of directives ("reply that ...") in four languages.
- `missed_answer`: the missed-answer guard, which warns when an answer denies
  that the evidence answers the question while the evidence holds candidate
  answers near the question's words (and its `DENIAL_PATTERNS`).

The guards sit below the verifier: `arborist.verify` imports them, they import
nothing of it (they read its evidence, items, chunks and tokens through the
fields they use, and the missed-answer guard is handed the verifier's reading
of text by `arborist.verify.verifier`). Their module-level tables are part of
the verifier's rule tables (`arborist.verify.policy.rule_tables_digest`), so a
word added to a guard changes `verifier_policy_hash`.
"""
