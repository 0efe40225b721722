"""Sentinel ladders: does the model read its documents, and which wins when they disagree with what it believes?

A sentinel store is a copy of a real corpus in which, for every fact and
rung of a facts file, the fact's document has a variant with the rung's
value in place of the true one (`store`). A ladder run asks each fact's
question once per rung, with that rung's variant in the evidence, and counts
what the answers did with the value (`ladder`); every run is kept in a
history (`history`).
"""
