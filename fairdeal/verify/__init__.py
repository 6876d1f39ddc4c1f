"""`fairdeal-verify`, the command line of the verifier: one game, an audit of many, the transparency log, a
tournament. The checking itself is the shared core, fairdeal.core; this package reads the user's input, chooses
the keys to trust and says what the core found."""
