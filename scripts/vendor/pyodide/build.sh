#!/bin/sh
# Rebuilds fairdeal/service/web/static/vendor/pyodide/ from the npm registry (build time only; the service serves
# the committed files and nothing is fetched at run time). Needs node and npm.
#   sh scripts/vendor/pyodide/build.sh
# package-lock.json pins the exact tarball (and its integrity hash); `npm ci` installs exactly that. Only the core
# the verify page loads is copied (CPython 3.14 in WebAssembly and its standard library): no packages, no
# source maps, no consoles.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../../fairdeal/service/web/static/vendor/pyodide"
cd "$here"
npm ci --no-audit --no-fund --ignore-scripts
rm -rf "$out"
mkdir -p "$out"
for f in pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json; do
  cp "node_modules/pyodide/$f" "$out/$f"
done
version=$(node -p 'require("./node_modules/pyodide/package.json").version')
license=$(node -p 'require("./node_modules/pyodide/package.json").license')
python=$(node -p 'require("./node_modules/pyodide/pyodide-lock.json").info.python')
{
  echo "Pyodide $version (npm package 'pyodide'): $license, https://github.com/pyodide/pyodide"
  echo "It holds CPython $python and its standard library (python_stdlib.zip): the PSF License Agreement,"
  echo "https://docs.python.org/3/license.html"
} > "$out/LICENSE"
printf 'pyodide %s (CPython %s), copied from the npm package by scripts/vendor/pyodide/build.sh\n' \
  "$version" "$python" > "$out/VERSION"
echo "wrote $out"
