// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Shared by the node tests: loads the module from the build (WF_WEB_BUILD,
// default build-web at the repository root; the tests skip when it has no
// wayfarer.wasm) and makes small levels.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { loadWayfarer } from '../wayfarer.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const buildDir = path.resolve(root, process.env.WF_WEB_BUILD ?? 'build-web');
const wasmPath = path.join(buildDir, 'wayfarer.wasm');
/** Reason to skip, or false when the module is built. */
export const skip = existsSync(wasmPath) ? false : `no ${wasmPath} (run web/build.sh)`;

let loaded = null;
export async function wayfarer() {
    loaded ??= loadWayfarer({ wasm: readFileSync(wasmPath), log: () => { } });
    return loaded;
}

/** The demo level's OBJ text when the build exported it, else null. */
export function demoLevel() {
    const p = path.join(buildDir, 'level.obj');
    return existsSync(p) ? readFileSync(p, 'utf8') : null;
}

/**
 * A 40 x 40 m field of 1 m quads at y = 0, split by a wall along x = 20
 * with two doors: z in [6, 12) and [28, 34). { vertices, indices }.
 */
export function twoDoorField() {
    const vertices = [], indices = [];
    for (let z = 0; z < 40; z++) {
        for (let x = 0; x < 40; x++) {
            const door = (z >= 6 && z < 12) || (z >= 28 && z < 34);
            if ((x === 19 || x === 20) && !door) {
                continue; // the wall: no floor
            }
            const base = vertices.length / 3;
            vertices.push(x, 0, z, x + 1, 0, z, x + 1, 0, z + 1, x, 0, z + 1);
            // Counter-clockwise seen from above (+y): (x,z) -> (x,z+1) -> (x+1,z+1).
            indices.push(base, base + 3, base + 2, base, base + 2, base + 1);
        }
    }
    return { vertices, indices };
}

/** Steps until pred() or maxSteps; returns the steps taken. */
export function stepUntil(world, pred, maxSteps, dt = 1 / 30) {
    for (let i = 0; i < maxSteps; i++) {
        if (pred()) {
            return i;
        }
        world.step(dt);
    }
    return maxSteps;
}

export function pathLength(points) {
    let length = 0;
    for (let i = 1; i < points.length; i++) {
        length += Math.hypot(points[i][0] - points[i - 1][0], points[i][2] - points[i - 1][2]);
    }
    return length;
}
