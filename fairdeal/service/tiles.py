"""The log as static tiles and entry bundles (c2sp.org/tlog-tiles; docs/log.md, "Tiles").

  tile/<L>/<N>[.p/<W>]        hash i (0 <= i < W, W = 256 unless partial) is the hash of the complete subtree
                              of 256**L leaves number N*256 + i: MTH(D[(N*256+i)*256**L : (N*256+i+1)*256**L])
  tile/entries/<N>[.p/<W>]    leaves N*256 .. N*256+W-1, each as a big-endian uint16 length and its bytes

<N> is written in 3-digit groups, all but the last prefixed with "x" (1234067 is x001/x234/067). A tile is served
only when every hash in it is covered by the latest signed checkpoint; its bytes never change after that.
"""

from __future__ import annotations

import re
import struct

from fairdeal.service.errors import ApiError

WIDTH = 256
HEIGHT = 8  # log2(WIDTH): a tile spans 8 levels of the tree
MAX_LEVEL = 63
_GROUP = re.compile(r"x[0-9]{3}\Z")
_LAST = re.compile(r"[0-9]{3}\Z")
_WIDTH = re.compile(r"[1-9][0-9]{0,2}\Z")
_LEVEL = re.compile(r"(0|[1-9][0-9]?)\Z")


def index_path(n: int) -> str:
    """N in tile paths: 1234067 -> x001/x234/067, 5 -> 005."""
    text = f"{n:03d}"
    text = "0" * (-len(text) % 3) + text
    groups = [text[i : i + 3] for i in range(0, len(text), 3)]
    return "/".join([f"x{g}" for g in groups[:-1]] + [groups[-1]])


def tile_path(level: int | str, n: int, width: int = WIDTH) -> str:
    """The path of a tile (level "entries" for an entry bundle) under the log's prefix."""
    return f"tile/{level}/{index_path(n)}" + ("" if width == WIDTH else f".p/{width}")


def parse_tile_path(rest: str) -> tuple[int | None, int, int]:
    """(level or None for an entry bundle, N, width) of the part of a tile path after "tile/"; else 400."""

    def bad() -> ApiError:
        return ApiError(
            400,
            "bad-tile-path",
            f"Not a tile path tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>] "
            f"(N in 3-digit groups, all but the last prefixed with x): "
            f"{rest[:80]!r}.",
        )

    parts = rest.split("/")
    width = WIDTH
    if len(parts) >= 3 and parts[-2].endswith(".p"):
        if not _WIDTH.match(parts[-1]) or int(parts[-1]) >= WIDTH:
            raise bad()
        width = int(parts[-1])
        parts = parts[:-2] + [parts[-2][:-2]]
    if len(parts) < 2:
        raise bad()
    head, groups = parts[0], parts[1:]
    if not all(_GROUP.match(g) for g in groups[:-1]) or not _LAST.match(groups[-1]) or len(groups) > 7:
        raise bad()
    n = int("".join(g.lstrip("x") for g in groups))
    if index_path(n) != "/".join(groups):  # one path per tile: no needless leading zero groups
        raise bad()
    if head == "entries":
        return None, n, width
    if not _LEVEL.match(head) or int(head) > MAX_LEVEL:
        raise bad()
    return int(head), n, width


def _covered(translog, level: int, n: int, width: int) -> None:
    """404 unless the tile's last hash lies within the latest signed checkpoint."""
    size = translog.latest_head()["size"]
    last = (n * WIDTH + width) << (HEIGHT * level)
    if last > size:
        raise ApiError(
            404,
            "tile-not-found",
            f"The latest checkpoint ({size} leaves) does not cover this tile (it would need {last}).",
        )


def tile_hashes(translog, level: int, index: int, width: int) -> bytes:
    """The tile's bytes: `width` 32-byte hashes, each of a complete subtree of 256**level leaves."""
    _covered(translog, level, index, width)
    height = HEIGHT * level
    return b"".join(translog.tile_hashes([(height, index * WIDTH + i) for i in range(width)]))  # one read


def entry_bundle(translog, index: int, width: int) -> bytes:
    """The bundle's bytes: each leaf's bytes (canonical JSON, hashed as the tree's leaf) after its uint16
    big-endian length."""
    _covered(translog, 0, index, width)
    out = bytearray()
    for text in translog.leaf_texts(index * WIDTH, index * WIDTH + width):
        data = text.encode("utf-8")
        out += struct.pack(">H", len(data)) + data
    return bytes(out)
