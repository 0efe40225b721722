"""Policies and their hashes, the answer cache and the hash-chained audit log."""
