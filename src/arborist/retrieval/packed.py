"""Derived indexes saved in the store as plain arrays, opened as numpy views of the stored bytes.

Why: a process that opens a large store must not rebuild Python objects (a list of a million chunk ids,
a dict of a million titles) before its first search. A saved index is a tagged header and raw arrays;
opening it is reading the blob, and strings are decoded only when one is asked for.
"""

from __future__ import annotations

import json

import numpy as np


class Strings:
    """A list of strings kept as one UTF-8 byte array and offsets: a view of a saved blob costs nothing
    to open, and only the strings read are decoded."""

    def __init__(self, data: np.ndarray, offsets: np.ndarray) -> None:
        self.data = data  # uint8
        self.offsets = offsets  # int64, len + 1

    @classmethod
    def of(cls, items: list[str]) -> Strings:
        encoded = [s.encode("utf-8") for s in items]
        offsets = np.zeros(len(encoded) + 1, np.int64)
        np.cumsum([len(b) for b in encoded], out=offsets[1:])
        return cls(np.frombuffer(b"".join(encoded), np.uint8), offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def raw(self, i: int) -> bytes:
        return self.data[self.offsets[i] : self.offsets[i + 1]].tobytes()

    def __getitem__(self, i: int) -> str:
        return self.raw(i).decode("utf-8")

    def tolist(self) -> list[str]:
        return [self[i] for i in range(len(self))]

    def find(self, item: str) -> int | None:
        """Position of `item` in these strings, which must be sorted (UTF-8 byte order is code point order)."""
        key = item.encode("utf-8")
        lo, hi = 0, len(self)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.raw(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(self) and self.raw(lo) == key else None


_ALIGN = 64


def pack(tag: str, arrays: dict[str, np.ndarray]) -> bytes:
    """`tag`, an 8-byte header length, a JSON header (name -> dtype, offset, count), then each array's raw
    bytes at an aligned offset. Plain bytes: nothing in a saved index can run code when read."""
    magic = tag.encode("utf-8") + b"\n"
    layout: dict[str, tuple[str, int, int]] = {}
    offset = 0
    for name, a in arrays.items():
        offset = -(-offset // _ALIGN) * _ALIGN
        layout[name] = (a.dtype.str, offset, int(a.size))
        offset += a.nbytes
    header = json.dumps(layout).encode("utf-8")
    start = -(-(len(magic) + 8 + len(header)) // _ALIGN) * _ALIGN
    out = bytearray(start + offset)
    out[: len(magic)] = magic
    out[len(magic) : len(magic) + 8] = len(header).to_bytes(8, "little")
    out[len(magic) + 8 : len(magic) + 8 + len(header)] = header
    for name, a in arrays.items():
        _, off, _ = layout[name]
        out[start + off : start + off + a.nbytes] = np.ascontiguousarray(a).tobytes()
    return bytes(out)


def unpack(tag: str, data: bytes) -> dict[str, np.ndarray]:
    """Read-only numpy views of the arrays `pack` wrote under `tag`: no copy, no per-item work."""
    magic = tag.encode("utf-8") + b"\n"
    if not data.startswith(magic):
        raise ValueError(f"not a saved {tag} index")
    size = int.from_bytes(data[len(magic) : len(magic) + 8], "little")
    layout = json.loads(data[len(magic) + 8 : len(magic) + 8 + size])
    start = -(-(len(magic) + 8 + size) // _ALIGN) * _ALIGN
    return {name: np.frombuffer(data, dtype=np.dtype(dtype), count=count, offset=start + off)
            for name, (dtype, off, count) in layout.items()}
