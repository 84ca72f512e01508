// MJCF <include file="..."/>: splices included files into one XML text before
// the model is read, keeping for every line of that text the file and line it
// came from, so that every error and warning names the file that holds the element.
//
// MuJoCo's rules (XML reference, "include"): the file is relative to the
// directory of the MAIN model file (also for nested includes); its unique
// top-level element is dropped and its children take the place of the
// <include>; at least one element must come in; a file may be included at
// most once in the whole model (so a cycle is an error too).
//
// <replicate count offset euler sep> is expanded at the same stage, as text
// for the same reason: copy i becomes a <frame> with pose T^i and a name
// suffix that io/mjcf_frames.cpp folds and applies (docs/mjcf.md).
//
// Splicing text rather than cloning tinyxml2 nodes keeps the line numbers
// (a cloned node has none). Each spliced piece starts on a line of its own, so
// a line of the merged text comes from exactly one file line.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace contactlab {

struct MjcfSourceLine {
  int file = 0;  // index into MjcfSource::files
  int line = 0;  // 1-based line in that file (0: unknown)
};

struct MjcfSource {
  std::string text;                  // the merged document
  std::vector<std::string> files;    // files[0] is the main file (or the label of a string)
  std::vector<MjcfSourceLine> lines;  // lines[i]: where line i + 1 of `text` comes from
  std::string model_dir;             // directory includes and asset files are relative to

  // File and line of a line of `text` (line 0 or out of range: the main file, line 0).
  const std::string& file_of(int merged_line) const;
  int line_of(int merged_line) const;
};

// Reads `text` (the main document, named `label` in messages) and splices its
// includes, which are resolved against `model_dir` (empty: the current
// directory), then expands <replicate>s. Throws MjcfError naming the file and
// line of the offending <include> (missing file, cycle, repeated file, empty
// file, malformed XML) or <replicate> (bad count, offset, euler; unpaired tags;
// an expansion past `max_bytes` of XML).
MjcfSource expand_mjcf_includes(const std::string& text, const std::string& label, const std::string& model_dir,
                                size_t max_bytes = size_t(1) << 28);

}  // namespace contactlab
