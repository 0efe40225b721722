"""load_documents: folders, .json lists, .jsonl; every failure is an InputError naming the file."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from arborist.corpus import SourceDocument
from arborist.corpus.loaders import load_documents, load_inputs
from arborist.errors import InputError


def by_id(docs: list[SourceDocument]) -> dict[str, SourceDocument]:
    return {d.source_id: d for d in docs}


# -- folders -------------------------------------------------------------


def test_folder_is_read_recursively_with_relative_source_ids(fixtures: Path) -> None:
    docs = by_id(load_documents([fixtures / "small"]))
    assert sorted(docs) == ["alpha.md", "notes.txt", "sub/deeper/beta.md", "sub/gamma.markdown"]


def test_folder_ignores_files_that_are_not_text(fixtures: Path) -> None:
    docs = load_documents([fixtures / "small"])
    assert not any("ignored" in d.source_id for d in docs)
    assert not any("folder ingest reads" in d.text for d in docs)


def test_title_is_first_heading_else_file_name(fixtures: Path) -> None:
    docs = by_id(load_documents([fixtures / "small"]))
    assert docs["alpha.md"].title == "Alpha Heading"
    assert docs["sub/deeper/beta.md"].title == "Beta Section"  # leading blank lines, closing hashes
    assert docs["sub/gamma.markdown"].title == "Gamma Page"
    assert docs["notes.txt"].title == "notes"  # no heading: the file name


def test_text_is_normalised(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "crlf.md").write_bytes("# Cafe\u0301\r\n\r\nline one   \r\nline two\r\n\r\n".encode())
    (doc,) = load_documents([tmp_path / "d"])
    assert doc.title == "Café" and len(doc.title) == 4  # NFC
    assert doc.text == "# Café\n\nline one\nline two"


def test_single_text_file_uses_its_name_as_source_id(fixtures: Path) -> None:
    (doc,) = load_documents([fixtures / "small" / "sub" / "deeper" / "beta.md"])
    assert doc.source_id == "beta.md"
    assert doc.title == "Beta Section"


def test_utf8_bom_does_not_hide_the_heading(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "windows.md").write_bytes("\ufeff# Saved On Windows\n\nBody.\n".encode())
    (doc,) = load_documents([tmp_path / "d"])
    assert doc.title == "Saved On Windows"
    assert not doc.text.startswith("\ufeff")


def test_setext_heading_is_a_heading(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "old-style.md").write_text("Underlined Title\n================\n\nBody text.\n")
    (doc,) = load_documents([tmp_path / "d"])
    assert doc.title == "Underlined Title"


def test_empty_folder_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "data.csv").write_text("a,b\n")
    with pytest.raises(InputError, match=r"folder '.*empty' holds no .*\.md"):
        load_documents([tmp_path / "empty"])


# -- .json and .jsonl ------------------------------------------------------


def test_json_list_with_ids(fixtures: Path) -> None:
    docs = by_id(load_documents([fixtures / "records" / "with_ids.json"]))
    assert sorted(docs) == ["rec-1", "rec-2", "rec-3"]
    assert docs["rec-1"].title == "Harbour Cranes"
    assert docs["rec-2"].text.startswith("A glass blower")  # extra keys are ignored
    assert docs["rec-3"].title == ""


def test_json_list_without_ids_gets_stable_content_ids_and_drops_repeats(fixtures: Path) -> None:
    path = fixtures / "records" / "without_ids.json"
    first, second = load_documents([path]), load_documents([path])
    assert len(first) == 2  # the repeated "Paper Kites" record is the same document
    assert all(re.fullmatch(r"sha256:[0-9a-f]{16}", d.source_id) for d in first)
    assert len({d.source_id for d in first}) == 2
    assert [d.source_id for d in first] == [d.source_id for d in second]
    assert {d.title for d in first} == {"Paper Kites", "Clay Ovens"}


def test_content_id_changes_with_content(write_json: Callable[[str, object], Path]) -> None:
    (a,) = load_documents([write_json("a.json", [{"title": "T", "text": "some text"}])])
    (b,) = load_documents([write_json("b.json", [{"title": "T", "text": "other text"}])])
    (c,) = load_documents([write_json("c.json", [{"title": "U", "text": "some text"}])])
    assert len({a.source_id, b.source_id, c.source_id}) == 3


def test_jsonl_skips_blank_lines(fixtures: Path) -> None:
    docs = by_id(load_documents([fixtures / "records" / "lines.jsonl"]))
    assert sorted(docs) == ["line-1", "line-3"]
    assert docs["line-3"].title == "Salt Marsh"


def test_several_inputs_are_combined(fixtures: Path) -> None:
    docs = load_documents(
        [fixtures / "small", fixtures / "records" / "with_ids.json", fixtures / "records" / "lines.jsonl"]
    )
    assert len(docs) == 4 + 3 + 2


# -- errors ----------------------------------------------------------------


def test_missing_path(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "docs.json"
    with pytest.raises(InputError, match="does not exist") as exc:
        load_documents([missing])
    assert str(missing) in str(exc.value)


def test_non_utf8_file_names_file_and_problem(fixtures: Path) -> None:
    path = fixtures / "malformed" / "latin1.txt"
    with pytest.raises(InputError, match="not UTF-8") as exc:
        load_documents([path])
    assert str(path) in str(exc.value)


def test_non_utf8_file_inside_a_folder_is_skipped_and_named(tmp_path: Path) -> None:
    (tmp_path / "d" / "sub").mkdir(parents=True)
    (tmp_path / "d" / "good.md").write_text("# Good\n\nfine")
    (tmp_path / "d" / "sub" / "bad.txt").write_bytes(b"caf\xe9\n")
    loaded = load_inputs([tmp_path / "d"])
    assert [d.source_id for d in loaded.documents] == ["good.md"]
    assert [(s.path, s.reason) for s in loaded.skipped] == [
        ("sub/bad.txt", "not UTF-8 text (invalid byte at position 3)")
    ]
    # A caller that must read exactly what it was given still fails, naming the file.
    with pytest.raises(InputError, match=r"bad\.txt.*not UTF-8"):
        load_documents([tmp_path / "d"])


# -- what a folder may hold that is not the user's text (issue 34, findings 4 and 6) ------------


def test_symlink_out_of_the_folder_is_skipped_and_reported(tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "secret.md"
    secret.parent.mkdir()
    secret.write_text("# Secret\n\nroot:x:0:0:root:/root:/bin/bash")
    folder = tmp_path / "d"
    (folder / "sub").mkdir(parents=True)
    (folder / "good.md").write_text("# Good\n\nfine")
    (folder / "passwd.md").symlink_to(secret)
    (folder / "sub" / "escape").symlink_to(secret.parent, target_is_directory=True)
    loaded = load_inputs([folder])
    assert [d.source_id for d in loaded.documents] == ["good.md"]
    assert not any("root:x" in d.text for d in loaded.documents)
    reasons = {s.path: s.reason for s in loaded.skipped}
    assert set(reasons) == {"passwd.md", "sub/escape/"}
    assert all("outside the folder" in r and str(secret.parent) in r for r in reasons.values())


def test_follow_symlinks_reads_links_out_of_the_folder(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "shared.md").write_text("# Shared\n\nshared text")
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "own.md").write_text("# Own\n\nown text")
    (folder / "linked.md").symlink_to(outside / "shared.md")
    (folder / "more").symlink_to(outside, target_is_directory=True)
    (folder / "loop").symlink_to(folder, target_is_directory=True)  # walked once, not forever
    loaded = load_inputs([folder], follow_symlinks=True)
    assert sorted(d.source_id for d in loaded.documents) == ["linked.md", "more/shared.md", "own.md"]
    assert loaded.skipped == []


def test_links_inside_the_folder_are_read_once_where_they_point(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    (folder / "real").mkdir(parents=True)
    (folder / "real" / "a.md").write_text("# A\n\ntext a")
    (folder / "alias").symlink_to(folder / "real", target_is_directory=True)
    loaded = load_inputs([folder])
    assert [d.source_id for d in loaded.documents] == ["real/a.md"]
    assert loaded.skipped == []


def test_file_of_nul_bytes_is_skipped_in_a_folder_and_refused_alone(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "good.md").write_text("# Good\n\nfine")
    (folder / "zeros.txt").write_bytes(b"\x00" * 65536)  # valid UTF-8, yet not text
    (folder / "mixed.md").write_bytes(b"# Looks like text\n\x00\x01\x02")
    loaded = load_inputs([folder])
    assert [d.source_id for d in loaded.documents] == ["good.md"]
    assert {s.path: s.reason for s in loaded.skipped} == {
        "mixed.md": "binary, not text (holds NUL bytes, the first at byte 18)",
        "zeros.txt": "binary, not text (holds NUL bytes, the first at byte 0)",
    }
    with pytest.raises(InputError, match=r"zeros\.txt' is binary, not text"):
        load_documents([folder / "zeros.txt"])


def test_undecodable_file_name_is_skipped_and_named_not_failing_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "good.md").write_text("# Good\n\nfine")
    try:
        with open(os.fsencode(folder) + b"/caf\xe9.md", "wb") as f:  # a Latin-1 name
            f.write(b"# Cafe\n\ntext")
    except OSError:
        pytest.skip("this file system does not take file names that are not UTF-8")
    loaded = load_inputs([folder])
    assert [d.source_id for d in loaded.documents] == ["good.md"]
    assert [(s.path, s.reason) for s in loaded.skipped] == [("caf\\xe9.md", "file name is not UTF-8; rename it")]


def test_folder_with_nothing_readable_names_what_was_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "passwd.md").symlink_to("/etc/passwd")
    with pytest.raises(InputError, match=r"holds no .* \(1 skipped: 'passwd\.md': link to '/etc/passwd', outside"):
        load_inputs([folder])


def test_malformed_json_names_line_and_column(fixtures: Path) -> None:
    path = fixtures / "malformed" / "bad_syntax.json"
    with pytest.raises(InputError, match=r"not valid JSON: .* at line 3, column \d+") as exc:
        load_documents([path])
    assert str(path) in str(exc.value)


def test_json_that_is_not_a_list(fixtures: Path) -> None:
    with pytest.raises(InputError, match=r"not_a_list\.json' must hold a JSON list.*got dict"):
        load_documents([fixtures / "malformed" / "not_a_list.json"])


def test_jsonl_bad_line_names_line_number(fixtures: Path) -> None:
    path = fixtures / "malformed" / "bad_line.jsonl"
    with pytest.raises(InputError, match=r"line 2 is not valid JSON") as exc:
        load_documents([path])
    assert str(path) in str(exc.value)


def test_object_without_text(fixtures: Path) -> None:
    path = fixtures / "malformed" / "no_text.json"
    with pytest.raises(InputError, match=r"item 1: object has no 'text' field") as exc:
        load_documents([path])
    assert str(path) in str(exc.value)


def test_jsonl_line_that_is_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"id": "a", "text": "ok"}\n["not", "an", "object"]\n')
    with pytest.raises(InputError, match=r"x\.jsonl' line 2: expected an object"):
        load_documents([path])


@pytest.mark.parametrize(
    ("record", "problem"),
    [
        ({"id": "a", "text": 7}, "'text' must be a string"),
        ({"id": "a", "title": ["x"], "text": "t"}, "'title' must be a string"),
        ({"id": "", "text": "t"}, "'id' must be a non-empty string"),
        ({"id": 12, "text": "t"}, "'id' must be a non-empty string"),
    ],
)
def test_bad_field_types(write_json: Callable[[str, object], Path], record: dict, problem: str) -> None:
    path = write_json("typed.json", [record])
    with pytest.raises(InputError, match=re.escape(problem)) as exc:
        load_documents([path])
    assert "typed.json" in str(exc.value)


def test_duplicate_ids_in_one_file(fixtures: Path) -> None:
    with pytest.raises(InputError, match=r"duplicate document id 'twin'.*dup_ids\.json"):
        load_documents([fixtures / "malformed" / "dup_ids.json"])


def test_duplicate_ids_across_files_names_both(write_json: Callable[[str, object], Path]) -> None:
    one = write_json("one.json", [{"id": "same", "text": "first version"}])
    two = write_json("two.json", [{"id": "same", "text": "second version"}])
    with pytest.raises(InputError, match="duplicate document id 'same'") as exc:
        load_documents([one, two])
    assert "one.json" in str(exc.value) and "two.json" in str(exc.value)


def test_same_folder_twice_is_a_duplicate(fixtures: Path) -> None:
    with pytest.raises(InputError, match="duplicate document id 'alpha.md'"):
        load_documents([fixtures / "small", fixtures / "small"])


def test_empty_text_is_an_error(fixtures: Path) -> None:
    with pytest.raises(InputError, match="'blank'.*empty text"):
        load_documents([fixtures / "malformed" / "empty_text.json"])


@pytest.mark.parametrize("name", ["table.csv", "README.rst", "data.yaml", "archive.tar.gz"])
def test_unsupported_suffix(tmp_path: Path, fixtures: Path, name: str) -> None:
    path = fixtures / "malformed" / name
    if not path.exists():
        path = tmp_path / name
        path.write_text("content\n")
    with pytest.raises(InputError, match=r"cannot ingest .*expected a folder, \.json, \.jsonl") as exc:
        load_documents([path])
    assert name in str(exc.value)


def test_errors_fail_the_whole_load(fixtures: Path) -> None:
    # A bad input after a good one: nothing is returned, the error names the bad one.
    with pytest.raises(InputError, match="bad_line.jsonl"):
        load_documents([fixtures / "records" / "with_ids.json", fixtures / "malformed" / "bad_line.jsonl"])
