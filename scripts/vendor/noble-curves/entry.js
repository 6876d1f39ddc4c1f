// The one entry point of the vendored bundle: NIST P-256 from @noble/curves (its Point class with the field and
// group order), which fairdeal-blind/1 needs for x-only scalar multiplication and card points (docs/blind.md),
// and Ed25519, which the verify page's Python verifier signs and checks with (its in-page `cryptography`,
// fairdeal/service/web/pyshim/, docs/web.md "The verify page").
import { p256 } from "@noble/curves/nist.js";
import { ed25519 } from "@noble/curves/ed25519.js";

export const P256 = p256.Point;
export const ED25519 = ed25519;
