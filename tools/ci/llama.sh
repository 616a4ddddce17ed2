#!/usr/bin/env bash
# llama.cpp for the GGUF export test (test/export-gguf.test.ts): node-llama-cpp 3.21.1 with its
# prebuilt binaries (~730 MB), installed from tools/llama's own lockfile, outside the course's
# `npm install`. Its postinstall is not needed: the binaries come as optional dependencies.
set -euo pipefail
cd "$(dirname "$0")/../llama"
npm ci --no-audit --no-fund --ignore-scripts
