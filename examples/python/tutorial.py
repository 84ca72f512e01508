"""contactlab from Python, start to finish (docs/python.md walks through it):
load a scene, roll it out, plot it, take a gradient and check it, run a tiny
optimisation, and step a batch of worlds.

    PYTHONPATH=build/python python3 examples/python/tutorial.py [OUT_DIR]
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files, no window: runs on a server too
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import contactlab as cl  # noqa: E402

out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out_dir, exist_ok=True)

# 1. Load and roll out: a 1 kg box on a floor (mu = 0.5), pushed along +x.
model = cl.load("box_ramp")
print(model)
sim = cl.Simulation(model, contact="desaxce", solver="padmm", scheme="velocity")
sim.set_ctrl("push", 6.0)  # held for every step, as `contactlab run --ctrl push=6`
traj = sim.rollout(steps=500)  # 0.5 s at the file's dt = 1 ms
x = traj["pos"][:, 0, 0]
print(f"after {traj['time'][-1]:.3f} s the box is at x = {x[-1]:.6f} m; "
      f"{int((traj['stats']['converged'] == 0).sum())} steps did not converge")
# Against the analytic answer: a = (6 - mu m g) / m, x = a t^2 / 2.
a = 6.0 - 0.5 * 9.81
print(f"analytic x = {a * 0.5**2 / 2:.6f} m")

# 2. Plot it.
fig, ax = plt.subplots(1, 2, figsize=(9, 3.2))
ax[0].plot(traj["time"], x)
ax[0].set_xlabel("t [s]")
ax[0].set_ylabel("box x [m]")
ax[1].plot(traj["time"][1:], traj["stats"]["iterations"])
ax[1].set_xlabel("t [s]")
ax[1].set_ylabel("solver iterations")
fig.tight_layout()
fig.savefig(os.path.join(out_dir, "tutorial_rollout.png"), dpi=100)
print("wrote", os.path.join(out_dir, "tutorial_rollout.png"))

# 3. A gradient, and its check against central differences.
g = cl.grad("box_ramp", loss="final:box.px", wrt=["ctrl:push", "param:geom.box.friction"],
            steps=500, ctrl={"push": 6.0})
print("d x(T) / d push    =", g["gradient"]["ctrl:push"], "(analytic T^2/2 = 0.125)")
print("d x(T) / d mu_box  =", g["gradient"]["param:geom.box.friction"])
check = cl.gradcheck("box_ramp", loss="final:box.px", wrt=["ctrl:push"], steps=500, ctrl={"push": 6.0},
                     options={"solver.tol_primal": 1e-12, "solver.tol_dual": 1e-12, "solver.tol_compl": 1e-12,
                              "solver.max_iterations": 5000}, tol=1e-5)
print("gradcheck:", "ok" if check["ok"] else "FAIL", check["entries"][0]["relative_error"])

# 4. A tiny optimisation: the constant push that brings the box to x = 0.2 m at T = 0.5 s,
#    by gradient descent on the loss |p(T) - (0.2, 0, 0.1)|^2.
u, rate = 5.5, 25.0
for it in range(10):
    r = cl.grad("box_ramp", loss="sumsq:box.pos=0.2,0,0.1", wrt=["ctrl:push"], steps=500, ctrl={"push": u})
    print(f"iteration {it}: push {u:.6f} N, loss {r['loss']:.3e}")
    u -= rate * r["gradient"]["ctrl:push"]
print(f"optimised push {u:.6f} N (analytic {0.2 / 0.125 + 0.5 * 9.81:.6f} N)")

# 5. A batch: 16 boxes pushed with 16 different forces, stepped together on the CPU pool.
batch = cl.Batch(model, 16)
pushes = np.linspace(5.0, 8.0, 16)
for _ in range(500):
    batch.apply_scheduled_controls()
    batch.ctrl[:, 0] = pushes  # a writable view of every world's controls
    batch.step(scheduled_controls=False)
final_x = batch.x_W[:, 0, 0]
print("final x per push:", np.round(final_x, 4))
