// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The wasm crowd on bench/crowd_bench.c's scene, through the JS API: nav_test
// with the Recast demo settings, agents of radius 0.6 at 3.5 m/s with the
// ULTRA avoidance preset, every optimization on, random targets from the
// same seeded generator (a new one on each arrival, stop or block), one
// thread, dt 1/30 s, 30 warm-up frames then 300 timed ones.
//   node web/bench/crowd_bench.mjs [AGENTS] [WASM_BUILD_DIR] [TESTDATA_DIR]
// Prints CSV: wall = the whole world.step() call seen from JS (glue and
// event decoding included); crowd = the crowd update timed inside the step.
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
let arrivals = 0;
for (let f = 0; f < WARMUP + FRAMES; f++) {
    const t0 = performance.now();
    const r = world.step(1 / 30);
    const t1 = performance.now();
    if (f >= WARMUP) {
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
const mean = (a) => a.reduce((s, v) => s + v, 0) / a.length;
const p95 = (a) => [...a].sort((x, y) => x - y)[Math.ceil(0.95 * a.length) - 1];
console.log('level,agents,us_per_agent_frame_wall,us_per_agent_frame_crowd,frame_ms_mean,frame_ms_p95,arrivals,node');
console.log(['nav_test', agents, (mean(wall) / agents).toFixed(3), (mean(crowd) / agents).toFixed(3),
    (mean(wall) / 1e3).toFixed(3), (p95(wall) / 1e3).toFixed(3), arrivals, process.version].join(','));
world.destroy();
