// fairdeal-verify's own checks in the page: its Python, run by Pyodide in a worker (worker.js), the same report as
// `fairdeal-verify TRANSCRIPT --json` (docs/web.md, "The verify page").

let loading = null;

// -> {version, python, verify(text, options) -> Promise of the report (or {usage: sentence})}; rejects with why
// it cannot run here. Started once: after it is ready, checking needs no network.
export function pythonVerifier() {
  if (!loading) loading = start();
  return loading;
}

function start() {
  return new Promise((resolve, reject) => {
    const worker = new Worker("/assets/js/verifier/worker.js", { type: "module" });
    const waiting = new Map();
    let next = 1;
    const verify = (text, options) => new Promise((res, rej) => {
      const id = next++;
      waiting.set(id, { res, rej });
      worker.postMessage({ id, text, options });
    });
    worker.onmessage = ({ data }) => {
      if (data.ready) {
        resolve({ version: data.version, python: data.python, verify });
      } else if (data.failed) {
        reject(new Error(data.failed));
      } else {
        const w = waiting.get(data.id);
        waiting.delete(data.id);
        if (data.error) w.rej(new Error(data.error));
        else w.res(data.report);
      }
    };
    worker.onerror = (e) => {
      e.preventDefault();
      reject(new Error(e.message || "its worker could not be loaded"));
    };
  });
}
