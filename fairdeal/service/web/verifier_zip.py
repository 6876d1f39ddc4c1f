"""`GET /verifier.zip`: the verifier the verify page runs in Pyodide, made from this installation's own files.

The zip holds `fairdeal/__init__.py` and every module of `fairdeal/core` exactly as the installed package has them
(the code `fairdeal-verify` runs), the package's metadata (its version), and the page's Python beside it
(pyshim/: the page's entry and the few `cryptography` names the core imports). Made once per process, byte for
byte the same for the same files (fixed times, sorted names), so its ETag changes only with the code.
"""

from __future__ import annotations

import functools
import hashlib
import io
import zipfile
from importlib import metadata
from pathlib import Path

import fairdeal
import fairdeal.core

SHIM = Path(__file__).resolve().parent / "pyshim"
_STAMP = (1980, 1, 1, 0, 0, 0)  # the zip format's first date: no build time in the bytes


def _files() -> list[tuple[str, bytes]]:
    package = Path(fairdeal.__file__).resolve().parent
    core = Path(fairdeal.core.__file__).resolve().parent
    out = [("fairdeal/__init__.py", (package / "__init__.py").read_bytes())]
    out += [(f"fairdeal/core/{p.relative_to(core).as_posix()}", p.read_bytes()) for p in core.rglob("*.py")]
    out += [(p.relative_to(SHIM).as_posix(), p.read_bytes()) for p in SHIM.rglob("*.py")]
    try:
        dist = metadata.distribution("fairdeal")
        info = f"fairdeal-{dist.version}.dist-info"
        out.append((f"{info}/METADATA", f"Metadata-Version: 2.1\nName: fairdeal\nVersion: {dist.version}\n".encode()))
    except metadata.PackageNotFoundError:  # a source tree never installed: __version__ says 0+unknown there too
        pass
    return sorted(out)


@functools.lru_cache(maxsize=1)
def verifier_zip() -> tuple[bytes, str]:
    """(the zip's bytes, its ETag)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in _files():
            info = zipfile.ZipInfo(name, _STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    body = buf.getvalue()
    return body, hashlib.sha256(body).hexdigest()[:32]
