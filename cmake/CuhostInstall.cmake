# `cmake --install`: the relocatable install tree an application embeds.
#   bin/cuhost                          the executable (RPATH $ORIGIN-relative); links no engine
#   <libdir>/libcuhost_commands.so      its commands, the module it loads (app/run_command.h)
#   <libdir>/libcuhost.so.X.Y           the engine (or libcuhost.a with CUHOST_BUILD_SHARED=OFF)
#   include/cuhost/                     the public embedding API (no LLVM, CPython or CUDA headers)
#   share/cuhost/{python,plugins,libdevice}  the data folder the runtime finds beside the library
#   <libdir>/cmake/cuhost/              cuhostConfig.cmake: find_package(cuhost) -> cuhost::runtime
#   <libdir>/pkgconfig/cuhost.pc
# Component aot (find_package(cuhost COMPONENTS aot) -> cuhost::aot): the
# driver-only runtime of exported kernels, libcuhost_aot and cuhost/aot.h,
# with the package files, installable alone (cmake --install --component aot)
# into an application that ships no Python, LLVM or CUDA compiler. The CPU
# block runtime archive `cuhost export` links goes with the runtime component
# (share/cuhost/aot/): it is needed where kernels are exported, not where
# they run.
include(CMakePackageConfigHelpers)

set(CUHOST_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/cuhost)
set(CUHOST_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/cuhost)

set(_export_targets cuhost cuhost_engine)
if(NOT CUHOST_BUILD_SHARED)
  # A static engine carries its private dependencies in its link interface.
  list(APPEND _export_targets cuhost_python cuhost_llvm cuhost_cuda_toolkit)
endif()
install(TARGETS ${_export_targets} EXPORT cuhostTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/cuhost DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT development FILES_MATCHING PATTERN "*.h")

install(TARGETS cuhost_aot EXPORT cuhostAotTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT aot NAMELINK_COMPONENT aot)
install(FILES ${PROJECT_SOURCE_DIR}/engine/include/cuhost/aot.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cuhost
  COMPONENT aot)
install(EXPORT cuhostAotTargets NAMESPACE cuhost:: DESTINATION ${CUHOST_INSTALL_CMAKEDIR} COMPONENT aot)
install(FILES ${CMAKE_BINARY_DIR}/share/cuhost/aot/libcuhost_cpu_block_runtime.a
  DESTINATION ${CUHOST_INSTALL_DATADIR}/aot COMPONENT runtime)

# The data folder: Python packages, plugins (with their build products), libdevice.
install(DIRECTORY ${CUHOST_PYLIB_SOURCE}/ DESTINATION ${CUHOST_INSTALL_DATADIR}/python COMPONENT runtime
  PATTERN __pycache__ EXCLUDE PATTERN "*.pyc" EXCLUDE)
install(DIRECTORY ${CMAKE_BINARY_DIR}/share/cuhost/plugins ${CMAKE_BINARY_DIR}/share/cuhost/libdevice
  ${CMAKE_BINARY_DIR}/share/cuhost/examples
  DESTINATION ${CUHOST_INSTALL_DATADIR} COMPONENT runtime USE_SOURCE_PERMISSIONS)

# CMake package.
install(EXPORT cuhostTargets NAMESPACE cuhost:: DESTINATION ${CUHOST_INSTALL_CMAKEDIR} COMPONENT development)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/cuhostConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/cuhostConfig.cmake
  INSTALL_DESTINATION ${CUHOST_INSTALL_CMAKEDIR}
  PATH_VARS CUHOST_INSTALL_DATADIR)
# 0.x: every minor release may break the API, so only the same minor version is compatible.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(_compat SameMinorVersion)
else()
  set(_compat SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/cuhostConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY ${_compat})
install(FILES ${CMAKE_BINARY_DIR}/cmake/cuhostConfig.cmake ${CMAKE_BINARY_DIR}/cmake/cuhostConfigVersion.cmake
  DESTINATION ${CUHOST_INSTALL_CMAKEDIR} COMPONENT development)
# The same package files with the aot component, so that it installs alone.
install(FILES ${CMAKE_BINARY_DIR}/cmake/cuhostConfig.cmake ${CMAKE_BINARY_DIR}/cmake/cuhostConfigVersion.cmake
  DESTINATION ${CUHOST_INSTALL_CMAKEDIR} COMPONENT aot)

# pkg-config, relocatable: the prefix is found from the .pc file's own folder.
file(RELATIVE_PATH CUHOST_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" CUHOST_PC_TO_PREFIX "${CUHOST_PC_TO_PREFIX}")
if(CUHOST_BUILD_SHARED)
  set(CUHOST_PC_PRIVATE_LIBS "")
else()
  set(CUHOST_PC_PRIVATE_LIBS "${CUHOST_LIBLLVM} ${Python3_LIBRARIES} ${CUHOST_NVRTC} ${CUHOST_NVJITLINK} -ldl -lpthread")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/cuhost.pc.in ${CMAKE_BINARY_DIR}/cmake/cuhost.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/cmake/cuhost.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

include(${CMAKE_CURRENT_LIST_DIR}/CuhostPackage.cmake OPTIONAL)
