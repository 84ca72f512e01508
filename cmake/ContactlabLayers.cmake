# The layers of cmake/layers.txt as libraries.
#
# contactlab_add_layer(LAYER [EXCLUDE regex...] [SOURCES file...]) makes the
# static library contactlab_LAYER (exported as contactlab::LAYER) from
# LAYER/**/*.cpp, linked to the layers its line in layers.txt names. Its
# include directory is a view: a folder of the build tree holding links to
# LAYER and to the layers it may use (transitively) and nothing else, so that
# `#include "schemes/..."` from solvers/ does not compile. Installed headers
# keep the same paths under include/contactlab/.

file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/layers.txt" _contactlab_layer_lines)
set(CONTACTLAB_LAYERS "")
foreach(_line IN LISTS _contactlab_layer_lines)
  string(REGEX REPLACE "#.*" "" _line "${_line}")
  string(STRIP "${_line}" _line)
  if(_line STREQUAL "")
    continue()
  endif()
  if(NOT _line MATCHES "^([a-z_]+):(.*)$")
    message(FATAL_ERROR "cmake/layers.txt: cannot read line '${_line}' (expected 'LAYER: DEPENDENCIES')")
  endif()
  set(_name "${CMAKE_MATCH_1}")
  string(STRIP "${CMAKE_MATCH_2}" _deps)
  separate_arguments(_deps UNIX_COMMAND "${_deps}")
  set(CONTACTLAB_LAYER_DEPS_${_name} ${_deps})
  list(APPEND CONTACTLAB_LAYERS ${_name})
endforeach()

# The layers LAYER may use, directly or through others.
function(contactlab_layer_closure layer out)
  set(result "")
  set(stack ${CONTACTLAB_LAYER_DEPS_${layer}})
  while(stack)
    list(POP_FRONT stack d)
    if(NOT d IN_LIST result)
      list(APPEND result ${d})
      list(APPEND stack ${CONTACTLAB_LAYER_DEPS_${d}})
    endif()
  endwhile()
  set(${out} ${result} PARENT_SCOPE)
endfunction()

# CONTACTLAB_LAYER_VIEW_<layer>: the include folder that shows only what LAYER may use.
function(contactlab_add_layer_view layer)
  if(NOT layer IN_LIST CONTACTLAB_LAYERS)
    message(FATAL_ERROR "contactlab_add_layer_view: '${layer}' is not in cmake/layers.txt")
  endif()
  contactlab_layer_closure(${layer} visible)
  set(view "${CMAKE_BINARY_DIR}/layer_views/${layer}")
  file(REMOVE_RECURSE "${view}")
  file(MAKE_DIRECTORY "${view}")
  foreach(d IN LISTS visible ITEMS ${layer})
    file(CREATE_LINK "${CMAKE_SOURCE_DIR}/${d}" "${view}/${d}" SYMBOLIC)
  endforeach()
  set(CONTACTLAB_LAYER_VIEW_${layer} "${view}" PARENT_SCOPE)
endfunction()

set(CONTACTLAB_LAYER_TARGETS "")
macro(contactlab_add_layer layer)
  cmake_parse_arguments(_layer "" "" "EXCLUDE;SOURCES" ${ARGN})
  file(GLOB_RECURSE _layer_sources CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/${layer}/*.cpp")
  foreach(_regex IN LISTS _layer_exclude _layer_EXCLUDE)
    list(FILTER _layer_sources EXCLUDE REGEX "^${CMAKE_SOURCE_DIR}/${_regex}$")
  endforeach()
  list(APPEND _layer_sources ${_layer_SOURCES})
  contactlab_add_layer_view(${layer})
  add_library(contactlab_${layer} STATIC ${_layer_sources})
  target_include_directories(contactlab_${layer} PUBLIC
    $<BUILD_INTERFACE:${CONTACTLAB_LAYER_VIEW_${layer}}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/contactlab>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  foreach(_dep IN LISTS CONTACTLAB_LAYER_DEPS_${layer})
    target_link_libraries(contactlab_${layer} PUBLIC contactlab_${_dep})
  endforeach()
  target_compile_options(contactlab_${layer} PRIVATE ${CONTACTLAB_WARNINGS})
  set_target_properties(contactlab_${layer} PROPERTIES EXPORT_NAME ${layer})
  add_library(contactlab::${layer} ALIAS contactlab_${layer})
  list(APPEND CONTACTLAB_LAYER_TARGETS contactlab_${layer})
endmacro()
