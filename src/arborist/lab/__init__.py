"""The lab: answer-quality runs as self-contained run directories, on top of the answer path.

Nothing in arborist imports the lab except the CLI; the lab calls the
engine, the answer path, the evaluation format, the verifier and the model
registry, and writes everything it did into one run directory.
"""
