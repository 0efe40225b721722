"""Prompt assembly: evidence map, user-payload layouts, versioned templates."""
