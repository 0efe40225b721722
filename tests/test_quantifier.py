"""Question-shape classes: ALL, COMPREHENSIVE, OPEN_REQUEST, EXISTENTIAL, SINGLE."""

from __future__ import annotations

import pytest

from arborist.verify import QuantifierClass as QC
from arborist.verify import classify_quantifier

CASES = [
    # list / extraction questions
    ("Songs by Marta Ballestrini", QC.OPEN_REQUEST, True),
    ("works by Italo Calvino", QC.OPEN_REQUEST, True),
    ("novels of Elsa Morante?", QC.OPEN_REQUEST, True),
    ("What songs did Marta Ballestrini record?", QC.OPEN_REQUEST, True),
    ("Which songs did she record in 1999?", QC.OPEN_REQUEST, True),
    ("What other albums did she release?", QC.OPEN_REQUEST, True),
    ("What are the ingredients of a sourdough starter?", QC.OPEN_REQUEST, True),
    ("Who were the members of the band?", QC.OPEN_REQUEST, True),
    ("What kinds of tea were traded?", QC.OPEN_REQUEST, True),
    ("Name the keepers of the lighthouse", QC.OPEN_REQUEST, True),
    ("In which cities did she perform?", QC.OPEN_REQUEST, True),
    ("List all songs by Marta Ballestrini", QC.ALL, True),
    ("Which songs did every member write?", QC.ALL, True),
    ("List the songs on her first album", QC.COMPREHENSIVE, True),
    ("Give me the complete discography of Marta Ballestrini", QC.COMPREHENSIVE, True),
    ("Summarise everything known about the lighthouse", QC.COMPREHENSIVE, True),
    ("Is there any song about the sea?", QC.EXISTENTIAL, False),
    ("Are there any recordings from 1999?", QC.EXISTENTIAL, False),
    ("Does Marta Ballestrini have a brother?", QC.EXISTENTIAL, False),
    ("Has she ever toured Japan?", QC.EXISTENTIAL, False),
    # single values and yes/no
    ("Who wrote Il Faro?", QC.SINGLE, True),
    ("What is the price of a guided climb?", QC.SINGLE, True),
    ("Which album came first?", QC.SINGLE, True),
    ("When was the lighthouse built?", QC.SINGLE, True),
    ("How many songs did she record?", QC.SINGLE, True),
    ("Is Marta Ballestrini Italian?", QC.SINGLE, False),
    ("Did the keeper retire at all?", QC.SINGLE, False),
    ("has oceania always been at war with east asia", QC.SINGLE, False),
]


@pytest.mark.parametrize(("question", "kind", "extraction"), CASES)
def test_classes(question: str, kind: QC, extraction: bool) -> None:
    q = classify_quantifier(question)
    assert q.kind is kind, q.rule
    assert q.extraction is extraction, q.rule
    assert q.rule


def test_yes_no_flag_and_guard_shape() -> None:
    yes_no = classify_quantifier("Is Marta Ballestrini Italian?")
    assert yes_no.yes_no and not yes_no.extraction and not yes_no.extraction_shaped
    existential = classify_quantifier("Is there any song about the sea?")
    assert existential.yes_no and existential.extraction_shaped
    single_value = classify_quantifier("Who wrote Il Faro?")
    assert not single_value.yes_no and single_value.extraction_shaped


def test_classification_ignores_case_quotes_and_punctuation() -> None:
    a = classify_quantifier("\u201cWHAT   SONGS did Marta record??\u201d")
    b = classify_quantifier("what songs did marta record")
    assert a == b and a.kind is QC.OPEN_REQUEST


def test_at_all_is_not_a_universal() -> None:
    assert classify_quantifier("Did she win at all?").kind is QC.SINGLE
    assert classify_quantifier("Did she win all the prizes?").kind is QC.ALL


def test_empty_question_is_single() -> None:
    q = classify_quantifier("")
    assert q.kind is QC.SINGLE and not q.extraction
