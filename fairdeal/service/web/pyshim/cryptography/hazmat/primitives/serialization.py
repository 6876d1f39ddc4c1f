"""Only the raw forms: the core reads and writes Ed25519 keys as their 32 raw bytes."""

import enum


class Encoding(enum.Enum):
    Raw = "Raw"


class PublicFormat(enum.Enum):
    Raw = "Raw"


class PrivateFormat(enum.Enum):
    Raw = "Raw"


class NoEncryption:
    pass


def raw_only(encoding, form) -> None:
    if encoding is not Encoding.Raw or form not in (PublicFormat.Raw, PrivateFormat.Raw):
        raise ValueError("this page's cryptography writes keys in the raw form only")
