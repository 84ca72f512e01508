# Writes OUTPUT, a C++ file defining the viewer's page files as strings
# (apps/view_assets.hpp). Run by the build whenever viewer/index.html or
# viewer/viewer.js changes: cmake -DVIEWER_DIR=... -DOUTPUT=... -P EmbedViewer.cmake
file(READ "${VIEWER_DIR}/index.html" html)
file(READ "${VIEWER_DIR}/viewer.js" script)
foreach(text IN ITEMS html script)
  string(FIND "${${text}}" ")contactlab_view\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "viewer/${text} contains the raw-string delimiter )contactlab_view\"")
  endif()
endforeach()
file(WRITE "${OUTPUT}.tmp"
  "// Generated from viewer/ by cmake/EmbedViewer.cmake; do not edit.\n"
  "#include \"apps/view_assets.hpp\"\n"
  "namespace contactlab {\n"
  "const char* const kViewerIndexHtml = R\"contactlab_view(${html})contactlab_view\";\n"
  "const char* const kViewerScript = R\"contactlab_view(${script})contactlab_view\";\n"
  "}  // namespace contactlab\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
