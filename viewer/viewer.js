// The page of `contactlab view` (docs/viewer.md): replays the trajectories of
// data.js (window.CONTACTLAB_VIEW) with three.js' classic build (global THREE;
// classic scripts, because a page opened from file:// may not load modules).
// The status element says what loaded (state, frames, bodies, errors) so a
// headless browser can check the page; ?t=T&probe=BODY adds the pose of BODY's
// object at time T, read back from the scene graph.
(function () {
  'use strict';
  const statusEl = document.getElementById('status');
  const errors = window.viewerErrors || [];
  function report(lines) {
    statusEl.textContent = lines.concat(['errors=' + errors.length]).concat(errors).join('\n');
  }
  try {
    if (typeof THREE === 'undefined') throw new Error('three.min.js did not load');
    const data = window.CONTACTLAB_VIEW;
    if (!data) throw new Error('data.js did not load');
    main(data);
  } catch (e) {
    errors.push(String(e && e.message ? e.message : e));
    report(['state=failed']);
  }

  function main(data) {
    const nb = data.bodies.length;
    const colors = [0x4e9ad8, 0xe8873a, 0x5bbf6a, 0xd85a7f, 0xa07ad8, 0xd8c84e];
    const scene = new THREE.Scene();
    scene.background = new THREE.Color(0x20242a);
    scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 0.9));
    const sun = new THREE.DirectionalLight(0xffffff, 0.6);
    sun.position.set(3, -4, 8);
    scene.add(sun);

    function quat(q) { return new THREE.Quaternion(q[1], q[2], q[3], q[0]); }  // data: w first
    function shape(g) {
      const s = g.size;
      let geo;
      switch (g.type) {
        case 'box': return new THREE.BoxGeometry(2 * s[0], 2 * s[1], 2 * s[2]);
        case 'sphere': return new THREE.SphereGeometry(s[0], 32, 16);
        // three's capsule and cylinder lie along y, contactlab's along the geom's z.
        case 'capsule': geo = new THREE.CapsuleGeometry(s[0], 2 * s[1], 8, 24); break;
        case 'cylinder': geo = new THREE.CylinderGeometry(s[0], s[0], 2 * s[1], 32); break;
        case 'plane': return new THREE.PlaneGeometry(1, 1);  // scaled to the scene below
        case 'mesh':
        case 'hfield': {
          // A convex hull's faces, or a height field's triangles, as triangle fans.
          const pos = [];
          for (const f of g.faces || [])
            for (let k = 1; k + 1 < f.length; ++k)
              for (const v of [f[0], f[k], f[k + 1]]) pos.push(g.vertices[3 * v], g.vertices[3 * v + 1], g.vertices[3 * v + 2]);
          geo = new THREE.BufferGeometry();
          geo.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
          geo.computeVertexNormals();
          return geo;
        }
        default: throw new Error('geom "' + g.name + '": unknown type ' + g.type);
      }
      geo.rotateX(Math.PI / 2);
      return geo;
    }
    function placed(g, material) {
      const mesh = new THREE.Mesh(shape(g), material);
      mesh.position.set(g.pos[0], g.pos[1], g.pos[2]);
      mesh.quaternion.copy(quat(g.quat));
      mesh.userData.geom = g;
      return mesh;
    }

    // The world's geoms once; each trajectory gets its own copy of the bodies
    // (the first opaque, the others translucent in their own colour).
    const planes = [];
    for (const g of data.geoms) {
      if (g.body !== -1) continue;
      const m = placed(g, new THREE.MeshStandardMaterial({ color: 0x7a808a, side: THREE.DoubleSide }));
      if (g.type === 'plane') planes.push(m);
      scene.add(m);
    }
    const runs = data.trajectories.map(function (t, i) {
      const color = colors[i % colors.length];
      const material = new THREE.MeshStandardMaterial({ color: color, transparent: i > 0, opacity: i > 0 ? 0.45 : 1 });
      const bodies = [];
      for (let b = 0; b < nb; ++b) {
        const group = new THREE.Group();
        group.name = data.bodies[b];
        scene.add(group);
        bodies.push(group);
      }
      for (const g of data.geoms) if (g.body >= 0) bodies[g.body].add(placed(g, material));
      const frames = t.times.length;
      if (t.poses.length !== frames * nb * 7) throw new Error(t.file + ': ' + t.poses.length + ' pose numbers, expected ' + frames * nb * 7);
      return { file: t.file, times: t.times, steps: t.steps, poses: t.poses, bodies: bodies, color: color, frame: 0 };
    });
    if (runs.length === 0) throw new Error('no trajectory');

    // The last frame at or before t (frames are in time order).
    function frameAt(run, t) {
      let lo = 0, hi = run.times.length - 1;
      t += 1e-9 * Math.max(1, Math.abs(t));  // a time typed or rounded (0.5) reaches the step written 0.5000000000000002
      if (t >= run.times[hi]) return hi;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (run.times[mid] <= t) lo = mid; else hi = mid - 1;
      }
      return lo;
    }
    function pose(run, f) {
      for (let b = 0; b < nb; ++b) {
        const p = run.poses.slice(7 * (f * nb + b), 7 * (f * nb + b) + 7);
        run.bodies[b].position.set(p[0], p[1], p[2]);
        run.bodies[b].quaternion.copy(quat(p.slice(3)));
      }
      run.frame = f;
    }

    // Scene extent from the first frame of every trajectory: camera and planes.
    const box = new THREE.Box3();
    for (const run of runs) {
      pose(run, 0);
      for (const g of run.bodies) box.expandByObject(g);
    }
    for (const run of runs) {
      pose(run, run.times.length - 1);
      for (const g of run.bodies) { g.updateMatrixWorld(true); box.expandByObject(g); }
    }
    if (box.isEmpty()) box.set(new THREE.Vector3(-1, -1, 0), new THREE.Vector3(1, 1, 1));
    const center = box.getCenter(new THREE.Vector3());
    const extent = Math.max(box.getSize(new THREE.Vector3()).length(), 0.5);
    for (const p of planes) p.scale.set(4 * extent, 4 * extent, 1);

    // Contacts of the first trajectory, grouped by step: points and force arrows.
    const contactSteps = new Map();
    let fmax = 0;
    if (data.contacts) {
      for (const r of data.contacts.rows) {
        if (!contactSteps.has(r[0])) contactSteps.set(r[0], []);
        contactSteps.get(r[0]).push(r);
        fmax = Math.max(fmax, Math.hypot(r[9], r[10], r[11]));
      }
    }
    const contactGroup = new THREE.Group();
    scene.add(contactGroup);
    const dotGeo = new THREE.SphereGeometry(extent * 0.006, 8, 6);
    const dotMat = new THREE.MeshBasicMaterial({ color: 0xff3030 });
    const showContacts = document.getElementById('show_contacts');
    function drawContacts(step) {
      contactGroup.clear();
      if (!showContacts.checked) return 0;
      const rows = contactSteps.get(step) || [];
      for (const r of rows) {
        const p = new THREE.Vector3(r[3], r[4], r[5]);
        const dot = new THREE.Mesh(dotGeo, dotMat);
        dot.position.copy(p);
        contactGroup.add(dot);
        const f = new THREE.Vector3(r[9], r[10], r[11]);
        const len = fmax > 0 ? 0.25 * extent * f.length() / fmax : 0;  // the largest force: a quarter of the scene
        if (len > 1e-9) {
          const arrow = new THREE.ArrowHelper(f.normalize(), p, len, 0xffd040, 0.2 * len, 0.1 * len);
          // Drawn over the bodies: a resting contact's force points into the body it holds.
          for (const part of [arrow.line, arrow.cone]) { part.material.depthTest = false; part.renderOrder = 1; }
          contactGroup.add(arrow);
        }
      }
      return rows.length;
    }

    // Legend: one line per trajectory in its colour.
    const legend = document.getElementById('legend');
    legend.innerHTML = '';
    const title = document.createElement('div');
    title.textContent = 'scene ' + data.scene;
    legend.appendChild(title);
    for (const run of runs) {
      const line = document.createElement('div');
      const sw = document.createElement('span');
      sw.style.background = '#' + run.color.toString(16).padStart(6, '0');
      line.appendChild(sw);
      line.appendChild(document.createTextNode(run.file + ' (' + run.times.length + ' frames)'));
      legend.appendChild(line);
    }

    // Time: shared by all trajectories, from the earliest start to the latest end.
    const t0 = Math.min.apply(null, runs.map(function (r) { return r.times[0]; }));
    const t1 = Math.max.apply(null, runs.map(function (r) { return r.times[r.times.length - 1]; }));
    const scrub = document.getElementById('scrub');
    const timeEl = document.getElementById('time');
    let now = t0, shown = 0;
    function show(t) {
      now = Math.min(Math.max(t, t0), t1);
      for (const run of runs) pose(run, frameAt(run, now));
      const main = runs[0];
      shown = drawContacts(main.steps[main.frame]);
      scrub.value = String(t1 > t0 ? Math.round(1000 * (now - t0) / (t1 - t0)) : 0);
      timeEl.textContent = 't = ' + now.toFixed(4) + ' s  (step ' + main.steps[main.frame] + ' of ' +
        main.steps[main.steps.length - 1] + ')' + (data.contacts ? '  ' + shown + ' contacts' : '');
    }
    scrub.addEventListener('input', function () { playing = false; playBtn.textContent = 'Play'; show(t0 + (t1 - t0) * scrub.value / 1000); });
    showContacts.addEventListener('change', function () { show(now); });
    const playBtn = document.getElementById('play');
    const speed = document.getElementById('speed');
    let playing = false, last = null;
    playBtn.addEventListener('click', function () {
      playing = !playing;
      if (playing && now >= t1) show(t0);
      playBtn.textContent = playing ? 'Pause' : 'Play';
      last = null;
    });

    const params = new URLSearchParams(window.location.search);
    show(params.has('t') ? Number(params.get('t')) : t0);
    const lines = ['state=ready', 'scene=' + data.scene, 'trajectories=' + runs.length, 'frames=' + runs[0].times.length,
                   'bodies=' + nb, 'geoms=' + data.geoms.length, 'contact_rows=' + (data.contacts ? data.contacts.rows.length : 0)];
    if (params.has('probe')) {
      // The probed body's object as drawn at time t: what the CSV says there.
      const b = data.bodies.indexOf(params.get('probe'));
      if (b < 0) throw new Error('probe: no body "' + params.get('probe') + '"');
      const o = runs[0].bodies[b];
      lines.push('probe=' + params.get('probe') + ' t=' + now + ' step=' + runs[0].steps[runs[0].frame] +
                 ' p=' + [o.position.x, o.position.y, o.position.z].join(',') + ' contacts=' + shown);
    }

    // Rendering: WebGL may be missing (a headless browser without a GPU
    // emulation); that is an error on the status line, after the data checks.
    const view = document.getElementById('view');
    const camera = new THREE.PerspectiveCamera(45, 1, extent * 0.01, extent * 100);
    camera.up.set(0, 0, 1);
    let yaw = -Math.PI / 3, pitch = 0.45, dist = 1.6 * extent;
    const target = center.clone();
    function placeCamera() {
      camera.position.set(target.x + dist * Math.cos(pitch) * Math.cos(yaw), target.y + dist * Math.cos(pitch) * Math.sin(yaw),
                          target.z + dist * Math.sin(pitch));
      camera.lookAt(target);
    }
    let renderer = null;
    try {
      renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    } catch (e) {
      errors.push('WebGL unavailable: ' + (e && e.message ? e.message : e));
    }
    report(lines);
    if (!renderer) return;
    view.appendChild(renderer.domElement);
    function resize() {
      const w = Math.max(view.clientWidth, 1), h = Math.max(view.clientHeight, 1);
      renderer.setSize(w, h);
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
    }
    window.addEventListener('resize', resize);
    // Orbit: drag turns, wheel zooms, shift-drag pans.
    let drag = null;
    renderer.domElement.addEventListener('pointerdown', function (e) { drag = { x: e.clientX, y: e.clientY, pan: e.shiftKey }; });
    window.addEventListener('pointerup', function () { drag = null; });
    window.addEventListener('pointermove', function (e) {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      drag.x = e.clientX; drag.y = e.clientY;
      if (drag.pan) {
        const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
        const up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
        target.addScaledVector(right, -dx * dist * 0.002).addScaledVector(up, dy * dist * 0.002);
      } else {
        yaw -= dx * 0.01;
        pitch = Math.min(Math.max(pitch + dy * 0.01, -1.5), 1.5);
      }
    });
    renderer.domElement.addEventListener('wheel', function (e) {
      e.preventDefault();
      dist *= Math.exp(e.deltaY * 0.001);
    }, { passive: false });
    function frame(ms) {
      if (playing) {
        if (last !== null) show(now + Number(speed.value) * (ms - last) / 1000);
        last = ms;
        if (now >= t1) { playing = false; playBtn.textContent = 'Play'; }
      }
      placeCamera();
      renderer.render(scene, camera);
      requestAnimationFrame(frame);
    }
    resize();
    placeCamera();
    renderer.render(scene, camera);
    requestAnimationFrame(frame);
  }
})();
