# cmake/install_package.cmake — what `cmake --install` puts beside the hetsim
# command so that policies (and programs) can be written out of tree: the
# public headers (include/hetsim/<folder>/*.h), the static libraries, a pkg-config
# file (hetsim.pc) and a CMake package (find_package(hetsim)). Both are
# relocatable: their paths are relative to where they were installed.
include(CMakePackageConfigHelpers)

# Only the public API, never the runtime's internals (its state, the GPU
# caches, the event heap): what a policy includes (sim/policy.h, the
# runtime's view sim/sched.h, base/util.h), what a program building DAGs
# includes (workloads/workload.h, sim/dag.h), and what those include.
# test_install checks that each compiles alone and that nothing else is there.
set(HETSIM_PUBLIC_HEADERS base/util.h base/params.h sim/policy.h sim/sched.h sim/dag.h sim/costs.h sim/platform.h sim/routes.h
  workloads/workload.h)
foreach(h ${HETSIM_PUBLIC_HEADERS})
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${CMAKE_SOURCE_DIR}/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hetsim/${dir})
endforeach()

# In link order (each library after those that use it).
set(HETSIM_EXPORTED_LIBS hetsim_model_run hetsim_model hetsim_simgrid hetsim_analysis hetsim_workloads hetsim_policies hetsim_bm
  hetsim_sim hetsim_platforms hetsim_base)
install(TARGETS hetsim_headers ${HETSIM_EXPORTED_LIBS} EXPORT hetsimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT hetsimTargets NAMESPACE hetsim:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hetsim)

configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/hetsimConfig.cmake.in
  ${CMAKE_BINARY_DIR}/hetsimConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hetsim)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/hetsimConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/hetsimConfig.cmake ${CMAKE_BINARY_DIR}/hetsimConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hetsim)

list(TRANSFORM HETSIM_EXPORTED_LIBS REPLACE "^hetsim_" "-lhetsim_" OUTPUT_VARIABLE HETSIM_PC_LIBS)
list(JOIN HETSIM_PC_LIBS " " HETSIM_PC_LIBS)
file(RELATIVE_PATH HETSIM_PC_TO_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
configure_file(${CMAKE_SOURCE_DIR}/cmake/hetsim.pc.in ${CMAKE_BINARY_DIR}/hetsim.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/hetsim.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
