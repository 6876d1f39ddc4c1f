// The one entry point of the vendored bundle: NIST P-256 from @noble/curves (its Point class with the field and
// group order), which fairdeal-blind/1 needs for x-only scalar multiplication and card points (docs/blind.md).
import { p256 } from "@noble/curves/nist.js";

export const P256 = p256.Point;
