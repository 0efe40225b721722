"""arborist: grounded question answering over your own documents.

Every boundary of the answer path records what it kept and what it dropped,
so a wrong answer can be traced to the step that lost the evidence.
"""

__version__ = "0.1.0"
