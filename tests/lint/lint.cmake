# The Python side's lint checks (label `lint`), run by scripts/test.sh and
# .ci/run with the rest of the suite:
#  - ruff over pylib with the repository's ruff.toml (ruff from PyPI, pinned,
#    in <build>/lint-venv; skipped, saying so, when PyPI cannot be reached);
#  - pylib's import graph has no circle (tests/lint/import_cycles.py --all:
#    imports placed inside functions count too, so a circle closed at call
#    time fails as well), and the checker itself finds a circle it is shown.
set(CUHOST_RUFF_SPEC "ruff==0.17.6")
add_test(NAME "lint: ruff over pylib"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lint/ruff_pylib.py --python ${Python3_EXECUTABLE}
    --venv ${CMAKE_BINARY_DIR}/lint-venv --spec ${CUHOST_RUFF_SPEC}
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
add_test(NAME "lint: pylib has no import circle"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lint/import_cycles.py --all ${PROJECT_SOURCE_DIR}/engine/python/pylib)
add_test(NAME "lint: the import-circle checker finds a circle"
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/lint/test_import_cycles.py)
set_tests_properties("lint: ruff over pylib" "lint: pylib has no import circle"
  "lint: the import-circle checker finds a circle" PROPERTIES LABELS "lint" TIMEOUT 900 SKIP_RETURN_CODE 77)
set_tests_properties("lint: ruff over pylib" PROPERTIES RESOURCE_LOCK lint-venv)
