# Test plugins with host libraries, from tests/data/host_plugins/<case>: the
# manifest and dev.cu are copied to <build>/share/cuhost/tests/plugins/<case>
# (which GPU bundles carry) and host.cpp, when there is one, is built there
# as lib<case>.so. Scripts find them through cuhost.share_dir().
set(_hp_src ${CMAKE_CURRENT_SOURCE_DIR}/data/host_plugins)
set(_hp_out ${CMAKE_BINARY_DIR}/share/cuhost/tests/plugins)
set(_hp_outputs)
foreach(_case host_missing_library host_no_setup host_bad_teardown host_setup_fails host_setup_throws host_teardown_throws host_probe)
  foreach(_f plugin.toml dev.cu)
    add_custom_command(OUTPUT ${_hp_out}/${_case}/${_f}
      COMMAND ${CMAKE_COMMAND} -E copy ${_hp_src}/${_case}/${_f} ${_hp_out}/${_case}/${_f}
      DEPENDS ${_hp_src}/${_case}/${_f})
    list(APPEND _hp_outputs ${_hp_out}/${_case}/${_f})
  endforeach()
  if(EXISTS ${_hp_src}/${_case}/host.cpp)
    add_library(test_${_case} SHARED ${_hp_src}/${_case}/host.cpp)
    target_include_directories(test_${_case} PRIVATE ${PROJECT_SOURCE_DIR}/engine/include)
    set_target_properties(test_${_case} PROPERTIES OUTPUT_NAME ${_case} LIBRARY_OUTPUT_DIRECTORY ${_hp_out}/${_case}
                                                 CXX_VISIBILITY_PRESET hidden)
    add_dependencies(cuhost_unit_tests test_${_case})
  endif()
endforeach()
add_custom_target(cuhost_host_plugin_test_data ALL DEPENDS ${_hp_outputs})
add_dependencies(cuhost_unit_tests cuhost_host_plugin_test_data)
# Only the test that uses it sees the folder (the other test files keep their flags).
set_source_files_properties(${CMAKE_CURRENT_SOURCE_DIR}/unit/plugin_host_library_test.cpp
  PROPERTIES COMPILE_DEFINITIONS CUHOST_TEST_HOST_PLUGINS_DIR="${_hp_out}")
