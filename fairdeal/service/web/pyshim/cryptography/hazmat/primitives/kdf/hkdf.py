"""HKDF (RFC 5869) over the standard library's HMAC: extract, then expand."""

import hashlib
import hmac


class HKDF:
    def __init__(self, algorithm, length: int, salt: bytes | None, info: bytes | None, backend=None):
        if algorithm.name != "sha256":
            raise ValueError("this page's HKDF is HKDF-SHA256 only")
        if not 0 < length <= 255 * 32:
            raise ValueError("HKDF-SHA256 gives 1 to 8160 bytes")
        self._length, self._salt, self._info = length, salt or b"\x00" * 32, info or b""
        self._used = False

    def derive(self, key_material: bytes) -> bytes:
        if self._used:
            raise RuntimeError("an HKDF instance derives once (cryptography's AlreadyFinalized)")
        self._used = True
        prk = hmac.new(self._salt, bytes(key_material), hashlib.sha256).digest()
        out, block, counter = b"", b"", 1
        while len(out) < self._length:
            block = hmac.new(prk, block + self._info + bytes([counter]), hashlib.sha256).digest()
            out += block
            counter += 1
        return out[: self._length]
