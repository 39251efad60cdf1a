#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given major version (22, 24, …), installing it first into a
# cache directory if it is not there: the registry's `node-<os>-<arch>` package holds `bin/node`, so a fresh
# machine needs nothing but npm. Used by .ci/run (the suite on Node 22 and 24) and by `npm run bench`.
#
#   scripts/node-binary.sh 24            → /root/.cache/blogctl-node/24/bin/node
#   BLOGCTL_NODE_CACHE=dir scripts/node-binary.sh 22
set -euo pipefail
major=${1:?usage: node-binary.sh MAJOR}
[[ "$major" =~ ^[0-9]+$ ]] || { echo "node-binary.sh: MAJOR must be a number, not \"$major\"" >&2; exit 2; }
os=$(node -p 'process.platform')
arch=$(node -p 'process.arch')
cache=${BLOGCTL_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/blogctl-node}
dir="$cache/$major"
if [ ! -x "$dir/bin/node" ] || ! "$dir/bin/node" -e 0 2>/dev/null; then
  rm -rf "$dir" "$dir.tmp"
  mkdir -p "$dir.tmp"
  # A failed download leaves nothing behind: the next run starts clean instead of trusting half a tarball.
  trap 'rm -rf "$dir.tmp"' EXIT
  # npm pack resolves the newest version of that major and downloads only its tarball (no install scripts).
  # npm's own errors go to stderr so a caller (run-all.mjs, .ci/run) can say why there is no Node $major.
  if ! tarball=$(cd "$dir.tmp" && npm pack --loglevel=error "node-$os-$arch@$major" | tail -1) || [ -z "$tarball" ]; then
    echo "node-binary.sh: npm pack node-$os-$arch@$major failed" >&2
    exit 1
  fi
  tar -xzf "$dir.tmp/$tarball" -C "$dir.tmp"
  mkdir -p "$dir/bin"
  mv "$dir.tmp/package/bin/node" "$dir/bin/node"
  chmod 755 "$dir/bin/node"
  rm -rf "$dir.tmp"
  trap - EXIT
fi
version=$("$dir/bin/node" --version)
[[ "$version" == "v$major."* ]] || { echo "node-binary.sh: $dir/bin/node is $version, not Node $major" >&2; exit 1; }
echo "$dir/bin/node"
