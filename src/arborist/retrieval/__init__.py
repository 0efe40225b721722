"""Retrieval routes over the corpus store, fused by Reciprocal Rank Fusion."""

from arborist.retrieval.search import SearchHit, SearchResult, SearchSettings, search

__all__ = ["SearchHit", "SearchResult", "SearchSettings", "search"]
