#!/usr/bin/env bash
# The compiled WebAssembly kernels (lib/model/wasm/*.wasm.ts) must be what their AssemblyScript
# sources compile to: rebuild with the pinned compiler (fetched by npx) and compare.
set -euo pipefail
npm run build-kernels -- --check
