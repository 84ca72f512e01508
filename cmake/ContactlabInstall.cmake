# `cmake --install build [--prefix DIR]`: the layer libraries, their headers
# under include/contactlab/LAYER/, the contactlab command, the built-in scenes
# and a CMake package, so that another project uses
#
#   find_package(contactlab REQUIRED)
#   target_link_libraries(app PRIVATE contactlab::contactlab)
#
# (examples/ are such projects; scripts/test_examples.sh builds them against
# an install into a temporary prefix).
include(CMakePackageConfigHelpers)

set(CONTACTLAB_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/contactlab")

install(TARGETS ${CONTACTLAB_LAYER_TARGETS} ${CONTACTLAB_EXPORTED_TARGETS}
        EXPORT contactlabTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS contactlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(layer IN LISTS CONTACTLAB_LAYERS)
  if(layer STREQUAL "apps" OR layer STREQUAL "fuzz" OR layer STREQUAL "python")
    continue()
  endif()
  install(DIRECTORY "${CMAKE_SOURCE_DIR}/${layer}/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/contactlab/${layer}"
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
endforeach()
install(DIRECTORY "${CMAKE_SOURCE_DIR}/scenes/" DESTINATION "${CMAKE_INSTALL_DATADIR}/contactlab/scenes"
        FILES_MATCHING PATTERN "*.xml")
install(EXPORT contactlabTargets NAMESPACE contactlab:: DESTINATION "${CONTACTLAB_INSTALL_CMAKEDIR}")

configure_package_config_file("${CMAKE_SOURCE_DIR}/cmake/contactlabConfig.cmake.in"
  "${CMAKE_BINARY_DIR}/contactlabConfig.cmake"
  INSTALL_DESTINATION "${CONTACTLAB_INSTALL_CMAKEDIR}"
  PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/contactlabConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/contactlabConfig.cmake" "${CMAKE_BINARY_DIR}/contactlabConfigVersion.cmake"
        DESTINATION "${CONTACTLAB_INSTALL_CMAKEDIR}")
