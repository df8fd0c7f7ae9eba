// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// World lifetime: creation from geometry, OBJ text and a cache file, bad
// input refused with the library's status, destroy() giving memory back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WayfarerError, Status } from '../wayfarer.js';
import { skip, wayfarer, twoDoorField, demoLevel, buildDir } from './helpers.mjs';

function fieldObj() {
    const { vertices, indices } = twoDoorField();
    let text = '# field\n';
    for (let i = 0; i < vertices.length; i += 3) {
        text += `v ${vertices[i]} ${vertices[i + 1]} ${vertices[i + 2]}\n`;
    }
    for (let i = 0; i < indices.length; i += 3) {
        text += `f ${indices[i] + 1} ${indices[i + 1] + 1} ${indices[i + 2] + 1}\n`;
    }
    return text;
}

test('geometry and OBJ text of the same level give the same navmesh', { skip }, async () => {
    const wf = await wayfarer();
    const a = wf.createWorld({ geometry: twoDoorField() });
    const b = wf.createWorld({ obj: fieldObj() });
    try {
        assert.ok(a.stats().polyCount > 0);
        assert.equal(a.stats().polyCount, b.stats().polyCount);
        assert.equal(a.stats().tileCount, b.stats().tileCount);
    } finally {
        a.destroy();
        b.destroy();
    }
});

test('a saved cache loads into an equal world; a damaged one is refused', { skip }, async () => {
    const wf = await wayfarer();
    const a = wf.createWorld({ geometry: twoDoorField() });
    const cache = a.saveCache();
    const b = wf.createWorld({ cache });
    try {
        assert.deepEqual(b.stats().polyCount, a.stats().polyCount);
        assert.deepEqual(b.findPath([5, 0, 9], [35, 0, 9]).points, a.findPath([5, 0, 9], [35, 0, 9]).points);
        const damaged = cache.slice();
        damaged[damaged.length >> 1] ^= 0x5a;
        assert.throws(() => wf.createWorld({ cache: damaged }),
            (e) => e instanceof WayfarerError && e.status === Status.ERR_BAD_DATA);
        assert.throws(() => wf.createWorld({ cache: cache.subarray(0, 10) }), WayfarerError);
    } finally {
        a.destroy();
        b.destroy();
    }
});

test('bad descs are refused before any work', { skip }, async () => {
    const wf = await wayfarer();
    assert.throws(() => wf.createWorld({}), TypeError);
    assert.throws(() => wf.createWorld({ obj: 'v 0 0 0', geometry: twoDoorField() }), TypeError);
    assert.throws(() => wf.createWorld({ obj: 'f 1 2 3\n' }),
        (e) => e instanceof WayfarerError && e.status === Status.ERR_BAD_DATA);
    assert.throws(() => wf.createWorld({ geometry: twoDoorField(), params: { cellSize: -1 } }),
        (e) => e instanceof WayfarerError && e.status === Status.ERR_INVALID_ARG);
});

test('destroy() frees: creating and destroying worlds does not grow the heap', { skip }, async () => {
    const wf = await wayfarer();
    const cycle = () => {
        const w = wf.createWorld({ geometry: twoDoorField(), maxAgents: 64 });
        const agent = w.addAgent([5, 0, 9]);
        w.requestMove(agent, [35, 0, 30], { onDone: () => false });
        w.addObstacle({ shape: 'cylinder', position: [10, 0, 20], radius: 1, height: 2 });
        for (let i = 0; i < 5; i++) {
            w.step(1 / 30);
        }
        w.destroy();
        w.destroy(); // twice is harmless
        assert.throws(() => w.step(1 / 30), /destroyed/);
    };
    cycle();
    const before = wf._memory.buffer.byteLength;
    for (let i = 0; i < 20; i++) {
        cycle();
    }
    assert.equal(wf._memory.buffer.byteLength, before);
    assert.equal(wf._tokens.size, 0);
});

test('the demo level builds (when the build exported it)', { skip: skip || (!demoLevel() && 'no level.obj') }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ obj: demoLevel(), maxAgents: 100 });
    try {
        assert.ok(w.stats().tileCount > 0);
        const a = w.findRandomPoint(), b = w.findRandomPoint();
        assert.ok(w.findPath(a, b).points.length >= 2);
    } finally {
        w.destroy();
    }
});

test('cache files move between the native build (liblz4) and the wasm one (web/lz4)', {
    skip: skip || (!(process.env.WF_WAYFARER && existsSync(path.join(buildDir, 'level.wfc'))) && 'no native tool'),
}, async () => {
    const wf = await wayfarer();
    const native = readFileSync(path.join(buildDir, 'level.wfc'));
    const fromNative = wf.createWorld({ cache: native });
    const fromObj = wf.createWorld({ obj: demoLevel() });
    try {
        assert.equal(fromNative.stats().polyCount, fromObj.stats().polyCount);
        assert.equal(fromNative.stats().tileCount, fromObj.stats().tileCount);
        const a = fromObj.findRandomPoint(), b = fromObj.findRandomPoint();
        assert.deepEqual(fromNative.findPath(a, b).points, fromObj.findPath(a, b).points);
        // The wasm build's cache file (its own compressor) read natively.
        const file = path.join(buildDir, 'level-wasm.wfc');
        writeFileSync(file, fromObj.saveCache());
        const info = execFileSync(process.env.WF_WAYFARER, ['info', file], { encoding: 'utf8' });
        const polys = Number(/^navmesh_polys\t(\d+)/m.exec(info)?.[1]);
        assert.equal(polys, fromObj.stats().polyCount);
    } finally {
        fromNative.destroy();
        fromObj.destroy();
    }
});
