// The data file of the page `contactlab view` writes (data.js): the scene's
// geometry, each trajectory's poses in the scene's body order, and the
// contacts, as one JavaScript assignment (a page opened from file:// may not
// fetch JSON, but it may run a script beside it).
#pragma once

#include <string>
#include <vector>

#include "core/model.hpp"
#include "io/trajectory_csv.hpp"

namespace contactlab {

struct ViewInput {
  std::string scene;                        // as given on the command line
  const Model* model = nullptr;
  std::vector<TrajectoryFile> trajectories; // each checked against the model (match_trajectory)
  const ContactsFile* contacts = nullptr;   // optional, of the first trajectory
};

// Throws naming the file, line and body when the trajectory's bodies are not
// exactly the model's (an unknown body, a missing one).
void match_trajectory(const Model& model, const std::string& scene, const TrajectoryFile& trajectory);
// The same for a contacts file: bodies the model has (or "world"), steps the
// first trajectory has.
void match_contacts(const Model& model, const std::string& scene, const TrajectoryFile& first,
                    const ContactsFile& contacts);

std::string view_data_script(const ViewInput& input);

}  // namespace contactlab
