// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Agents and move requests: callbacks run in step() with the path's facts,
// arrival, stale ids, callbacks that throw or call back into the world.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WayfarerError, Status } from '../wayfarer.js';
import { skip, wayfarer, twoDoorField, stepUntil } from './helpers.mjs';

test('a move request reports its path, arrives and calls onDone once', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), maxAgents: 8 });
    try {
        const a = w.addAgent([5, 0, 9]);
        const calls = [];
        w.requestMove(a, [35, 0, 30], {
            onResult: (agent, info) => { calls.push(['result', agent, info]); return true; },
            onDone: (agent) => { calls.push(['done', agent]); return false; },
        });
        let arrived = false;
        stepUntil(w, () => {
            arrived ||= calls.some((c) => c[0] === 'done');
            return arrived;
        }, 900);
        assert.ok(arrived, 'the agent arrived within 30 s');
        assert.equal(calls[0][0], 'result');
        assert.equal(calls[0][1], a);
        assert.equal(calls[0][2].partial, false);
        assert.ok(calls[0][2].cost > 30, 'the path goes round through a door');
        assert.equal(calls.filter((c) => c[0] === 'done').length, 1);
        const s = w.getAgent(a);
        assert.equal(s.targetState, 'arrived');
        assert.ok(Math.hypot(s.position[0] - 35, s.position[2] - 30) < 0.5);
    } finally {
        w.destroy();
    }
});

test('rejecting the path in onResult stops the agent', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), maxAgents: 8 });
    try {
        const a = w.addAgent([5, 0, 9]);
        let results = 0;
        w.requestMove(a, [35, 0, 30], { onResult: () => { results++; return false; } });
        for (let i = 0; i < 30; i++) {
            w.step(1 / 30);
        }
        assert.equal(results, 1);
        const s = w.getAgent(a);
        assert.ok(Math.hypot(s.position[0] - 5, s.position[2] - 9) < 1.0);
        assert.notEqual(s.targetState, 'valid');
    } finally {
        w.destroy();
    }
});

test('stale and wrong ids are refused with the library status', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), maxAgents: 2 });
    try {
        const a = w.addAgent([5, 0, 9]);
        w.removeAgent(a);
        assert.throws(() => w.getAgent(a), (e) => e instanceof WayfarerError && e.status === Status.ERR_STALE_REF);
        assert.throws(() => w.requestMove(a, [1, 0, 1]), WayfarerError);
        assert.throws(() => w.addAgent([500, 0, 500]), (e) => e.status === Status.ERR_NOT_FOUND);
        w.addAgent([5, 0, 9]);
        w.addAgent([6, 0, 9]);
        assert.throws(() => w.addAgent([7, 0, 9]), (e) => e.status === Status.ERR_CAPACITY);
        assert.throws(() => w.addAgent([5, 0, 9], { radius: -1 }), (e) => e.status === Status.ERR_INVALID_ARG);
        assert.throws(() => w.addAgent([NaN, 0, 9]), WayfarerError);
        assert.throws(() => w.step(0), (e) => e.status === Status.ERR_INVALID_ARG);
    } finally {
        w.destroy();
    }
});

test('an exception in a callback is rethrown by step() after the update ends', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), maxAgents: 4 });
    try {
        const a = w.addAgent([5, 0, 9]);
        const b = w.addAgent([5, 0, 12]);
        let seenByB = 0;
        w.requestMove(a, [35, 0, 9], { onResult: () => { throw new Error('game bug'); } });
        w.requestMove(b, [35, 0, 12], { onResult: () => { seenByB++; return true; } });
        let thrown = null;
        for (let i = 0; i < 10 && !thrown; i++) {
            try {
                w.step(1 / 30);
            } catch (e) {
                thrown = e;
            }
        }
        assert.equal(thrown?.message, 'game bug');
        // The world is consistent afterwards and keeps stepping.
        for (let i = 0; i < 10; i++) {
            w.step(1 / 30);
        }
        assert.equal(w.getAgent(a).targetState, 'valid', 'the throwing callback answered its default');
        assert.ok(w.getAgent(b).position[0] > 5);
        assert.ok(seenByB <= 1);
    } finally {
        w.destroy();
    }
});

test('calling the world from a callback is refused (WF_ERR_BUSY)', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), maxAgents: 4 });
    try {
        const a = w.addAgent([5, 0, 9]);
        w.requestMove(a, [35, 0, 9], { onResult: () => { w.addAgent([6, 0, 9]); return true; } });
        assert.throws(() => stepUntil(w, () => false, 10), (e) => e.status === Status.ERR_BUSY);
        assert.equal(w.stats().agentCount, 1);
    } finally {
        w.destroy();
    }
});

test('agents() snapshots every agent for drawing', { skip }, async () => {
    const wf = await wayfarer();
    const w = wf.createWorld({ geometry: twoDoorField(), maxAgents: 16 });
    try {
        const ids = [];
        for (let i = 0; i < 10; i++) {
            ids.push(w.addAgent([3 + i, 0, 15]));
        }
        const snap = w.agents();
        assert.deepEqual(Array.from(snap.ids), ids);
        assert.equal(snap.positions.length, 30);
        assert.ok(Math.abs(snap.positions[3 * 4] - 7) < 0.01);
        assert.ok(snap.radii.every((r) => Math.abs(r - 0.6) < 1e-6));
    } finally {
        w.destroy();
    }
});

test('the same inputs give the same crowd, bit for bit', { skip }, async () => {
    const wf = await wayfarer();
    const run = () => {
        const w = wf.createWorld({ geometry: twoDoorField(), maxAgents: 32 });
        try {
            w.seedRandom(9);
            for (let i = 0; i < 24; i++) {
                w.requestMove(w.addAgent(w.findRandomPoint()), w.findRandomPoint());
            }
            for (let i = 0; i < 120; i++) {
                w.step(1 / 30);
            }
            const s = w.agents();
            return [Array.from(s.positions), Array.from(s.velocities)];
        } finally {
            w.destroy();
        }
    };
    const a = run();
    assert.ok(a[1].some((v) => v !== 0), 'agents moved');
    assert.deepEqual(run(), a);
});
