#!/usr/bin/env bash
# One command for the whole test suite: installs what is missing (Debian
# packages), configures and builds in build/, then runs every test with CTest.
# CUHOST_TEST_BACKEND=cuda runs the script tests on the GPU backend instead.
#
# --sanitize: an AddressSanitizer + UndefinedBehaviorSanitizer build in
# build-asan/ (CMake option CUHOST_SANITIZE), the unit and script tests under
# it (any report fails the test: halt_on_error), then LeakSanitizer over
# tests/sanitize/compile_launch_load.py (1,000 kernels compiled, 100,000
# launches, CPU backend; at its end the dropped kernels must all be freed).
# Leak checking is off for the other tests: CPython keeps objects past its
# finalization by design (tests/sanitize/lsan.supp says what is suppressed
# and why; the leak step prints the suppressed counts). Further arguments go
# to ctest (e.g. -R PATTERN).
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=0
if [[ "${1:-}" == "--sanitize" ]]; then
  sanitize=1
  shift
fi
bash scripts/setup.sh
jobs=$(nproc)
if [[ $sanitize == 1 ]]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUHOST_SANITIZE=ON \
    -DCUHOST_TEST_BACKEND=cpu
  cmake --build build-asan -j "$jobs"
  # allocator_may_return_null: a request no allocator can meet (memory/out_of_memory.py
  # asks for 1 PiB) returns null, as malloc does, instead of ending the process.
  export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:detect_odr_violation=0:allocator_may_return_null=1"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  (cd build-asan && ctest --output-on-failure -j "$jobs" -L 'unit|script' "$@")
  echo "LeakSanitizer: 1,000 kernels compiled, 100,000 launches"
  ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_odr_violation=0:allocator_may_return_null=1" \
    LSAN_OPTIONS="suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=1" \
    build-asan/bin/cuhost --backend cpu run tests/sanitize/compile_launch_load.py 1000 100000
  exit 0
fi
# Warnings fail the build here (CUHOST_WERROR=OFF in the environment to relax).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUHOST_TEST_BACKEND="${CUHOST_TEST_BACKEND:-cpu}" \
  -DCUHOST_WERROR="${CUHOST_WERROR:-ON}"
cmake --build build -j "$jobs"
cd build
# Lint tools: ruff from PyPI (pinned in tests/lint/lint.cmake) into
# build/lint-venv, which the `lint` tests use (ruff over pylib, ruff.toml).
# Without PyPI the ruff test says so and is skipped, not passed.
python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' CMakeCache.txt)
ruff_spec=$(sed -n 's/^set(CUHOST_RUFF_SPEC "\(.*\)")$/\1/p' ../tests/lint/lint.cmake)
"$python" ../tests/venv/make_env.py --python "$python" "$PWD/lint-venv" "$ruff_spec" ||
  echo "lint: $ruff_spec could not be installed from PyPI; the ruff test will be skipped"
ctest --output-on-failure -j "$jobs" "$@"

# --- NumPy 2 pass ------------------------------------------------------------
# The script tests and the conformance ratchet (numba-cuda's suite) again
# inside a venv with NumPy 2 from PyPI (the NumPy
# numba-cuda's users have), made by tests/venv/make_env.py with the Python
# cuhost embeds; cuhost uses the venv through CUHOST_PYTHON_ENV. The venv sees
# the system's other test packages (cffi, llvmlite, ml_dtypes) after its own.
# Without PyPI the pass says so and is skipped, not passed.
# CUHOST_NUMPY2_PASS=0 leaves it out.
if [[ "${CUHOST_NUMPY2_PASS:-1}" != 0 ]]; then
  python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' CMakeCache.txt)
  numpy2_env="$PWD/numpy2-pass-venv"
  set +e
  "$python" ../tests/venv/make_env.py --python "$python" --system-site-packages "$numpy2_env" numpy==2.4.6
  made=$?
  set -e
  if [[ $made == 77 ]]; then
    echo "NumPy 2 pass SKIPPED: NumPy 2 could not be installed from PyPI (see above); it did not run"
  elif [[ $made != 0 ]]; then
    exit "$made"
  else
    echo "NumPy 2 pass: the script tests and the conformance ratchet under $("$numpy2_env/bin/python" -c 'import numpy; print("NumPy", numpy.__version__)')"
    CUHOST_PYTHON_ENV="$numpy2_env" ctest --output-on-failure -j "$jobs" -L 'script|conformance' "$@"
  fi
fi
