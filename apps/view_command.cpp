#include "apps/view_command.hpp"

#include <boost/program_options.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "apps/command_line.hpp"
#include "apps/view_assets.hpp"
#include "apps/view_data.hpp"
#include "apps/view_folder.hpp"
#include "io/mjcf.hpp"
#include "io/scene_library.hpp"

namespace po = boost::program_options;

namespace contactlab {

namespace {

// three.js' classic build: CONTACTLAB_THREE_JS, else what scripts/setup.sh
// installs (npm ci in viewer/). Never fetched at view time.
std::string three_module_path() {
  const char* env = std::getenv("CONTACTLAB_THREE_JS");
  const std::string path = env && *env ? std::string(env)
                                       : std::string(CONTACTLAB_VIEWER_DIR) + "/node_modules/three/build/three.min.js";
  if (!std::filesystem::is_regular_file(path))
    throw std::runtime_error("three.js is missing: '" + path + "' is not a file" +
                             (env && *env ? " (CONTACTLAB_THREE_JS)" : "") +
                             "; run scripts/setup.sh (npm ci in viewer/), or set CONTACTLAB_THREE_JS to a three.min.js");
  return path;
}

int view_command(const std::vector<std::string>& files, const std::string& scene, const std::string& contacts,
                 const std::string& out, bool allow_unsupported) {
  try {
    MjcfLoadOptions load_options;
    load_options.allow_unsupported = allow_unsupported;
    const Model model = load_mjcf_file(resolve_scene(scene), load_options);
    ViewInput in;
    in.scene = scene;
    in.model = &model;
    // A row is a site row when the scene has that site and no body of that name.
    auto is_site = [&](const std::string& name) {
      return name.rfind("site.", 0) == 0 && model.find_body(name) < 0 && model.find_site(name.substr(5)) >= 0;
    };
    for (const std::string& f : files) {
      in.trajectories.push_back(read_trajectory_csv(f, is_site));
      match_trajectory(model, scene, in.trajectories.back());
    }
    ContactsFile contact_rows;
    if (!contacts.empty()) {
      contact_rows = read_contacts_csv(contacts);
      match_contacts(model, scene, in.trajectories.front(), contact_rows);
      in.contacts = &contact_rows;
    }
    // After the inputs' checks, so that their errors come first; before anything is written.
    const std::string three_path = three_module_path();
    const std::string three_license = std::filesystem::path(three_path).parent_path().parent_path() / "LICENSE";
    std::vector<FolderFile> page = {{"index.html", kViewerIndexHtml},
                                    {"viewer.js", kViewerScript},
                                    {"three.min.js", read_whole_file(three_path)},
                                    {"data.js", view_data_script(in)}};
    if (std::filesystem::is_regular_file(three_license))
      page.push_back({"three-LICENSE.txt", read_whole_file(three_license)});  // three.js is MIT: its notice goes along
    write_folder(out, page);
    std::cerr << "contactlab view: wrote " << out << "/index.html (" << in.trajectories.size() << " trajector"
              << (in.trajectories.size() == 1 ? "y" : "ies") << ", " << in.trajectories.front().frames.size()
              << " frames, " << model.num_bodies() << " bodies); open it in a browser" << std::endl;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "contactlab view: error: " << e.what() << std::endl;
    return 1;
  }
}

}  // namespace

int view_cli(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  std::string scene, contacts, out = "view";
  bool allow_unsupported = false;
  po::options_description opts("contactlab view TRAJ.csv... --scene SCENE [options]");
  opts.add_options()("help,h", "this help")
      ("scene", po::value(&scene), "the scene the trajectories ran on: an MJCF file or a built-in scene name")
      ("contacts", po::value(&contacts), "contact points and forces of the first trajectory (contactlab run --contacts)")
      ("out", po::value(&out), "folder to write the page into (default: view)")
      ("allow-unsupported", po::bool_switch(&allow_unsupported), "load a scene despite MJCF features contactlab ignores");
  po::variables_map vm;
  if (const int code = parse_command_line(args, "contactlab view", opts, "trajectory", po::value(&files), -1, vm);
      code >= 0)
    return code;
  if (files.empty()) {
    std::cerr << "contactlab view: error: missing TRAJ.csv (a trajectory written by contactlab run --out)\n";
    return 2;
  }
  if (scene.empty()) {
    std::cerr << "contactlab view: error: missing --scene SCENE (the MJCF file or built-in scene the trajectory ran on)\n";
    return 2;
  }
  return view_command(files, scene, contacts, out, allow_unsupported);
}

}  // namespace contactlab
