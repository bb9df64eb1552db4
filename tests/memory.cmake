# tests/memory.cmake — the `memory` label (issue 40: memory errors made
# findable): tests/cli/test_memory.c runs every policy on each platform with
# GPU caches small enough to evict and prefetch all along.
# * Sanitizer build: one entry per shipped platform and one for StarPU's own
#   Idgraf file without a timing table (memory_<platform>, so that ctest -j
#   spreads them), where any AddressSanitizer, UndefinedBehaviorSanitizer or
#   LeakSanitizer report fails the run.
# * Build without sanitizers (not ThreadSanitizer's): memory_valgrind, a few
#   of these runs under valgrind, when valgrind is installed. The matrix is not
#   registered there: without a checker a memory error shows only if it
#   happens to crash, and the sanitizer build runs the same runs with one.
# ctest --test-dir build -L memory runs the label of either build.
add_executable(test_memory ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_memory.c)
target_link_libraries(test_memory PRIVATE hetsim_testing)
if(HETSIM_SANITIZE)
  file(GLOB memory_platforms CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/platforms/*.xml)
  # socket-membw.xml, two cores sharing a memory link and no GPU, has no GPU
  # cache to evict from: its memory-link path runs under the sanitizers in
  # test_engine_simgrid and test_cmd_run (platforms.md, shared memory bandwidth)
  list(FILTER memory_platforms EXCLUDE REGEX "/socket-membw\\.xml$")
  set(memory_tests)
  foreach(file ${memory_platforms})
    get_filename_component(name ${file} NAME_WE) # a shipped name: its timing table too
    add_test(NAME memory_${name} COMMAND test_memory ${name})
    list(APPEND memory_tests memory_${name})
  endforeach()
  add_test(NAME memory_starpu-idgraf
           COMMAND test_memory ${CMAKE_SOURCE_DIR}/tests/data/starpu-idgraf.platform.v4.xml)
  list(APPEND memory_tests memory_starpu-idgraf)
  # a report ends the run (UBSan: -fno-sanitize-recover), with its stack
  set_tests_properties(${memory_tests} PROPERTIES LABELS memory TIMEOUT 900
    ENVIRONMENT "${HETSIM_LSAN_ENV};UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
elseif(NOT HETSIM_TSAN)
  find_program(HETSIM_VALGRIND valgrind)
  if(HETSIM_VALGRIND)
    add_test(NAME memory_valgrind COMMAND test_memory --valgrind ${HETSIM_VALGRIND})
    set_tests_properties(memory_valgrind PROPERTIES LABELS "memory;valgrind" TIMEOUT 900)
  endif()
endif()
