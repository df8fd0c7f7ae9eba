// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Obstacles: a box dropped in a door rebuilds the tiles under it within
// the step budget, paths and walking agents go round through the other
// door, and removing it opens the door again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Status } from '../wayfarer.js';
import { skip, wayfarer, twoDoorField, pathLength, stepUntil } from './helpers.mjs';

const blocker = { shape: 'box', position: [20, 0, 9], halfExtents: [1.5, 1, 4] };

test('a dropped obstacle changes tiles and the path; removing it restores the path', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), params: { tileSize: 32 } });
    try {
        const before = w.findPath([5, 0, 9], [35, 0, 9]);
        assert.ok(Math.abs(pathLength(before.points) - 30) < 0.1);
        const id = w.addObstacle(blocker);
        assert.deepEqual(w.obstacles().map((o) => o.id), [id]);
        const report = w.step(1 / 30);
        assert.ok(report.changedTiles.length > 0);
        assert.ok(report.changedTiles.every((t) => t.x >= 1 && t.x <= 2), 'only tiles under the box');
        const round = w.findPath([5, 0, 9], [35, 0, 9]);
        assert.ok(round.complete);
        assert.ok(pathLength(round.points) > 45, 'through the far door');
        assert.ok(round.points.some((p) => p[2] > 27));
        w.removeObstacle(id);
        assert.throws(() => w.removeObstacle(id), (e) => e.status === Status.ERR_STALE_REF);
        w.step(1 / 30);
        assert.equal(w.obstacles().length, 0);
        assert.deepEqual(w.findPath([5, 0, 9], [35, 0, 9]).points, before.points);
    } finally {
        w.destroy();
    }
});

test('a commit budget of one tile spreads the rebuild over steps', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), params: { tileSize: 32 } });
    try {
        w.addObstacle(blocker);
        const committed = [];
        for (let i = 0; i < 20; i++) {
            const r = w.step(1 / 30, { tileCommits: 1 });
            committed.push(r.tilesCommitted);
            if (r.upToDate) {
                break;
            }
        }
        assert.ok(committed.every((n) => n <= 1));
        assert.ok(committed.filter((n) => n === 1).length >= 2, 'several tiles, one per step');
    } finally {
        w.destroy();
    }
});

test('a walking agent replans round a door closed in front of it', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), params: { tileSize: 32 }, maxAgents: 4 });
    try {
        const a = w.addAgent([5, 0, 9]);
        let done = false;
        w.requestMove(a, [35, 0, 9], { onDone: () => { done = true; return false; } });
        for (let i = 0; i < 30; i++) {
            w.step(1 / 30);
        }
        const corridorBefore = w.getAgentCorridor(a);
        w.addObstacle(blocker);
        let replans = 0;
        for (let i = 0; i < 30; i++) {
            replans += w.step(1 / 30).replans;
        }
        assert.ok(replans > 0);
        const corridorAfter = w.getAgentCorridor(a);
        assert.notDeepEqual(Array.from(corridorAfter), Array.from(corridorBefore));
        let maxZ = 0;
        stepUntil(w, () => {
            maxZ = Math.max(maxZ, w.getAgent(a).position[2]);
            return done;
        }, 1800);
        assert.ok(done, 'arrived by the other door');
        assert.ok(maxZ > 27, 'went through the far door');
    } finally {
        w.destroy();
    }
});

test('bad obstacle descs are refused', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField() });
    try {
        assert.throws(() => w.addObstacle({ shape: 'cylinder', position: [5, 0, 5], radius: -1, height: 2 }),
            (e) => e.status === Status.ERR_INVALID_ARG);
        assert.throws(() => w.addObstacle({ shape: 'cylinder', position: [500, 0, 500], radius: 1, height: 2 }),
            (e) => e.status === Status.ERR_NOT_FOUND);
        assert.throws(() => w.addObstacle({ shape: 'blob', position: [5, 0, 5] }), TypeError);
        assert.equal(w.obstacles().length, 0);
    } finally {
        w.destroy();
    }
});
