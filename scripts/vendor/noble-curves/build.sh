#!/bin/sh
# Rebuilds fairdeal/service/web/static/vendor/noble-curves/ from the npm registry (build time only; the service
# serves the committed output and nothing is fetched at run time). Needs node and npm.
#   sh scripts/vendor/noble-curves/build.sh
# package-lock.json pins the exact tarballs (and their integrity hashes); `npm ci` installs exactly those.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../../../fairdeal/service/web/static/vendor/noble-curves"
cd "$here"
npm ci --no-audit --no-fund
mkdir -p "$out"
# Not minified, so the served file can be read and compared with the package's own source.
npx esbuild entry.js --bundle --format=esm --target=es2020 --legal-comments=inline --charset=utf8 \
  --outfile="$out/noble-curves.js"
{ echo "@noble/curves:"; cat node_modules/@noble/curves/LICENSE; echo; echo "@noble/hashes (bundled in):"; cat node_modules/@noble/hashes/LICENSE; } > "$out/LICENSE"
version=$(node -p 'require("./node_modules/@noble/curves/package.json").version')
hashes=$(node -p 'require("./node_modules/@noble/hashes/package.json").version')
esb=$(npx esbuild --version)
printf '@noble/curves %s\n@noble/hashes %s\nbundled by esbuild %s from scripts/vendor/noble-curves/entry.js\n' \
  "$version" "$hashes" "$esb" > "$out/VERSION"
echo "wrote $out"
