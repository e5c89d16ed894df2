# What `cmake --install` puts under the prefix, besides the launcher, the library and the public headers
# (plugin/CMakeLists.txt): the CMake package (find_package(jobsched) gives the target jobsched::jobsched), the
# pkg-config file jobsched.pc, and the scenarios, platforms and deployments (share/jobsched/, the quickstart among
# them). `cpack -G DEB` in the build folder makes a Debian package of the same files, installed under /usr.
include(CMakePackageConfigHelpers)

set(JOBSCHED_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/jobsched)
install(EXPORT jobschedTargets NAMESPACE jobsched:: DESTINATION ${JOBSCHED_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/jobschedConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/jobschedConfig.cmake INSTALL_DESTINATION ${JOBSCHED_CMAKE_DIR})
# A plugin must be built against the very version that loads it (the loader checks): 0.1.x and 0.2 are not the same
# interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/jobschedConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/jobschedConfig.cmake ${PROJECT_BINARY_DIR}/jobschedConfigVersion.cmake
        DESTINATION ${JOBSCHED_CMAKE_DIR})

# pkg-config: the paths are relative to the file's own prefix, so a tree installed elsewhere (DESTDIR, a copied
# prefix) still works.
file(RELATIVE_PATH JOBSCHED_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
string(REGEX REPLACE "/$" "" JOBSCHED_PC_TO_PREFIX "${JOBSCHED_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/jobsched.pc.in ${PROJECT_BINARY_DIR}/jobsched.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/jobsched.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The scenarios keep their relative paths to the platforms and deployments they name.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios ${PROJECT_SOURCE_DIR}/platforms ${PROJECT_SOURCE_DIR}/deployments
        DESTINATION ${CMAKE_INSTALL_DATADIR}/jobsched)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The Debian package. Its run-time dependencies are read off the installed binaries by dpkg-shlibdeps (package
# dpkg-dev); building a plugin against it also needs the headers of SimGrid and Boost, hence the Recommends.
set(CPACK_PACKAGE_NAME jobsched)
set(CPACK_PACKAGE_VENDOR "jobsched")
set(CPACK_PACKAGE_CONTACT "jobsched developers <jobsched@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Simulator of parallel job scheduling policies, a SimGrid plugin")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
       "jobsched simulates how parallel jobs are scheduled on distributed-memory machines, SMP clusters and networks "
       "of workstations: YAML scenarios, SimGrid platforms, Batsim-compatible jobs.csv. The package has the launcher, "
       "the library, its headers and CMake and pkg-config files for out-of-tree policies, and example scenarios.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libsimgrid-dev (>= 3.32), libboost-dev, pkg-config, cmake, g++")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "gnuplot-nox")
include(CPack)
