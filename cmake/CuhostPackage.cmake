# `cpack -G DEB` (from the build folder): one Debian package of the install
# tree, prefix /usr, installable with `apt-get install ./cuhost_*.deb`.
# Dependencies are Debian 12 packages. NVRTC and nvJitLink are not: they come
# from NVIDIA's CUDA toolkit, so the package carries its own copies in
# <libdir>/cuhost/ (found through libcuhost's RUNPATH $ORIGIN/cuhost), unless
# CUHOST_DEB_BUNDLE_CUDA=OFF, which depends on NVIDIA's Debian 12 packages instead.
option(CUHOST_DEB_BUNDLE_CUDA "Ship NVRTC and nvJitLink inside the Debian package" ON)

# Only packaging installs these (an explicit component, left out of a plain `cmake --install`).
get_filename_component(_cuda_lib_dir ${CUHOST_NVRTC} DIRECTORY)
file(GLOB _cuda_libs ${_cuda_lib_dir}/libnvrtc.so.[0-9]* ${_cuda_lib_dir}/libnvrtc-builtins.so.[0-9]*
                     ${_cuda_lib_dir}/libnvJitLink.so.[0-9]*)
install(FILES ${_cuda_libs} DESTINATION ${CMAKE_INSTALL_LIBDIR}/cuhost COMPONENT cuda_libs EXCLUDE_FROM_ALL)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME cuhost)
set(CPACK_PACKAGE_VENDOR "cuhost")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Embeddable GPU scripting runtime with numba-cuda's API")
set(CPACK_PACKAGE_DESCRIPTION "cuhost embeds CPython in a C++ host and exposes a `cuda` module with numba-cuda's API;\n \
kernels are compiled by cuhost's own engine through LLVM (NVPTX for the GPU, ORC for the CPU backend).\n \
Contains the cuhost executable, libcuhost, its headers, CMake package and pkg-config file.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "cuhost maintainers <cuhost@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
set(_depends "libc6, libstdc++6, libgcc-s1, libllvm19, libpython${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}, python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}, python3-numpy, python3-cffi, libboost-program-options1.74.0")
if(NOT CUHOST_DEB_BUNDLE_CUDA)
  string(APPEND _depends ", cuda-nvrtc-13-0, libnvjitlink-13-0")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_depends}")
# clang-19 compiles plain-C++ foreign code for the CPU backend; the GPU needs NVIDIA's driver.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "clang-19")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake, pkg-config, g++")

# One package holding every component, the CUDA libraries among them when asked for.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_COMPONENTS_ALL runtime development aot)
if(CUHOST_DEB_BUNDLE_CUDA)
  list(APPEND CPACK_COMPONENTS_ALL cuda_libs)
endif()
include(CPack)
