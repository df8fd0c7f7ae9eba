// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The wasm crowd on bench/crowd_bench.c's scene, through the JS API: nav_test
// with the Recast demo settings, agents of radius 0.6 at 3.5 m/s with the
// ULTRA avoidance preset, every optimization on, random targets from the
// same seeded generator (a new one on each arrival, stop or block), one
// thread, dt 1/30 s, 30 warm-up frames then 300 timed ones.
//   node web/bench/crowd_bench.mjs [AGENTS] [WASM_BUILD_DIR] [TESTDATA_DIR]
// Prints CSV as web/bench/crowd_native.c (its native twin) does: wall = the
// whole world.step() call seen from JS (glue and event decoding included);
// cpu = the process's CPU time in it (what a shared machine's load does not
// inflate); crowd = the crowd update timed inside the step; hash = FNV-1a
// of the agents' final positions and velocities (equal: the same
// simulation, bit for bit).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadWayfarer } from '../wayfarer.js';

const agents = Number(process.argv[2] ?? 1000);
const build = process.argv[3] ?? 'build-web';
const testdata = process.argv[4] ?? process.env.WF_TESTDATA_DIR ?? '../shared/testdata';
const obj = readFileSync(path.join(testdata, 'recast/meshes/nav_test.obj'), 'utf8');
const wf = await loadWayfarer({ wasm: readFileSync(path.join(build, 'wayfarer.wasm')) });
const world = wf.createWorld({ obj, maxAgents: agents });
world.seedRandom(2026, 7);
const params = { avoidancePreset: 3 }; // ULTRA = Detour's "high"
const ids = [];
for (let i = 0; i < agents; i++) {
    const at = world.findRandomPoint();
    const to = world.findRandomPoint();
    const id = world.addAgent(at, params);
    world.requestMove(id, to);
    ids.push(id);
}
const WARMUP = 30, FRAMES = 300;
const wall = [], crowd = [];
let cpu = 0;
let arrivals = 0;
for (let f = 0; f < WARMUP + FRAMES; f++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = world.step(1 / 30);
    const t1 = performance.now();
    const c1 = process.cpuUsage(c0);
    if (f >= WARMUP) {
        cpu += c1.user + c1.system;
        wall.push((t1 - t0) * 1e3);
        crowd.push(r.crowdUs);
    }
    for (const e of r.events) {
        if (e.kind === 'arrived' || e.kind === 'stoppedShort' || e.kind === 'blocked') {
            arrivals += e.kind !== 'blocked';
            try {
                world.requestMove(e.agent, world.findRandomPoint());
            } catch (err) {
                if (err.status !== -3) throw err; // a full queue: that agent waits
            }
        }
    }
}
const mean = (a) => a.reduce((sum, v) => sum + v, 0) / a.length;
const snap = world.agents();
let hash = 14695981039346656037n;
const bytes = (f) => new Uint8Array(f.buffer, f.byteOffset, f.byteLength);
for (let i = 0; i < snap.ids.length; i++) {
    for (const b of [...bytes(snap.positions.subarray(3 * i, 3 * i + 3)), ...bytes(snap.velocities.subarray(3 * i, 3 * i + 3))]) {
        hash = ((hash ^ BigInt(b)) * 1099511628211n) & 0xffffffffffffffffn;
    }
}
console.log('level,agents,us_per_agent_frame_wall,us_per_agent_frame_cpu,us_per_agent_frame_crowd,arrivals,hash,build');
console.log(['nav_test', agents, (mean(wall) / agents).toFixed(3), (cpu / FRAMES / agents).toFixed(3),
    (mean(crowd) / agents).toFixed(3), arrivals, hash.toString(16).padStart(16, '0'),
    `wasm node ${process.version}`].join(','));
world.destroy();
