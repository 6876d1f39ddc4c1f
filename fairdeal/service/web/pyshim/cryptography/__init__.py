"""The names of `cryptography` that fairdeal/core imports, for the verify page's Pyodide (see ../README.md)."""

__version__ = "fairdeal-pyshim"
