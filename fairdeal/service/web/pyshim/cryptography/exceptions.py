class InvalidSignature(Exception):
    """A signature that does not verify (cryptography.exceptions.InvalidSignature)."""
