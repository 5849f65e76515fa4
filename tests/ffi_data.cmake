# Foreign-code test inputs of every link kind, built from tests/scripts/ffi/cu/kinds/*.cu:
# .ptx .cubin .fatbin .o .a with nvcc (sm_90) and .ltoir with the project's
# build-time NVRTC tool (sm_90a). They go to <build>/share/cuhost/tests/ffi,
# which GPU bundles carry, so the GPU-only script tests and the linker unit
# tests find them through cuhost.share_dir() / next to the test binary.
set(_ffi_src ${CMAKE_CURRENT_SOURCE_DIR}/scripts/ffi/cu/kinds)
set(_ffi_out ${CMAKE_BINARY_DIR}/share/cuhost/tests/ffi)
find_program(CUHOST_NVCC nvcc HINTS ${CUHOST_CUDA_ROOT}/bin /usr/local/cuda/bin)
set(_ffi_outputs)
if(CUHOST_NVCC)
  foreach(_pair "ptx;-ptx" "cubin;-cubin" "fatbin;-fatbin" "o;-c" "a;-lib")
    list(GET _pair 0 _ext)
    list(GET _pair 1 _flag)
    if(_ext STREQUAL "o")
      set(_name object)
    elseif(_ext STREQUAL "a")
      set(_name archive)
    else()
      set(_name ${_ext})
    endif()
    set(_out ${_ffi_out}/kind_${_name}.${_ext})
    add_custom_command(OUTPUT ${_out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${_ffi_out}
      COMMAND ${CUHOST_NVCC} -arch=sm_90 -rdc=true ${_flag} -o ${_out} ${_ffi_src}/kind_${_name}.cu
      DEPENDS ${_ffi_src}/kind_${_name}.cu
      COMMENT "nvcc: kind_${_name}.cu -> kind_${_name}.${_ext}")
    list(APPEND _ffi_outputs ${_out})
  endforeach()
else()
  message(STATUS "cuhost: nvcc not found; FFI test inputs other than LTO-IR are not built")
endif()
set(_ffi_ltoir ${_ffi_out}/kind_ltoir.ltoir)
add_custom_command(OUTPUT ${_ffi_ltoir}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_ffi_out}
  COMMAND cuhost_nvrtc_compile --lto --cc 90 -o ${_ffi_ltoir} ${_ffi_src}/kind_ltoir.cu
  DEPENDS cuhost_nvrtc_compile ${_ffi_src}/kind_ltoir.cu
  COMMENT "NVRTC: kind_ltoir.cu -> kind_ltoir.ltoir (sm_90a)")
list(APPEND _ffi_outputs ${_ffi_ltoir})
add_custom_target(cuhost_ffi_test_data ALL DEPENDS ${_ffi_outputs})
add_dependencies(cuhost_unit_tests cuhost_ffi_test_data)
target_compile_definitions(cuhost_unit_tests PRIVATE CUHOST_FFI_TEST_DATA_DIR="${_ffi_out}")
