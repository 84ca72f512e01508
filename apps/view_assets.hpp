// The page's own files, viewer/index.html and viewer/viewer.js, compiled in
// (cmake/EmbedViewer.cmake) so that the command needs only three.js beside it.
#pragma once

namespace contactlab {

extern const char* const kViewerIndexHtml;
extern const char* const kViewerScript;

}  // namespace contactlab
