"""P-256 (SECP256R1) keys and ECDH by @noble/curves: what fairdeal.core.blind.group asks of cryptography."""

from dataclasses import dataclass

import fairdeal_noble  # the page's JS module (static/js/verifier/python.js)

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


class SECP256R1:
    name = "secp256r1"
    key_size = 256


class ECDH:
    pass


@dataclass(frozen=True)
class EllipticCurvePublicNumbers:
    x: int
    y: int
    curve: SECP256R1


class EllipticCurvePublicKey:
    def __init__(self, point_hex: str):
        self._hex = point_hex  # the uncompressed SEC 1 form, 04‖X‖Y

    @classmethod
    def from_encoded_point(cls, curve, data) -> "EllipticCurvePublicKey":
        _p256(curve)
        point = fairdeal_noble.p256_point(bytes(data).hex())  # "" for bytes that are no point of the curve
        if not point:
            raise ValueError("Invalid EC key.")
        return cls(point)

    def public_numbers(self) -> EllipticCurvePublicNumbers:
        return EllipticCurvePublicNumbers(int(self._hex[2:66], 16), int(self._hex[66:], 16), SECP256R1())


class EllipticCurvePrivateKey:
    def __init__(self, k: int):
        self._k = k
        self._scalar = f"{k:064x}"

    def public_key(self) -> EllipticCurvePublicKey:
        return EllipticCurvePublicKey(fairdeal_noble.p256_base(self._scalar))

    def exchange(self, algorithm, peer: EllipticCurvePublicKey) -> bytes:
        if not isinstance(algorithm, ECDH):
            raise ValueError("only ECDH")
        return bytes.fromhex(fairdeal_noble.p256_exchange(self._scalar, peer._hex))


def derive_private_key(private_value: int, curve, backend=None) -> EllipticCurvePrivateKey:
    _p256(curve)
    if type(private_value) is not int or not 1 <= private_value < N:
        raise ValueError("private_value must be in [1, n-1]")
    return EllipticCurvePrivateKey(private_value)


def _p256(curve) -> None:
    if not isinstance(curve, SECP256R1):
        raise ValueError("this page's cryptography knows the curve SECP256R1 only")
