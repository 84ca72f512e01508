// The OBJ and STL mesh readers (io/mesh_io.hpp): what they read, and the
// bad files they refuse naming the file (and line).
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "io/mesh_io.hpp"

using namespace contactlab;

namespace {

const std::string kCorpus = CONTACTLAB_FUZZ_CORPUS;

std::string error_of(const std::string& text, bool obj) {
  try {
    if (obj)
      (void)read_obj_text(text, "m.obj");
    else
      (void)read_stl_bytes(text, "m.stl");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("mesh io: OBJ polygons are triangulated, STL corners are shared, binary and ASCII agree") {
  const TriangleMesh tetra = read_mesh_file(kCorpus + "/obj/tetra.obj");
  CHECK(tetra.vertices.size() == 4);
  CHECK(tetra.faces.size() == 4);
  CHECK((tetra.vertices[3] - Vec3(0, 0, 1)).norm() == 0);
  CHECK(tetra.faces[0] == std::array<int, 3>{0, 2, 1});  // 1-based in the file
  const TriangleMesh cube = read_mesh_file(kCorpus + "/obj/cube_quads.obj");
  CHECK(cube.vertices.size() == 8);
  CHECK(cube.faces.size() == 12);  // six quads
  const TriangleMesh ascii = read_mesh_file(kCorpus + "/stl/tetra_ascii.stl");
  const TriangleMesh binary = read_mesh_file(kCorpus + "/stl/tetra_binary.stl");
  CHECK(ascii.vertices.size() == 4);  // 12 corners, 4 distinct
  CHECK(ascii.faces.size() == 4);
  REQUIRE(binary.vertices.size() == ascii.vertices.size());
  for (size_t i = 0; i < ascii.vertices.size(); ++i) CHECK((binary.vertices[i] - ascii.vertices[i]).norm() == 0);
  CHECK(binary.faces == ascii.faces);
}

TEST_CASE("mesh io: bad files are refused naming the file, and the line where there is one") {
  CHECK(error_of("", true) == "m.obj: empty file");
  CHECK(error_of("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", true).find("coplanar") != std::string::npos);
  CHECK(error_of("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 9\n", true).find("m.obj:") == 0);
  CHECK(error_of("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n", true).find("no faces") != std::string::npos);
  CHECK(error_of("v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 1\nf 1 2 3\nf 1 2 4\n", true) ==
        "m.obj:4: vertex coordinate 'nan' is not a finite number");
  CHECK(error_of("v 0 0 0\nv 1 0\n", true) == "m.obj:2: a vertex needs three coordinates");
  CHECK(error_of("v 0 0 0\nv 0 0 0\nv 0 0 0\nv 0 0 0\nf 1 2 3\n", true).find("zero area") != std::string::npos);
  CHECK(error_of("", false) == "m.stl: empty file");
  CHECK(error_of("garbage that is neither", false).find("neither a binary STL file") != std::string::npos);
  CHECK(error_of("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\n", false) ==
        "m.stl:6: a facet needs exactly three vertices, got 2");
  CHECK(error_of("solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n",
                 false) == "m.stl: no 'endsolid': the file is truncated");
  CHECK(error_of("solid x\n  vertex 0 inf 0\n", false) == "m.stl:2: 'vertex' needs three numbers");
  CHECK(error_of("solid x\n  wobble\n", false) == "m.stl:2: unexpected 'wobble' in an ASCII STL file");
  // A binary file whose count promises more than it holds is neither format.
  std::string truncated(84, '\0');
  truncated[80] = 2;
  CHECK(error_of(truncated, false).find("neither a binary STL file") != std::string::npos);
  const std::string missing = "no_such_mesh.obj";
  CHECK_THROWS_WITH_AS(read_mesh_file(missing), doctest::Contains("no_such_mesh.obj: cannot open the file"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(read_mesh_file("mesh.ply"), doctest::Contains("unknown mesh format '.ply'"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(read_mesh_file(kCorpus + "/obj/bad_flat.obj"), doctest::Contains("bad_flat.obj: degenerate mesh"),
                       std::invalid_argument);
}
