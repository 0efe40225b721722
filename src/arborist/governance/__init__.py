"""The answer cache and the hash-chained audit log (the policies and their hashes are in `arborist.policy`)."""
