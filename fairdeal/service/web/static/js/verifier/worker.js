// fairdeal-verify's own checks, in a worker beside the verify page: Pyodide (CPython in WebAssembly, vendored under
// /assets/vendor/pyodide/) runs the installed fairdeal/core from GET /verifier.zip, the code the command line runs
// (docs/web.md, "The verify page"). The core's few `cryptography` calls are answered by the vendored @noble/curves
// through the JS module `fairdeal_noble` below (pyshim/cryptography/). A worker, so that loading (seconds) and
// checking never hold up the page. Messages: out {ready, version, python} or {failed}; in {id, text, options},
// out {id, report} or {id, error}.

import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";
import { ED25519, P256 } from "../../vendor/noble-curves/noble-curves.js";
import { fromHex, toHex } from "../protocol/bytes.js";

const PYODIDE = "/assets/vendor/pyodide/";
const HOME = "/home/pyodide/fairdeal-verifier";

// Synchronous calls only (Python waits for each); hex strings both ways, converted by Pyodide as strings are.
function nobleModule() {
  const points = new Map(); // uncompressed hex -> point, the decks' elements reused from step to step (a small LRU)
  const point = (hex) => {
    let p = points.get(hex);
    if (p) {
      points.delete(hex);
    } else {
      p = P256.fromHex(hex);
      if (points.size >= 4096) points.delete(points.keys().next().value);
    }
    points.set(hex, p);
    return p;
  };
  const x = (p) => p.toAffine().x.toString(16).padStart(64, "0");
  return {
    // strict RFC 8032 (zip215 off), as OpenSSL verifies for the command line
    ed25519_verify(sig, msg, pub) {
      try {
        return ED25519.verify(fromHex(sig), fromHex(msg), fromHex(pub), { zip215: false });
      } catch {
        return false;
      }
    },
    ed25519_public: (seed) => toHex(ED25519.getPublicKey(fromHex(seed))),
    ed25519_sign: (msg, seed) => toHex(ED25519.sign(fromHex(msg), fromHex(seed))),
    p256_point(hex) {
      try {
        const p = P256.fromHex(hex);
        const full = p.toHex(false);
        points.set(full, p);
        return full;
      } catch {
        return "";
      }
    },
    p256_base: (k) => P256.BASE.multiply(BigInt(`0x${k}`)).toHex(false),
    // x(k·P): the scalars are the seats' revealed secrets, public by the time anything is verified
    p256_exchange: (k, hex) => x(point(hex).multiplyUnsafe(BigInt(`0x${k}`))),
  };
}

async function start() {
  const py = await loadPyodide({ indexURL: PYODIDE, stdout: () => {}, stderr: () => {} });
  py.registerJsModule("fairdeal_noble", nobleModule());
  const r = await fetch("/verifier.zip");
  if (!r.ok) throw new Error(`GET /verifier.zip: HTTP ${r.status}`);
  py.unpackArchive(await r.arrayBuffer(), "zip", { extractDir: HOME });
  py.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(HOME)})`);
  const page = py.pyimport("verify_page");
  const version = py.runPython("import fairdeal; fairdeal.__version__");
  return {
    version,
    python: py.runPython("import sys; sys.version.split()[0]"),
    // -> the report of `fairdeal-verify --json`, or {usage: sentence} for a field it would refuse
    verify: (text, options) => JSON.parse(page.verify(text, JSON.stringify(options))),
  };
}

const ready = start();
ready.then(
  ({ version, python }) => postMessage({ ready: true, version, python }),
  (exc) => postMessage({ failed: exc && exc.message ? exc.message : String(exc) }),
);

onmessage = async ({ data }) => {
  const verifier = await ready;
  try {
    postMessage({ id: data.id, report: verifier.verify(data.text, data.options) });
  } catch (exc) {
    postMessage({ id: data.id, error: exc && exc.message ? exc.message : String(exc) });
  }
};
