"""Evaluation files bound to a corpus by digest, dataset importers and metrics."""
