# Test files compiled on their own in unity builds (tests/CMakeLists.txt):
# each defines a file-local helper (a struct, a function, a constant) under
# a name another test file also uses, which one batched source cannot hold.
# A new test file that fails to compile only in a unity build (redefinition,
# ambiguous call) goes here, or renames its helper. A new file listed here
# also leaves the other files' batches as they were (adding one to a batch
# shifts every later batch, and a shifted batch can meet a collision).
set(CONTACTLAB_UNITY_EXCLUDED_TESTS
  adjoints/test_exact_pullback.cpp
  adjoints/test_local_sensitivity.cpp
  adjoints/test_solve_adjoint.cpp
  apps/test_bench_scale.cpp
  apps/test_cli.cpp
  apps/test_reliability_parameters.cpp
  apps/test_reliability_problems.cpp
  apps/test_solve_cli.cpp
  apps/test_view.cpp
  contact_models/test_ccp.cpp
  contact_models/test_ccp_penalty.cpp
  contact_models/test_central_path.cpp
  geometry/test_exact_pairs.cpp
  geometry/test_hfield_pairs.cpp
  geometry/test_mesh_cylinder.cpp
  geometry/test_mesh_pairs.cpp
  io/test_mjcf.cpp
  io/test_mjcf_corpus.cpp
  io/test_mjcf_defaults.cpp
  io/test_mjcf_frames.cpp
  io/test_mjcf_hfield.cpp
  io/test_mjcf_hostile.cpp
  io/test_mjcf_include.cpp
  io/test_mjcf_semantics.cpp
  io/test_output_file.cpp
  optimizers/test_gradient_mpc.cpp
  optimizers/test_ilqr.cpp
  peers/test_siconos_peer.cpp
  schemes/test_joint_springs.cpp
  schemes/test_joints.cpp
  schemes/test_quasi_dynamic.cpp
  sim/test_gradients.cpp
  sim/test_gradients_rows.cpp
  sim/test_mesh_scenes.cpp
  sim/test_terrain_drive.cpp
  solvers/test_island_solve.cpp
  solvers/test_padmm_sparse.cpp
  solvers/test_pgs.cpp
  solvers/test_singular_delassus.cpp
  studies/test_compare.cpp
  studies/test_validation_matrix.cpp
)
