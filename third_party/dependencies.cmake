# Finds every system dependency and exposes it as an imported target, so the
# rest of the build names targets, never paths. Nothing is vendored: these all
# come from Debian packages (scripts/setup.sh) or the CUDA toolkit.

# --- LLVM 19 (ORC JIT, NVPTX, native target) --------------------------------
find_package(LLVM 19.1 REQUIRED CONFIG PATHS /usr/lib/llvm-19/lib/cmake/llvm NO_DEFAULT_PATH)
message(STATUS "cuhost: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_DIR}")
add_library(cuhost_llvm INTERFACE)
target_include_directories(cuhost_llvm SYSTEM INTERFACE ${LLVM_INCLUDE_DIRS})
separate_arguments(_llvm_defs NATIVE_COMMAND "${LLVM_DEFINITIONS}")
target_compile_definitions(cuhost_llvm INTERFACE ${_llvm_defs})
# Debian ships the monolithic libLLVM-19.so: linking it keeps links fast and
# the GPU bundle small (one shared library instead of many static archives).
find_library(CUHOST_LIBLLVM NAMES LLVM-19 LLVM PATHS ${LLVM_LIBRARY_DIR} NO_DEFAULT_PATH REQUIRED)
target_link_libraries(cuhost_llvm INTERFACE ${CUHOST_LIBLLVM})
set(CUHOST_LLVM_TOOLS_DIR ${LLVM_TOOLS_BINARY_DIR})

# --- CPython 3.10+ for embedding --------------------------------------------
# The system interpreter unless the build names another one
# (-DPython3_EXECUTABLE=/path/to/python3.X, which needs its libpython and
# headers); cuhost embeds exactly that Python, and `cuhost info` shows it.
set(Python3_EXECUTABLE /usr/bin/python3.11 CACHE FILEPATH "Python used for embedding and tests")
set(Python3_FIND_STRATEGY LOCATION)
set(Python3_FIND_VIRTUALENV STANDARD)
find_package(Python3 3.10 REQUIRED COMPONENTS Interpreter Development.Embed)
# Where its standard library lies: a user's venv keeps it (python/python_env.cpp).
execute_process(COMMAND ${Python3_EXECUTABLE} -c "import sys; print(sys.base_prefix)"
  OUTPUT_VARIABLE CUHOST_PYTHON_PREFIX OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
message(STATUS "cuhost: embedding Python ${Python3_VERSION} (prefix ${CUHOST_PYTHON_PREFIX})")

# --- Boost.Program_options (CLI only) ----------------------------------------
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)

# --- CUDA toolkit: headers, NVRTC, nvJitLink, libdevice (never libcuda) --------
set(CUHOST_CUDA_ROOT /usr/local/cuda CACHE PATH "CUDA toolkit root")
find_path(CUHOST_CUDA_INCLUDE nvJitLink.h PATHS ${CUHOST_CUDA_ROOT}/include NO_DEFAULT_PATH REQUIRED)
find_library(CUHOST_NVRTC nvrtc PATHS ${CUHOST_CUDA_ROOT}/lib64 NO_DEFAULT_PATH REQUIRED)
find_library(CUHOST_NVJITLINK nvJitLink PATHS ${CUHOST_CUDA_ROOT}/lib64 NO_DEFAULT_PATH REQUIRED)
find_file(CUHOST_LIBDEVICE libdevice.10.bc PATHS ${CUHOST_CUDA_ROOT}/nvvm/libdevice NO_DEFAULT_PATH REQUIRED)
# The engine compiles against the toolkit's headers and loads NVRTC and
# nvJitLink at their first use (engine/cuda/toolkit_libraries.h): nothing
# links them.
add_library(cuhost_cuda_toolkit INTERFACE)
target_include_directories(cuhost_cuda_toolkit SYSTEM INTERFACE ${CUHOST_CUDA_INCLUDE})
target_link_libraries(cuhost_cuda_toolkit INTERFACE ${CMAKE_DL_LIBS})
