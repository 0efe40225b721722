"""Policies and canonical hashing: the models every layer above hashes and records.

Below `answer`, `governance` and `verify` (each needs them, none owns them),
so those packages never import one another to name a policy. Imports only
the layers the answer policy is made of (corpus, retrieval, prompting,
models), never the ones that use it.
"""
