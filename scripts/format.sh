#!/usr/bin/env bash
# Formats every C++ file of the project with the repository's .clang-format.
# `scripts/format.sh --check` reports files that differ and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(git ls-files 'app/*.cpp' 'app/*.h' 'engine/*.cpp' 'engine/*.h' 'tests/*.cpp' 'plugins/*.cpp' 'plugins/*.h')
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in $files; do
    if ! diff -q <(clang-format "$f") "$f" >/dev/null; then echo "needs formatting: $f"; bad=1; fi
  done
  exit $bad
fi
clang-format -i $files
