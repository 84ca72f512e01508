#!/usr/bin/env python3
"""Writes scenes/terrain_drive.xml and its height field scenes/terrain_drive.hfield.

Ostrich's terrain (shared/docs/STUDIES.md, study O6): a 24 x 24 m
sum-of-sinusoids height map as a triangle grid of about 12.5k faces, here an
80 x 80-vertex MJCF hfield (2 * 79^2 = 12482 triangles, spacing 0.304 m),
with the wheeled robot of scenes/wheeled_pallet.xml. The paper does not give
the sinusoids; this draws SINUSOIDS of them from a seeded generator within
the suggested ranges (amplitude 0.05-0.3 m, wavelength 3-12 m, any
direction and phase). The height field file is MuJoCo's binary format
(int32 nrow, int32 ncol, float32 heights, row 0 at y = -12 m), which both
contactlab and MuJoCo 2.2.2 read; both normalise it to [0, 1], so the
geom's size[2] is the height range and its z the lowest height.

usage: scripts/make_terrain_drive.py [--seed S] [--out-dir scenes]
"""
import argparse
import math
import os
import random
import struct

N = 80            # vertices per side
HALF = 12.0       # m, half-extent
SINUSOIDS = 5
ROBOT_WHEELS = [(0.375, 0.45), (0.375, -0.45), (-0.375, 0.0)]  # relative to the chassis (wheeled_pallet)
WHEEL_R = 0.35
WHEEL_HALF_WIDTH = 0.05


def sinusoids(seed):
    rng = random.Random(seed)
    out = []
    for _ in range(SINUSOIDS):
        amp = rng.uniform(0.05, 0.3)
        wavelength = rng.uniform(3.0, 12.0)
        direction = rng.uniform(0.0, math.pi)
        phase = rng.uniform(0.0, 2 * math.pi)
        out.append((amp, wavelength, direction, phase))
    return out


def height(waves, x, y):
    return sum(a * math.sin(2 * math.pi * (x * math.cos(d) + y * math.sin(d)) / w + p) for a, w, d, p in waves)


def grid_xy(k):
    return k * 2 * HALF / (N - 1) - HALF


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out-dir", default=os.path.join(os.path.dirname(__file__), "..", "scenes"))
    args = ap.parse_args()
    waves = sinusoids(args.seed)
    # float32 as the file stores them: what both readers see.
    heights = [struct.unpack("<f", struct.pack("<f", height(waves, grid_xy(i), grid_xy(j))))[0]
               for j in range(N) for i in range(N)]
    lo, hi = min(heights), max(heights)
    with open(os.path.join(args.out_dir, "terrain_drive.hfield"), "wb") as f:
        f.write(struct.pack("<ii", N, N))
        f.write(struct.pack("<%df" % len(heights), *heights))
    # The chassis starts level at the origin, 1 cm above the lowest it could
    # be with no wheel touching the surface (the exact sinusoids, each wheel's
    # rim sampled every degree on its two faces and mid-plane).
    chassis_z = 0.01 + max(height(waves, x + WHEEL_R * math.sin(t), y + dy) + WHEEL_R * math.cos(t)
                           for x, y in ROBOT_WHEELS for dy in (-WHEEL_HALF_WIDTH, 0.0, WHEEL_HALF_WIDTH)
                           for t in (math.radians(k) for k in range(-90, 91)))
    wave_text = "\n".join("  amplitude %.4f m, wavelength %.4f m, direction %.4f rad, phase %.4f rad" % w for w in waves)
    xml = TEMPLATE.format(seed=args.seed, waves=wave_text, lo=lo, range=hi - lo, lo_plus_range=hi, z=chassis_z, n=N,
                          half=HALF, faces=2 * (N - 1) ** 2, sinusoids_n=SINUSOIDS)
    with open(os.path.join(args.out_dir, "terrain_drive.xml"), "w") as f:
        f.write(xml)


TEMPLATE = """<!--
terrain_drive: the wheeled robot of wheeled_pallet (106 kg; chassis box
0.5 x 0.35 x 0.08 m, three cylindrical wheels of radius 0.35 m on hinges
with velocity servos kv = 100) on Ostrich's terrain (study O6): a 24 x 24 m
sum of sinusoids as an hfield of {n} x {n} vertices ({faces} triangles,
spacing 0.304 m), file terrain_drive.hfield (MuJoCo's binary format).
Written by scripts/make_terrain_drive.py --seed {seed} from {sinusoids_n}
sinusoids h(x, y) = sum a sin(2 pi (x cos d + y sin d) / w + p):
{waves}
Heights span [{lo:.4f}, {lo_plus_range:.4f}] m: the hfield's size[2] is the
range and the geom sits at z = {lo:.4f} (both readers normalise the file to
[0, 1]). The chassis starts level at the origin, its wheels at least 1 cm
above the surface; the wheels are commanded to 3 rad/s (about 1.05 m/s)
for 10 s.

Parameters: friction 0.9 (terrain, wheels; STUDIES.md suggests 0.9),
g = 9.81 m/s^2, time step 10 ms (Ostrich's study runs h = 80 ms:
contactlab run terrain_drive --dt 0.08). No analytic reference: the scene
is for timings, gradients and the terrain study.
-->
<mujoco model="terrain_drive">
  <compiler angle="degree"/>
  <option timestep="0.01" gravity="0 0 -9.81" integrator="implicit"/>
  <asset>
    <hfield name="terrain" file="terrain_drive.hfield" size="{half} {half} {range:.9g} 0.5"/>
  </asset>
  <worldbody>
    <geom name="terrain" type="hfield" hfield="terrain" pos="0 0 {lo:.9g}" friction="0.9"/>
    <body name="chassis" pos="0 0 {z:.6f}">
      <freejoint name="chassis_free"/>
      <geom name="chassis" type="box" size="0.5 0.35 0.08" mass="89.5" friction="0.9"/>
      <body name="wheel_left" pos="0.375 0.45 0">
        <joint name="axle_left" type="hinge" axis="0 1 0"/>
        <geom name="wheel_left" type="cylinder" size="0.35 0.05" euler="90 0 0" mass="5.5" friction="0.9"/>
      </body>
      <body name="wheel_right" pos="0.375 -0.45 0">
        <joint name="axle_right" type="hinge" axis="0 1 0"/>
        <geom name="wheel_right" type="cylinder" size="0.35 0.05" euler="90 0 0" mass="5.5" friction="0.9"/>
      </body>
      <body name="wheel_rear" pos="-0.375 0 0">
        <joint name="axle_rear" type="hinge" axis="0 1 0"/>
        <geom name="wheel_rear" type="cylinder" size="0.35 0.05" euler="90 0 0" mass="5.5" friction="0.9"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <velocity name="drive_left" joint="axle_left" kv="100" ctrlrange="-10 10" ctrllimited="true"/>
    <velocity name="drive_right" joint="axle_right" kv="100" ctrlrange="-10 10" ctrllimited="true"/>
    <velocity name="drive_rear" joint="axle_rear" kv="100" ctrlrange="-10 10" ctrllimited="true"/>
  </actuator>
  <custom>
    <numeric name="contactlab.duration" data="10"/>
    <!-- contactlab: constant wheel speed command, 3 rad/s (about 1.05 m/s). -->
    <numeric name="contactlab.ctrl.drive_left" data="0 3 10 3"/>
    <numeric name="contactlab.ctrl.drive_right" data="0 3 10 3"/>
    <numeric name="contactlab.ctrl.drive_rear" data="0 3 10 3"/>
  </custom>
</mujoco>
"""

if __name__ == "__main__":
    main()
