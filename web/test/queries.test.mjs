// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Path queries and the debug API (what a renderer draws).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Status } from '../wayfarer.js';
import { skip, wayfarer, twoDoorField } from './helpers.mjs';

test('findPath, findNearest and findRandomPoint', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField() });
    try {
        const p = w.findPath([5, 0, 20], [35, 0, 20]);
        assert.ok(p.complete && !p.partial);
        assert.ok(p.points.length >= 3, 'a corner at a door');
        assert.ok(p.polys.length >= 2);
        const n = w.findNearest([20, 0, 20]); // in the wall
        assert.ok(n && (n.point[0] < 19.5 || n.point[0] > 20.5));
        assert.equal(w.findNearest([100, 0, 100]), null);
        w.seedRandom(5);
        const a = [w.findRandomPoint(), w.findRandomPoint()];
        w.seedRandom(5);
        assert.deepEqual([w.findRandomPoint(), w.findRandomPoint()], a);
        assert.throws(() => w.findPath([100, 0, 100], [5, 0, 5]), (e) => e.status === Status.ERR_NOT_FOUND);
    } finally {
        w.destroy();
    }
});

test('debug: tiles, polygon edges, neighbours and avoidance', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), params: { tileSize: 32 }, maxAgents: 8 });
    try {
        const tiles = w.meshTiles();
        assert.equal(tiles.length, w.stats().tileCount);
        let walls = 0, portals = 0, polys = 0;
        for (const t of tiles) {
            const g = w.tileGeometry(t.ref);
            assert.equal(g.polys.length, t.polyCount);
            polys += g.polys.length;
            walls += g.edges.filter((e) => e.kind === 'wall').length;
            portals += g.edges.filter((e) => e.kind === 'tilePortal').length;
        }
        assert.equal(polys, w.stats().polyCount);
        assert.ok(walls > 0 && portals > 0);
        assert.throws(() => w.tileGeometry(0n), (e) => e.status < 0);

        const a = w.addAgent([5, 0, 20]);
        const b = w.addAgent([9, 0, 20]);
        w.requestMove(a, [12, 0, 20]);
        w.requestMove(b, [2, 0, 20]);
        w.setDebugAgent(a);
        w.step(1 / 30);
        assert.deepEqual(Array.from(w.agentNeighbours(a)), [b]);
        const d = w.avoidanceDebug();
        assert.equal(d.agent, a);
        assert.ok(d.sampled && d.candidates.length > 0);
        w.setDebugAgent(null);
    } finally {
        w.destroy();
    }
});
