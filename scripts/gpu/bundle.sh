#!/usr/bin/env bash
# Builds cuhost here and packs a self-contained bundle for the GPU machine
# (Ubuntu 24.04 with the CUDA 13 toolkit and driver, but no LLVM 19, no
# Python 3.11, no Boost.Program_options): the binaries, the test binary, the
# shared libraries they need, a trimmed Python 3.11 standard library, NumPy
# and cffi for 3.11, pytest for 3.11 (`cuhost -m pytest`), FileCheck, clang-19
# and the conformance harness's inputs (numba-cuda's tests, fetched here;
# cffi for the GPU machine's Python 3.12, which numba-cuda's own run needs).
# Output: bundle/cuhost-gpu.tar.xz (< 64 MiB).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bash scripts/setup.sh
command -v xz >/dev/null || apt-get install -y -q xz-utils
# CUHOST_BUILD_DIR: an existing Release build folder to pack (default build/).
build=${CUHOST_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
b=$stage/cuhost
mkdir -p "$b/bin" "$b/lib" "$b/tests" "$b/site"
cp $build/bin/cuhost "$b/bin/cuhost.bin"
cp $build/bin/cuhost_bench_embed "$b/bin/cuhost_bench_embed.bin"
cp $build/bin/cuhost_live_example "$b/bin/cuhost_live_example.bin"  # scripts/bench/live_reload.py's host
cp $build/tests/cuhost_unit_tests "$b/tests/cuhost_unit_tests.bin"
cp /usr/lib/llvm-19/bin/FileCheck "$b/bin/"
# The data folder (Python packages, plugins, libdevice, test inputs): the
# engine finds it beside its library, $b/lib/../share/cuhost, as in an install
# tree (engine/support/install_layout.h), so the bundle works from any path.
mkdir -p "$b/share" && cp -r $build/share/cuhost "$b/share/cuhost"
# The runtime of exported kernels and the public headers, for the programs
# built against the bundle on the GPU machine (scripts/bench/aot_gpu.sh, examples/aot).
cp -P $build/lib/libcuhost_aot.so* "$b/lib/"
mkdir -p "$b/include" && cp -r engine/include/cuhost "$b/include/cuhost"
# The installed `aot` package component alone (find_package(cuhost COMPONENTS
# aot)): examples/aot is built against it on the GPU machine, as a host
# application would be.
cmake --install "$build" --component aot --prefix "$b/aot-prefix" >/dev/null

# Shared libraries the GPU machine lacks (everything but glibc, libstdc++,
# the CUDA toolkit's own libraries and what Ubuntu 24.04 has anyway).
copy_deps() {
  ldd "$1" | awk '/=>/ {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++*|libgcc_s*) ;;
      libnvrtc*|libnvJitLink*|libcuda.so*) ;;
      *) [ -e "$b/lib/$(basename "$lib")" ] || cp -L "$lib" "$b/lib/" ;;
    esac
  done
}
# The executable loads the commands' module (app/run_command.h), which links
# libcuhost.so.X.Y, the engine: both into $b/lib.
cp $build/lib/libcuhost_commands.so "$b/lib/"
copy_deps $build/bin/cuhost
copy_deps $build/lib/libcuhost_commands.so
copy_deps $build/tests/cuhost_unit_tests
# NumPy: PyPI's build of CUHOST_BUNDLE_NUMPY (default 2.4.6, the NumPy 2
# pass's version and the major version numba-cuda's reference run had),
# with its own OpenBLAS; CUHOST_BUNDLE_NUMPY=debian (or no network) packs
# Debian's 1.24 and the libraries it links instead.
numpy_version=${CUHOST_BUNDLE_NUMPY:-2.4.6}
numpy_wheel=$(mktemp -d)
if [ "$numpy_version" = debian ] || ! python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.11 \
    --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
    --platform manylinux_2_17_x86_64 -d "$numpy_wheel" "numpy==$numpy_version"; then
  numpy_version=debian
  for so in /usr/lib/python3/dist-packages/numpy/core/*.so /usr/lib/python3/dist-packages/numpy/linalg/*.so; do
    copy_deps "$so"
  done
fi
echo "bundle: NumPy $numpy_version"
for so in /usr/lib/python3/dist-packages/_cffi_backend*.so; do
  copy_deps "$so"
done
# clang-19 compiles foreign .cu sources that are plain C++ into the kernel's
# LLVM module (ffi/device_compile.h), and runs the CPU backend's foreign code:
# the driver, its library and the C headers of its resource folder.
# libcuhost_clang runs that compiler inside the process (ffi/clang_module), the executable where it cannot.
cp /usr/lib/llvm-19/bin/clang "$b/bin/clang"
cp -L /usr/lib/llvm-19/lib/libclang-cpp.so.19.1 "$b/lib/"
if [ -f $build/lib/libcuhost_clang.so ]; then cp $build/lib/libcuhost_clang.so "$b/lib/"; fi
res=/usr/lib/llvm-19/lib/clang/19/include
mkdir -p "$b/lib/clang/19/include"
( cd "$res" && cp __stdarg*.h __stddef*.h float.h inttypes.h iso646.h limits.h module.modulemap stdalign.h stdarg.h \
    stdatomic.h stdbool.h stdckdint.h stddef.h stdint.h stdnoreturn.h tgmath.h unwind.h varargs.h \
    "$b/lib/clang/19/include/" )
# LLVM links Z3 and libxml2, which cuhost and clang never call: stand-ins with
# the same sonames and symbol versions replace them (and ICU, which only
# libxml2 needs), so the bundle stays under 64 MiB with clang inside.
for real in libz3.so.4 libxml2.so.2; do
  python3 scripts/gpu/make_stub_library.py "/usr/lib/x86_64-linux-gnu/$real" "$b/lib/$real" \
    /usr/lib/llvm-19/lib/libLLVM.so.19.1 /usr/lib/llvm-19/lib/libclang-cpp.so.19.1 $build/lib/libcuhost_commands.so $build/lib/libcuhost.so \
    $build/tests/cuhost_unit_tests
done
rm -f "$b/lib/"libicu*
strip --strip-unneeded "$b/lib/"*.so* "$b/bin/cuhost.bin" "$b/bin/cuhost_bench_embed.bin" "$b/bin/cuhost_live_example.bin" \
  "$b/tests/cuhost_unit_tests.bin" 2>/dev/null || true
# Wrappers set the bundle's library path for cuhost alone, so other programs
# on the machine (the peers' Python, nvcc) never see these libraries. POSIX
# sh with one subshell: a process's start (P4) pays the wrapper too.
for w in bin/cuhost bin/cuhost_bench_embed bin/cuhost_live_example tests/cuhost_unit_tests; do
  cat > "$b/$w" <<'WRAP'
#!/bin/sh
case "$0" in */*) here=${0%/*} ;; *) here=. ;; esac
here=$(cd "$here" && pwd)
top=${here%/*}
export LD_LIBRARY_PATH="$top/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CUHOST_PYTHONHOME="$top"
export CUHOST_CLANG="$top/bin/clang"
export CUHOST_EXECUTABLE="$here/${0##*/}"  # sys.executable: this wrapper
exec "$here/${0##*/}.bin" "$@"
WRAP
  chmod +x "$b/$w"
done

# Python 3.11 standard library without tests, GUI toolkits and installers.
py=$b/lib/python3.11
mkdir -p "$py"
( cd /usr/lib/python3.11 && tar cf - --exclude=test --exclude=tests --exclude=idlelib --exclude=tkinter \
    --exclude=turtledemo --exclude=ensurepip --exclude=lib2to3 --exclude=pydoc_data --exclude=__pycache__ \
    --exclude=config-3.11-x86_64-linux-gnu --exclude=distutils --exclude=site-packages --exclude=dist-packages . ) \
  | ( cd "$py" && tar xf - )
# NumPy (above) and cffi for 3.11 (Debian's builds), without their tests.
numpy_debian=""
if [ "$numpy_version" = debian ]; then
  numpy_debian=numpy
else
  python3 -m zipfile -e "$numpy_wheel"/numpy-*.whl "$b/site"
  find "$b/site/numpy" -type d -name tests -prune -exec rm -rf {} +
  rm -rf "$b/site/numpy/_pyinstaller" "$b/site"/numpy-*.dist-info/RECORD
fi
rm -rf "$numpy_wheel"
( cd /usr/lib/python3/dist-packages && tar cf - --exclude=tests --exclude=__pycache__ $numpy_debian cffi pycparser ply \
    _cffi_backend*.so pytest _pytest pluggy iniconfig packaging py py.py attr attrs more_itertools ) \
  | ( cd "$b/site" && tar xf - )
# llvmlite's pure-Python IR builder (the extension API's code generation
# callbacks use `llvmlite.ir`; its compiled binding is not needed).
( cd /usr/lib/python3/dist-packages && tar cf - --exclude=__pycache__ llvmlite/__init__.py llvmlite/_version.py \
    llvmlite/utils.py llvmlite/ir ) | ( cd "$b/site" && tar xf - )
# cloudpickle (numba.cuda.cloudpickle and kernel pickling).
( cd /usr/lib/python3/dist-packages && tar cf - --exclude=__pycache__ cloudpickle ) | ( cd "$b/site" && tar xf - )
# ml_dtypes (bfloat16 and fp8 host arrays; scripts/setup.sh installs it from PyPI).
ml_dtypes_dir=$(/usr/bin/python3 -c "import ml_dtypes, os; print(os.path.dirname(os.path.dirname(ml_dtypes.__file__)))")
( cd "$ml_dtypes_dir" && tar cf - --exclude=__pycache__ ml_dtypes ) | ( cd "$b/site" && tar xf - )
strip --strip-unneeded "$b"/site/ml_dtypes/*.so  # PyPI's wheel ships debug info (25 MB of the 64 MiB budget)

# The conformance harness (tests/conformance) runs numba-cuda's own tests on
# the GPU machine, which cannot download: the overlay of numba-cuda's tests
# and filecheck come from here, and numba-cuda's own run there gets cffi and
# pycparser for its Python 3.12 (absent there), so none of its tests is
# skipped for a missing helper.
python3 tests/conformance/run.py fetch --work "$b/conformance" >/dev/null
rm -rf "$b/conformance/wheels"
py312=$(mktemp -d)
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -d "$py312" cffi==1.17.1 pycparser==2.22
mkdir -p "$b/conformance/site312"
for w in "$py312"/*.whl; do python3 -m zipfile -e "$w" "$b/conformance/site312"; done
rm -rf "$py312"

# Bytecode for every module, as an installed Python has: without it each
# process compiles NumPy from source again (~0.5 s of every process start
# where PYTHONDONTWRITEBYTECODE is set or the folder is read-only).
python3.11 -m compileall -q -j 0 "$py" "$b/site" "$b/share/cuhost/python" >/dev/null || true

cp scripts/gpu/env.sh "$b/env.sh"
# CUHOST_BUNDLE_LEAN=1: a bundle for benchmark calls only (scripts/bench,
# run_tests.sh's `scripts` part), without the conformance inputs, the unit
# test binary and pytest: ~2 MB smaller still, room in the device tool's
# 64 MiB carry limit for other paths carried beside it.
if [ "${CUHOST_BUNDLE_LEAN:-0}" = 1 ]; then
  rm -rf "$b/conformance" "$b/tests" "$b/site/pytest" "$b/site/_pytest" "$b/site/py" "$b/site/py.py"
fi
mkdir -p bundle
# xz -9: 2 MB smaller than -6 (57.4 against 59.3 MB), which the device
# tool's 64 MiB carry limit (bundle and tree together) needs; ~2 minutes here.
tar -C "$stage" --exclude=__pycache__ -cf - cuhost | xz -T0 -9 > bundle/cuhost-gpu.tar.xz
ls -la bundle/cuhost-gpu.tar.xz
echo "bundle: $(du -h bundle/cuhost-gpu.tar.xz | cut -f1)"
