#!/usr/bin/env bash
# Debian's PyTorch (torch 1.13 at /usr/bin/python3) for the tests in which MiniMind's own model
# loads the course's exports and checkpoints (test/export.test.ts, test/train.test.ts).
set -euo pipefail
if /usr/bin/python3 -c "import torch" 2>/dev/null; then exit 0; fi
apt-get update
apt-get install -y --no-install-recommends python3-torch
