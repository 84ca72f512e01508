# The sanitizer subset that CI runs (scripts/sanitize.sh --subset; docs/testing.md):
# the test files below in one executable linked to only the layers they use,
# so that a sanitized build of it fits CI's time. The numeric kernels (math,
# cones and laws, narrow phase, solvers, local sensitivities and solve
# adjoints) and, through sim and io, stepping with joints and contacts, and
# the fuzzers' kept inputs through the readers (where ASan sees what a
# Release build would read out of bounds silently); compound joints (three
# hinges, the armature's basis drift), joint ref and fluid forces with their
# gradients (the templated rows over dual numbers).
# Left out: studies, peers and apps, and the slowest files under the
# sanitizers; scripts/sanitize.sh --full runs everything.
set(CONTACTLAB_SUBSET_TEST_FILES
  core/test_math.cpp
  contact_models/test_cone.cpp
  contact_models/test_ccp.cpp
  contact_models/test_central_path.cpp
  geometry/test_collision.cpp
  geometry/test_broad_phase.cpp
  solvers/test_padmm.cpp
  solvers/test_pgs.cpp
  solvers/test_newton.cpp
  solvers/test_convex_newton.cpp
  adjoints/test_local_sensitivity.cpp
  adjoints/test_local_sensitivity_convex.cpp
  adjoints/test_solve_adjoint.cpp
  schemes/test_joints.cpp
  schemes/test_contacts.cpp
  schemes/test_compound_joint.cpp
  schemes/test_joint_ref.cpp
  schemes/test_fluid_forces.cpp
  io/test_fuzz_regressions.cpp
  io/test_output_file.cpp
  core/test_model_limits.cpp
  core/test_islands.cpp
  sim/test_run_parameters.cpp
  sim/test_control_file_cast.cpp)
set(CONTACTLAB_SUBSET_LAYERS core geometry contact_models solvers adjoints sim io)

list(TRANSFORM CONTACTLAB_SUBSET_TEST_FILES PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
add_executable(contactlab_subset_tests ${CONTACTLAB_SUBSET_TEST_FILES} subset_main.cpp)
# Not batched: unity_excluded.cmake is kept for the full test executable, whose
# batches differ from these (a unity build of this one would need its own list).
set_target_properties(contactlab_subset_tests PROPERTIES UNITY_BUILD OFF)
target_include_directories(contactlab_subset_tests PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
list(TRANSFORM CONTACTLAB_SUBSET_LAYERS PREPEND contactlab_ OUTPUT_VARIABLE _subset_targets)
target_link_libraries(contactlab_subset_tests PRIVATE ${_subset_targets} doctest::doctest)
target_compile_options(contactlab_subset_tests PRIVATE -Wall -Wextra)
target_compile_definitions(contactlab_subset_tests PRIVATE CONTACTLAB_SCENE_DIR="${CMAKE_SOURCE_DIR}/scenes"
  CONTACTLAB_TEST_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data" CONTACTLAB_FUZZ_CORPUS="${CMAKE_SOURCE_DIR}/fuzz/corpus")
doctest_discover_tests(contactlab_subset_tests)
