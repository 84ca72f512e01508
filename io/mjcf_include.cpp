// Include splicing for the MJCF reader: see mjcf_include.hpp.
#include "io/mjcf_include.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/math.hpp"
#include "io/mjcf.hpp"
#include "io/number_text.hpp"

namespace contactlab {

const std::string& MjcfSource::file_of(int merged_line) const {
  if (merged_line < 1 || merged_line > static_cast<int>(lines.size())) return files[0];
  return files[lines[merged_line - 1].file];
}

int MjcfSource::line_of(int merged_line) const {
  if (merged_line < 1 || merged_line > static_cast<int>(lines.size())) return 0;
  return lines[merged_line - 1].line;
}

namespace {

namespace fs = std::filesystem;

// A tag found by the scanner: [begin, end) spans '<' to '>' inclusive.
struct Tag {
  std::string name;
  bool closing = false;      // </name>
  bool self_closing = false;  // <name/>
  size_t begin = 0, end = 0;
};

// Start and end tags of `text` in order, skipping comments, CDATA, processing
// instructions and the DOCTYPE, whose text may hold '<' that is not a tag.
// Only called on text tinyxml2 has accepted, so it need not diagnose.
std::vector<Tag> scan_tags(const std::string& text) {
  std::vector<Tag> tags;
  size_t i = 0;
  const auto skip_past = [&](const char* terminator) {
    const size_t at = text.find(terminator, i);
    i = at == std::string::npos ? text.size() : at + std::strlen(terminator);
  };
  while ((i = text.find('<', i)) != std::string::npos) {
    if (text.compare(i, 4, "<!--") == 0) {
      skip_past("-->");
    } else if (text.compare(i, 9, "<![CDATA[") == 0) {
      skip_past("]]>");
    } else if (text.compare(i, 2, "<?") == 0) {
      skip_past("?>");
    } else if (text.compare(i, 2, "<!") == 0) {
      int bracket = 0;  // a DOCTYPE's internal subset [...] may hold '>'
      for (++i; i < text.size(); ++i) {
        if (text[i] == '[') ++bracket;
        if (text[i] == ']') --bracket;
        if (text[i] == '>' && bracket <= 0) break;
      }
      ++i;
    } else {
      Tag t;
      t.begin = i++;
      if (i < text.size() && text[i] == '/') {
        t.closing = true;
        ++i;
      }
      const size_t name_start = i;
      while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '/' &&
             text[i] != '>')
        ++i;
      t.name = text.substr(name_start, i - name_start);
      char quote = 0;
      for (; i < text.size(); ++i) {
        const char c = text[i];
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '>') {
          break;
        }
      }
      t.self_closing = !t.closing && i > 0 && text[i - 1] == '/';
      t.end = i + 1;
      i = t.end;
      tags.push_back(t);
    }
  }
  return tags;
}

// The merged text with the origin of each of its lines.
struct Mapped {
  std::string text;
  std::vector<MjcfSourceLine> lines{MjcfSourceLine{}};
  bool line_empty = true;  // nothing yet on the last line: its origin is not set
  mutable std::vector<size_t> newlines;            // line_of's index of text's newlines
  mutable size_t newlines_of_size = size_t(-1);    // the text size it was built for

  // Appends s, whose first character is at `start` in its file.
  void append(const std::string& s, size_t from, size_t to, MjcfSourceLine start) {
    for (size_t k = from; k < to; ++k) {
      if (line_empty) {
        lines.back() = start;
        line_empty = false;
      }
      text += s[k];
      if (s[k] == '\n') {
        ++start.line;
        lines.push_back(start);
        line_empty = true;
      }
    }
  }
  void append(const Mapped& m) {
    for (size_t k = 0, line = 0; k < m.text.size(); ++k) {
      if (line_empty) {
        lines.back() = m.lines[line];
        line_empty = false;
      }
      text += m.text[k];
      if (m.text[k] == '\n') {
        ++line;
        lines.push_back(m.lines[line]);
        line_empty = true;
      }
    }
  }
  // How many newlines text[0, offset) holds, by binary search in the offsets
  // of its newlines (found once: a replicate appends its content count times,
  // and counting from the start each time was quadratic, a fuzz timeout).
  size_t line_of(size_t offset) const {
    if (newlines_of_size != text.size()) {
      newlines.clear();
      for (size_t k = 0; k < text.size(); ++k)
        if (text[k] == '\n') newlines.push_back(k);
      newlines_of_size = text.size();
    }
    return static_cast<size_t>(std::lower_bound(newlines.begin(), newlines.end(), offset) - newlines.begin());
  }
  // Appends m.text[from, to).
  void append(const Mapped& m, size_t from, size_t to) {
    const size_t line = m.line_of(from), last = m.line_of(to);
    Mapped piece;
    piece.text = m.text.substr(from, to - from);
    piece.lines.assign(m.lines.begin() + line, m.lines.begin() + last + 1);
    append(piece);
  }
  // Appends generated text, attributed to `origin`.
  void generated(const std::string& s, MjcfSourceLine origin) { append(s, 0, s.size(), origin); }
  void newline() {
    text += '\n';
    lines.push_back(lines.back());
    line_empty = true;
  }
};

void parse_or_throw(tinyxml2::XMLDocument& doc, const std::string& text, const std::string& label) {
  size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // UTF-8 byte order mark
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  if (start == text.size()) throw MjcfError(label, 0, "empty file: not an MJCF document (expected <mujoco>)");
  if (text.find('\0') != std::string::npos || text[start] != '<')
    throw MjcfError(label, 0,
                    "not an XML file (binary data, or text that does not start with '<'): expected an MJCF <mujoco> "
                    "document");
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    const std::string full = doc.ErrorStr() ? doc.ErrorStr() : "";
    const size_t at = full.find(": ", full.find("Line number="));
    const std::string detail = at == std::string::npos ? "" : ": " + full.substr(at + 2);
    throw MjcfError(label, doc.ErrorLineNum(), std::string("XML parse error ") + doc.ErrorName() + detail);
  }
}

// The <include> elements of a document, in document order (iterative: the
// document may be deep, up to tinyxml2's depth limit).
std::vector<const tinyxml2::XMLElement*> include_elements(const tinyxml2::XMLElement* root) {
  std::vector<const tinyxml2::XMLElement*> out, stack{root};
  while (!stack.empty()) {
    const tinyxml2::XMLElement* el = stack.back();
    stack.pop_back();
    if (el != root && std::strcmp(el->Name(), "include") == 0) out.push_back(el);
    std::vector<const tinyxml2::XMLElement*> children;
    for (const tinyxml2::XMLElement* c = el->FirstChildElement(); c; c = c->NextSiblingElement()) children.push_back(c);
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
  return out;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class Expander {
 public:
  explicit Expander(MjcfSource& source) : source_(source) {
    // The main file counts as included once: including it again is a cycle.
    std::error_code ec;
    if (fs::is_regular_file(source.files[0], ec)) {
      const std::string key = fs::weakly_canonical(source.files[0], ec).string();
      seen_.push_back(key);
      chain_.push_back(key);
      chain_ids_.push_back(0);
    }
  }

  // The text of file `id` with its includes spliced; `inner`: only what lies
  // inside its top-level element (an included file).
  Mapped expand(int id, const std::string& text, bool inner) {
    const std::string label = source_.files[id];  // a copy: included files grow the vector
    tinyxml2::XMLDocument doc;
    parse_or_throw(doc, text, label);
    const tinyxml2::XMLElement* root = doc.RootElement();
    if (!root) throw MjcfError(label, 0, "no root element");
    const std::vector<const tinyxml2::XMLElement*> includes = include_elements(root);

    std::vector<Tag> tags = scan_tags(text);
    size_t begin = 0, end = text.size();
    if (inner) {
      // The root's start tag is the first tag, its end tag the last.
      if (tags.empty() || tags.front().self_closing || tags.size() < 2 || !root->FirstChildElement())
        throw MjcfError(label, root->GetLineNum(), "included file has no element inside <" + std::string(root->Name()) +
                                                       ">: nothing to include");
      begin = tags.front().end;
      end = tags.back().begin;
    }
    std::vector<size_t> line_starts{0};
    for (size_t k = 0; k < text.size(); ++k)
      if (text[k] == '\n') line_starts.push_back(k + 1);
    const auto origin = [&](size_t offset) {
      const auto it = std::upper_bound(line_starts.begin(), line_starts.end(), offset);
      return MjcfSourceLine{id, static_cast<int>(it - line_starts.begin())};
    };

    Mapped out;
    size_t done = begin, next = 0;
    for (size_t t = 0; t < tags.size(); ++t) {
      const Tag& tag = tags[t];
      if (tag.closing || tag.name != "include" || tag.begin < begin || tag.begin >= end) continue;
      if (next >= includes.size()) throw MjcfError(label, origin(tag.begin).line, "cannot match <include> tags");
      const tinyxml2::XMLElement* el = includes[next++];
      size_t stop = tag.end;
      if (!tag.self_closing) {
        if (el->FirstChild())
          throw MjcfError(label, el->GetLineNum(), "<include> must be empty (it is replaced by the included file)");
        while (t + 1 < tags.size() && !(tags[t + 1].closing && tags[t + 1].name == "include")) ++t;
        stop = tags[t + 1].end;
        ++t;
      }
      out.append(text, done, tag.begin, origin(done));
      out.newline();
      out.append(included(el, label));
      out.newline();
      done = stop;
    }
    out.append(text, done, end, origin(done));
    return out;
  }

 private:
  Mapped included(const tinyxml2::XMLElement* el, const std::string& label) {
    const int line = el->GetLineNum();
    for (const tinyxml2::XMLAttribute* a = el->FirstAttribute(); a; a = a->Next())
      if (std::strcmp(a->Name(), "file") != 0)
        throw MjcfError(label, line, std::string("<include> has unknown attribute '") + a->Name() + "'");
    const char* file = el->Attribute("file");
    if (!file || !*file) throw MjcfError(label, line, "<include> needs attribute 'file'");
    fs::path path = fs::path(file).is_absolute() ? fs::path(file) : fs::path(source_.model_dir) / file;
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
      throw MjcfError(label, line,
                      std::string("cannot open included file '") + file + "' (looked for " + path.string() +
                          "; include paths are relative to the main model file's directory)");
    const std::string key = fs::weakly_canonical(path, ec).string();
    for (size_t k = 0; k < chain_.size(); ++k) {
      if (chain_[k] != key) continue;
      std::string cycle;
      for (size_t m = k; m < chain_.size(); ++m) cycle += source_.files[chain_ids_[m]] + " -> ";
      throw MjcfError(label, line, "include cycle: " + cycle + path.string());
    }
    for (const std::string& seen : seen_)
      if (seen == key)
        throw MjcfError(label, line,
                        std::string("file '") + file + "' is included more than once (MuJoCo allows one inclusion)");
    seen_.push_back(key);
    const int id = static_cast<int>(source_.files.size());
    source_.files.push_back(path.string());
    chain_.push_back(key);
    chain_ids_.push_back(id);
    Mapped m = expand(id, read_file(path), true);
    chain_.pop_back();
    chain_ids_.pop_back();
    return m;
  }

  MjcfSource& source_;
  std::vector<std::string> seen_;   // canonical paths of every included file
  std::vector<std::string> chain_;  // canonical paths of the includes being expanded
  std::vector<int> chain_ids_;
};

// ---- replicate -------------------------------------------------------------

bool read_numbers(const char* text, Real* out, int n) {
  if (!text) return false;
  std::istringstream in(text);
  for (int i = 0; i < n; ++i)
    if (!(in >> out[i]) || !std::isfinite(out[i])) return false;
  std::string rest;
  return !(in >> rest);
}

// Expands every <replicate> (outermost first, then again until none is left):
// copy i of its content is wrapped in <frame pos quat contactlab_replicate=SUFFIX>
// holding the pose T^i (T = offset, euler; each replica relative to the
// previous, as MuJoCo), which io/mjcf_frames.cpp folds and whose suffix it
// appends to the names inside. Text copies keep each copy's file and line.
void expand_replicates(MjcfSource& source, size_t max_bytes) {
  const auto is_replicate = [](const Tag& t) { return t.name == "replicate"; };
  // Tags, not text: "<replicate" inside a comment or CDATA is no element, and
  // each pass must expand at least one element or the loop would never end.
  while (true) {
    const std::vector<Tag> tags = scan_tags(source.text);
    if (std::none_of(tags.begin(), tags.end(), is_replicate)) return;
    {
      tinyxml2::XMLDocument check;  // malformed XML: left for the reader to report at its line
      if (check.Parse(source.text.data(), source.text.size()) != tinyxml2::XML_SUCCESS) return;
    }
    Mapped in;
    in.text = std::move(source.text);
    in.lines = std::move(source.lines);
    const auto fail = [&](size_t offset, const std::string& message) {
      const int merged = 1 + static_cast<int>(in.line_of(offset));
      source.lines = in.lines;
      throw MjcfError(source.file_of(merged), source.line_of(merged), message);
    };
    const auto origin_at = [&](size_t offset) {
      return in.lines[in.line_of(offset)];
    };
    // compiler angle / eulerseq (the last setting wins, as MuJoCo)
    bool degrees = true;
    std::string seq = "xyz";
    {
      tinyxml2::XMLDocument doc;
      doc.Parse(in.text.data(), in.text.size());
      if (const tinyxml2::XMLElement* root = doc.RootElement())
        for (const tinyxml2::XMLElement* c = root->FirstChildElement("compiler"); c;
             c = c->NextSiblingElement("compiler")) {
          if (const char* a = c->Attribute("angle")) degrees = std::strcmp(a, "radian") != 0;
          if (const char* e = c->Attribute("eulerseq")) seq = e;
        }
    }
    if (seq.size() != 3) seq = "xyz";  // the reader reports a bad eulerseq itself
    Mapped out;
    size_t done = 0;
    int depth = 0;
    const Tag* open = nullptr;
    for (const Tag& tag : tags) {
      if (tag.name != "replicate") continue;
      if (!tag.closing && !tag.self_closing && depth++ == 0) open = &tag;
      if (tag.self_closing && depth == 0) fail(tag.begin, "<replicate> is empty: nothing to replicate");
      if (tag.closing && depth == 0) fail(tag.begin, "</replicate> without its <replicate>");
      if (!tag.closing || --depth != 0) continue;
      // Attributes of the outermost replicate: parse its start tag alone.
      std::string start = in.text.substr(open->begin, open->end - open->begin);
      start.insert(start.size() - 1, "/");
      tinyxml2::XMLDocument one;
      one.Parse(start.data(), start.size());
      const tinyxml2::XMLElement* r = one.RootElement();
      if (!r) fail(open->begin, "cannot read the <replicate> start tag");
      for (const tinyxml2::XMLAttribute* a = r->FirstAttribute(); a; a = a->Next()) {
        const char* n = a->Name();
        if (std::strcmp(n, "count") && std::strcmp(n, "offset") && std::strcmp(n, "euler") && std::strcmp(n, "sep"))
          fail(open->begin, std::string("<replicate> has unknown attribute '") + n + "'");
      }
      int count = 0;
      if (r->QueryIntAttribute("count", &count) != tinyxml2::XML_SUCCESS || count < 1)
        fail(open->begin, "<replicate> needs a positive integer 'count'");
      Real offset[3] = {0, 0, 0}, euler[3] = {0, 0, 0};
      if (r->Attribute("offset") && !read_numbers(r->Attribute("offset"), offset, 3))
        fail(open->begin, "<replicate> 'offset' needs 3 finite numbers");
      if (r->Attribute("euler") && !read_numbers(r->Attribute("euler"), euler, 3))
        fail(open->begin, "<replicate> 'euler' needs 3 finite numbers");
      const std::string sep = r->Attribute("sep") ? r->Attribute("sep") : "";
      const size_t inner = tag.begin - open->end;
      if (static_cast<double>(count) * static_cast<double>(inner + 200) + static_cast<double>(in.text.size()) >
          static_cast<double>(max_bytes))
        fail(open->begin, "<replicate> count=" + std::to_string(count) + " expands the model past " +
                              std::to_string(max_bytes) + " bytes of XML (MjcfLoadOptions::max_expanded_bytes)");
      Quat step = Quat::Identity();
      for (int i = 0; i < 3; ++i) {
        const char c = seq[i];
        const int k = std::tolower(static_cast<unsigned char>(c)) - 'x';
        if (k < 0 || k > 2) break;
        const Quat q(Eigen::AngleAxis<Real>(euler[i] * (degrees ? kPi / 180.0 : 1.0), Vec3::Unit(k)));
        step = std::islower(static_cast<unsigned char>(c)) ? step * q : q * step;  // as the reader's euler
      }
      const int width = static_cast<int>(std::to_string(count).size());
      const MjcfSourceLine origin = origin_at(open->begin);
      out.append(in, done, open->begin);
      Vec3 pos = Vec3::Zero();
      Quat quat = Quat::Identity();
      for (int i = 0; i < count; ++i) {
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "%0*d", width, i);
        const Real q[4] = {quat.w(), quat.x(), quat.y(), quat.z()};
        out.newline();
        out.generated("<frame pos=\"" + round_trip_list(pos.data(), 3) + "\" quat=\"" + round_trip_list(q, 4) +
                          "\" contactlab_replicate=\"" + sep + suffix + "\">",
                      origin);
        out.newline();
        out.append(in, open->end, tag.begin);
        out.newline();
        out.generated("</frame>", origin);
        pos += quat * Vec3(offset[0], offset[1], offset[2]);
        quat = (quat * step).normalized();
      }
      out.newline();
      done = tag.end;
    }
    if (depth != 0) fail(open->begin, "<replicate> without its </replicate>");
    out.append(in, done, in.text.size());
    source.text = std::move(out.text);
    source.lines = std::move(out.lines);
  }
}

}  // namespace

MjcfSource expand_mjcf_includes(const std::string& text, const std::string& label, const std::string& model_dir,
                                size_t max_bytes) {
  MjcfSource source;
  source.files.push_back(label);
  source.model_dir = model_dir;
  if (text.find("<include") == std::string::npos) {  // the common case: nothing to splice
    source.text = text;
    const int n = 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    source.lines.reserve(n);
    for (int k = 1; k <= n; ++k) source.lines.push_back(MjcfSourceLine{0, k});
    expand_replicates(source, max_bytes);
    return source;
  }
  Expander expander(source);
  Mapped m = expander.expand(0, text, false);
  source.text = std::move(m.text);
  source.lines = std::move(m.lines);
  expand_replicates(source, max_bytes);
  return source;
}

}  // namespace contactlab
