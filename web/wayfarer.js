// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Wayfarer for JavaScript: an ES module over the WebAssembly build of the
// library (web/build.sh makes wayfarer.wasm). No dependencies; runs in
// node (>= 18) and browsers.
//
//   import { loadWayfarer } from './wayfarer.js';
//   const wf = await loadWayfarer();            // or { wasm: bytes }
//   const world = wf.createWorld({ obj: levelText, maxAgents: 200 });
//   const a = world.addAgent([0, 0, 0]);
//   world.requestMove(a, [10, 0, 5], { onDone: (agent) => false });
//   each frame: const report = world.step(1 / 60, { tileTimeUs: 1000 });
//   world.destroy();                            // frees everything it made
//
// Ids (agents, obstacles, polygons, tiles) are BigInt: the library's 64-bit
// handles, stale ones answered with a WayfarerError, never a crash.
// Callbacks run synchronously inside step(); calling the world from them
// throws (WF_ERR_BUSY). An exception thrown by a callback is held until
// the step's end (the C update finishes with the callback's default
// answer), then rethrown from step().

/** wf_status values (negative: failure). */
export const Status = Object.freeze({ OK: 0, IN_PROGRESS: 1, PARTIAL: 2, ERR_INVALID_ARG: -1,
    ERR_OUT_OF_MEMORY: -2, ERR_CAPACITY: -3, ERR_STALE_REF: -4, ERR_NOT_FOUND: -5, ERR_BAD_DATA: -6,
    ERR_VERSION: -7, ERR_BUSY: -8, ERR_WRONG_KIND: -9, ERR_THREAD: -10, ERR_IO: -11 });
const REPORT_FIELDS = ['frame', 'totalUs', 'tilesUs', 'crowdUs', 'upToDate', 'requestsApplied',
    'layersRebuilt', 'tilesCommitted', 'buildsInFlight', 'layersPending', 'changedCount',
    'pathsCompleted', 'pathIterations', 'pathsQueued', 'replans', 'lostAgents'];
const PARAM_FIELDS = ['cellSize', 'cellHeight', 'agentHeight', 'agentRadius', 'agentClimb',
    'agentMaxSlope', 'tileSize', 'minRegionArea', 'mergeRegionArea', 'maxEdgeLength',
    'maxSimplificationError', 'maxVertsPerPoly'];
const AGENT_FIELDS = ['radius', 'height', 'maxSpeed', 'maxAcceleration', 'collisionQueryRange',
    'pathOptimizationRange', 'separationWeight', 'updateFlags', 'avoidancePreset', 'filter',
    'priority'];
/** wf_target_state names, by value. */
export const TargetState = ['none', 'requested', 'valid', 'velocity', 'arrived', 'blocked', 'failed'];
/** wf_crowd_event_kind names, by value. */
export const EventKind = ['arrived', 'blocked', 'replanned', 'offmeshStart', 'offmeshEnd', 'lost',
    'stoppedShort'];
/** wf_poly_edge_kind names, by value. */
export const EdgeKind = ['wall', 'internal', 'tilePortal', 'unlinkedPortal', 'layerSeam'];
const SHAPES = { cylinder: 0, box: 1, orientedBox: 2 };
const SHAPE_NAMES = ['cylinder', 'box', 'orientedBox', 'prism'];
const SCRATCH_BYTES = 1 << 18;

/** A call the library refused: `status` is its wf_status, `statusName` the name. */
export class WayfarerError extends Error {
    constructor(what, status, statusName, log) {
        super(`${what}: ${statusName}${log ? ` (${log})` : ''}`);
        this.name = 'WayfarerError';
        this.status = status;
        this.statusName = statusName;
    }
}

function vec(v, what) {
    const a = Array.isArray(v) || ArrayBuffer.isView(v) ? v : v && [v.x, v.y, v.z];
    if (!a || a.length < 3) {
        throw new TypeError(`${what}: a point is [x, y, z] or {x, y, z}`);
    }
    return [+a[0], +a[1], +a[2]];
}

async function wasmBytes(options) {
    if (options.wasm) {
        return options.wasm;
    }
    const url = options.wasmUrl ?? new URL('./wayfarer.wasm', import.meta.url);
    if (typeof process === 'object' && process.versions?.node && String(url).startsWith('file:')) {
        const { readFile } = await import('node:fs/promises');
        return readFile(url);
    }
    const response = await fetch(url);
    if (!response.ok) {
        throw new Error(`wayfarer: cannot load ${url}: ${response.status}`);
    }
    return response.arrayBuffer();
}

/**
 * Loads the module. options.wasm: the bytes (or a WebAssembly.Module);
 * options.wasmUrl: where to read them (default: wayfarer.wasm beside this
 * file); options.log(level, message): the library's log (default: errors
 * and warnings to console.warn).
 */
export async function loadWayfarer(options = {}) {
    const wf = new Wayfarer(options);
    const source = await wasmBytes(options);
    const imports = wf._imports();
    const instance = source instanceof WebAssembly.Module
        ? await WebAssembly.instantiate(source, imports)
        : (await WebAssembly.instantiate(source, imports)).instance;
    wf._attach(instance);
    return wf;
}

class Wayfarer {
    constructor(options) {
        this._log = options.log ?? ((level, message) => {
            if (level <= 1) {
                console.warn(`wayfarer: ${message}`);
            }
        });
        this._lastLog = '';
        this._tokens = new Map(); // token -> { world, agent, callbacks }
        this._nextToken = 1;
        this._heldError = null;
        this._buffer = null;
    }

    _imports() {
        const self = this;
        const call = (token, fn, dflt, ...args) => {
            const entry = self._tokens.get(token);
            const f = entry?.callbacks[fn];
            if (!f) {
                return dflt;
            }
            try {
                const answer = f(...args);
                return answer === undefined ? dflt : answer ? 1 : 0;
            } catch (e) {
                self._heldError ??= e; // the first one is rethrown by step()
                return dflt;
            }
        };
        return {
            env: {
                wfjs_on_result: (token, agent, corridorCount, partial, cost, wait) =>
                    call(token, 'onResult', 1, agent, { corridorCount, partial: partial !== 0, cost, wait }),
                wfjs_on_blocked: (token, agent) => call(token, 'onBlocked', 1, agent),
                wfjs_on_done: (token, agent) => {
                    const answer = call(token, 'onDone', 0, agent);
                    if (!answer) {
                        self._dropToken(token); // the request ends here
                    }
                    return answer;
                },
                wfjs_log: (level, message) => {
                    const text = self._string(message);
                    self._lastLog = text;
                    self._log(level, text);
                },
                emscripten_notify_memory_growth: () => { },
            },
            wasi_snapshot_preview1: {
                clock_time_get: (id, precision, out) => {
                    const ns = BigInt(Math.round(performance.now() * 1e6));
                    new DataView(self._memory.buffer).setBigUint64(out, ns, true);
                    return 0;
                },
                fd_write: (fd, iovs, count, written) => {
                    const view = new DataView(self._memory.buffer);
                    let text = '', total = 0;
                    for (let i = 0; i < count; i++) {
                        const p = view.getUint32(iovs + 8 * i, true);
                        const n = view.getUint32(iovs + 8 * i + 4, true);
                        text += new TextDecoder().decode(new Uint8Array(self._memory.buffer, p, n));
                        total += n;
                    }
                    view.setUint32(written, total, true);
                    if (text.trim()) {
                        self._log(fd === 2 ? 0 : 2, text.trimEnd());
                    }
                    return 0;
                },
                fd_close: () => 0,
                fd_seek: () => 70, // ESPIPE: only stdout and stderr exist
            },
        };
    }

    _attach(instance) {
        this._x = instance.exports;
        this._memory = instance.exports.memory;
        this._x._initialize?.();
        this.version = this._string(this._x.wfjs_version());
        this._scratch = this._x.wfjs_alloc(SCRATCH_BYTES);
    }

    _bytes() { return new Uint8Array(this._memory.buffer); }
    _f32(p, n) { return new Float32Array(this._memory.buffer, p, n); }
    _f64(p, n) { return new Float64Array(this._memory.buffer, p, n); }
    _i32(p, n) { return new Int32Array(this._memory.buffer, p, n); }
    _u32(p, n) { return new Uint32Array(this._memory.buffer, p, n); }
    _u64(p, n) { return new BigUint64Array(this._memory.buffer, p, n); }

    _string(p) {
        const b = this._bytes();
        let end = p;
        while (b[end] !== 0) {
            end++;
        }
        return new TextDecoder().decode(b.subarray(p, end));
    }

    /** The name of a wf_status value ("WF_ERR_STALE_REF"...). */
    statusString(status) { return this._string(this._x.wfjs_status_string(status)); }

    _check(status, what) {
        if (status < 0) {
            const log = this._lastLog;
            this._lastLog = '';
            throw new WayfarerError(what, status, this.statusString(status).split(':')[0], log);
        }
        return status;
    }

    _dropToken(token) {
        const entry = this._tokens.get(token);
        if (entry && entry.world._agentTokens.get(entry.agent) === token) {
            entry.world._agentTokens.delete(entry.agent);
        }
        this._tokens.delete(token);
    }

    /** Copies bytes into the module's heap; the caller frees the pointer. */
    _copyIn(bytes) {
        const p = this._x.wfjs_alloc(bytes.byteLength);
        this._bytes().set(new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength), p);
        return p;
    }

    /** Default tile cache params (the Recast demo's), as an object. */
    defaultParams() {
        this._x.wfjs_params_defaults(this._scratch);
        const v = this._f32(this._scratch, PARAM_FIELDS.length);
        return Object.fromEntries(PARAM_FIELDS.map((k, i) => [k, v[i]]));
    }

    /** Default agent params (wf_agent_params_defaults), as an object. */
    defaultAgentParams() {
        this._x.wfjs_agent_params_defaults(this._scratch);
        const v = this._f32(this._scratch, AGENT_FIELDS.length);
        return Object.fromEntries(AGENT_FIELDS.map((k, i) => [k, v[i]]));
    }

    /**
     * A world from exactly one of: desc.cache (a cache file's bytes, from
     * World.saveCache or `wayfarer build`), desc.obj (Wavefront OBJ text),
     * desc.geometry ({ vertices: Float32Array xyz, indices: Uint32Array,
     * counter-clockwise seen from above }). desc.params overrides tile
     * cache params by name (geometry only); desc.maxAgents (default 1000),
     * desc.maxObstacles (default 1024).
     */
    createWorld(desc = {}) {
        const given = ['cache', 'obj', 'geometry'].filter((k) => desc[k] != null);
        if (given.length !== 1) {
            throw new TypeError('createWorld: give exactly one of cache, obj, geometry');
        }
        const x = this._x;
        const owned = [];
        const own = (p) => (owned.push(p), p);
        try {
            let cache = 0, cacheSize = 0, obj = 0, objSize = 0, verts = 0, vertCount = 0, tris = 0, triCount = 0, params = 0;
            if (desc.cache) {
                cacheSize = desc.cache.byteLength;
                cache = own(this._copyIn(desc.cache));
            } else if (desc.obj != null) {
                const text = new TextEncoder().encode(desc.obj);
                objSize = text.byteLength;
                obj = own(this._copyIn(text));
            } else {
                const v = Float32Array.from(desc.geometry.vertices);
                const t = Uint32Array.from(desc.geometry.indices);
                vertCount = v.length / 3;
                triCount = t.length / 3;
                verts = own(this._copyIn(v));
                tris = own(this._copyIn(t));
            }
            if (!desc.cache) {
                const merged = { ...this.defaultParams(), ...(desc.params ?? {}) };
                params = own(x.wfjs_alloc(4 * PARAM_FIELDS.length));
                this._f32(params, PARAM_FIELDS.length).set(PARAM_FIELDS.map((k) => merged[k]));
            }
            const out = own(x.wfjs_alloc(4));
            this._check(x.wfjs_world_create(cache, cacheSize, obj, objSize, verts, vertCount, tris,
                triCount, params, desc.maxAgents ?? 0, desc.maxObstacles ?? 0, out), 'createWorld');
            return new World(this, this._u32(out, 1)[0]);
        } finally {
            owned.forEach((p) => x.wfjs_free(p));
        }
    }
}

/** One level with its navmesh, obstacles and crowd. Call destroy() when done. */
class World {
    constructor(wf, handle) {
        this._wf = wf;
        this._x = wf._x;
        this._h = handle;
        this._agentTokens = new Map(); // agent id -> token of its request's callbacks
        this._stepping = false;
        // Scratch for results: 1 MiB, grown when a tile needs more.
        this._scratchBytes = 1 << 20;
        this._s = this._x.wfjs_alloc(this._scratchBytes);
        this._agentDefaults = wf.defaultAgentParams();
    }

    _live() {
        if (!this._h) {
            throw new Error('wayfarer: the world was destroyed');
        }
        return this._h;
    }

    _check(status, what) { return this._wf._check(status, what); }

    /** Frees the world and everything the module allocated for it. */
    destroy() {
        if (!this._h) {
            return;
        }
        for (const token of this._agentTokens.values()) {
            this._wf._tokens.delete(token);
        }
        this._agentTokens.clear();
        this._x.wfjs_world_destroy(this._h);
        this._x.wfjs_free(this._s);
        this._h = 0;
    }

    /**
     * One frame of dt seconds. budget.tileTimeUs: time for committing
     * rebuilt tiles (0/absent: no limit); budget.tileCommits: tiles per step.
     * Returns the report: timings (µs), tile work (changedTiles: the tiles
     * rebuilt this step as {x, z, layer}), path work, and the crowd's
     * events ({agent, kind}).
     */
    step(dt, budget = {}) {
        const h = this._live();
        const wf = this._wf;
        const s = this._s;
        this._stepping = true;
        let status;
        try {
            status = this._x.wfjs_world_step(h, dt, budget.tileTimeUs ?? 0, budget.tileCommits ?? 0);
        } finally {
            this._stepping = false;
        }
        const held = wf._heldError;
        wf._heldError = null;
        this._check(status, 'step');
        if (held) {
            throw held;
        }
        this._x.wfjs_world_report(h, s);
        const v = wf._f64(s, REPORT_FIELDS.length);
        const report = Object.fromEntries(REPORT_FIELDS.map((k, i) => [k, v[i]]));
        report.upToDate = report.upToDate !== 0;
        const max = 4096;
        const n = this._x.wfjs_world_changed_tiles(h, s, max);
        const t = wf._i32(s, 3 * Math.min(n, max));
        report.changedTiles = [];
        for (let i = 0; i < Math.min(n, max); i++) {
            report.changedTiles.push({ x: t[3 * i], z: t[3 * i + 1], layer: t[3 * i + 2] });
        }
        const e = this._x.wfjs_world_events(h, s, max);
        const ev = wf._u64(s, 2 * Math.min(e, max));
        report.events = [];
        for (let i = 0; i < Math.min(e, max); i++) {
            report.events.push({ agent: ev[2 * i], kind: EventKind[Number(ev[2 * i + 1])] });
        }
        return report;
    }

    /** memoryBytes, agentCount, obstacleCount, tileCount, polyCount. */
    stats() {
        this._x.wfjs_world_stats(this._live(), this._s);
        const v = this._wf._f64(this._s, 5);
        return { memoryBytes: v[0], agentCount: v[1], obstacleCount: v[2], tileCount: v[3], polyCount: v[4] };
    }

    /** The tile cache as a cache file (createWorld({ cache }) reads it). */
    saveCache() {
        const h = this._live();
        this._check(this._x.wfjs_world_cache_size(h, this._s), 'saveCache');
        const size = this._wf._u32(this._s, 1)[0];
        const p = this._x.wfjs_alloc(size);
        try {
            this._check(this._x.wfjs_world_cache_save(h, p, size), 'saveCache');
            return this._wf._bytes().slice(p, p + size);
        } finally {
            this._x.wfjs_free(p);
        }
    }

    _agentParams(params) {
        const merged = { ...this._agentDefaults, ...(params ?? {}) };
        if (params?.radius !== undefined && params.collisionQueryRange === undefined) {
            merged.collisionQueryRange = merged.radius * 12;
            merged.pathOptimizationRange = merged.radius * 30;
        }
        const p = this._s + 64;
        this._wf._f32(p, AGENT_FIELDS.length).set(AGENT_FIELDS.map((k) => merged[k]));
        return p;
    }

    // --- agents ---------------------------------------------------------

    /** Adds an agent at the nearest navmesh point; params by name (defaultAgentParams). */
    addAgent(position, params) {
        const [x, y, z] = vec(position, 'addAgent');
        const h = this._live();
        this._check(this._x.wfjs_agent_add(h, x, y, z, this._agentParams(params), this._s), 'addAgent');
        return this._wf._u64(this._s, 1)[0];
    }

    setAgentParams(agent, params) {
        this._check(this._x.wfjs_agent_set_params(this._live(), agent, this._agentParams(params)), 'setAgentParams');
    }

    removeAgent(agent) {
        this._check(this._x.wfjs_agent_remove(this._live(), agent), 'removeAgent');
        this._forget(agent);
    }

    teleportAgent(agent, position) {
        const [x, y, z] = vec(position, 'teleportAgent');
        this._check(this._x.wfjs_agent_teleport(this._live(), agent, x, y, z), 'teleportAgent');
    }

    _forget(agent) {
        const token = this._agentTokens.get(agent);
        if (token !== undefined) {
            this._wf._dropToken(token);
        }
    }

    /**
     * Moves an agent towards target. callbacks (each optional, run during
     * step): onResult(agent, {corridorCount, partial, cost, wait}) -> false
     * rejects the path; onBlocked(agent) -> false stops it; onDone(agent)
     * -> true keeps following the target. Throws WF_ERR_CAPACITY when the
     * path queue is full (ask again next frame).
     */
    requestMove(agent, target, callbacks) {
        const [x, y, z] = vec(target, 'requestMove');
        const h = this._live();
        const wf = this._wf;
        let token = 0;
        if (callbacks && (callbacks.onResult || callbacks.onBlocked || callbacks.onDone)) {
            token = wf._nextToken;
            wf._nextToken = wf._nextToken >= 0x7fffffff ? 1 : wf._nextToken + 1;
        }
        const status = this._x.wfjs_agent_request_move(h, agent, x, y, z, token);
        this._check(status, 'requestMove');
        this._forget(agent); // the new request replaced the old one's callbacks
        if (token) {
            wf._tokens.set(token, { world: this, agent, callbacks });
            this._agentTokens.set(agent, token);
        }
    }

    retarget(agent, target) {
        const [x, y, z] = vec(target, 'retarget');
        this._check(this._x.wfjs_agent_retarget(this._live(), agent, x, y, z), 'retarget');
    }

    requestVelocity(agent, velocity) {
        const [x, y, z] = vec(velocity, 'requestVelocity');
        this._check(this._x.wfjs_agent_request_velocity(this._live(), agent, x, y, z), 'requestVelocity');
        this._forget(agent);
    }

    cancelMove(agent) {
        this._check(this._x.wfjs_agent_cancel_move(this._live(), agent), 'cancelMove');
        this._forget(agent);
    }

    /** An agent's state (positions as [x, y, z]). */
    getAgent(agent) {
        const s = this._s;
        this._check(this._x.wfjs_agent_get(this._live(), agent, s, s + 128), 'getAgent');
        const v = Array.from(this._wf._f32(s, 32));
        const corners = [];
        for (let i = 0; i < v[16]; i++) {
            corners.push(v.slice(20 + 3 * i, 23 + 3 * i));
        }
        return {
            position: v.slice(0, 3), velocity: v.slice(3, 6), desiredVelocity: v.slice(6, 9),
            target: v.slice(9, 12), mode: ['walking', 'offmesh', 'lost'][v[12]],
            targetState: TargetState[v[13]], corridorCount: v[14], corridorPartial: v[15] !== 0,
            corners, neighbourCount: v[17], pathWait: v[18], stuckTime: v[19],
            poly: this._wf._u64(s + 128, 1)[0],
        };
    }

    /** The polygons of an agent's corridor (BigUint64Array of poly refs). */
    getAgentCorridor(agent) {
        const h = this._live();
        const max = Math.floor((this._scratchBytes - 16) / 8);
        this._check(this._x.wfjs_agent_corridor(h, agent, this._s + 8, max, this._s), 'getAgentCorridor');
        const n = this._wf._u32(this._s, 1)[0];
        return this._wf._u64(this._s + 8, n).slice();
    }

    /** Every agent for drawing: { ids, positions (xyz), velocities (xyz), radii, states }. */
    agents() {
        const h = this._live();
        const count = this.stats().agentCount;
        const bytes = count * 40 + 8;
        const p = this._x.wfjs_alloc(bytes);
        try {
            const n = Math.min(this._x.wfjs_agents_snapshot(h, p, p + 8 * count, count), count);
            const ids = this._wf._u64(p, n).slice();
            const f = this._wf._f32(p + 8 * count, 8 * n);
            const out = { ids, positions: new Float32Array(3 * n), velocities: new Float32Array(3 * n),
                radii: new Float32Array(n), states: new Uint8Array(n) };
            for (let i = 0; i < n; i++) {
                out.positions.set(f.subarray(8 * i, 8 * i + 3), 3 * i);
                out.velocities.set(f.subarray(8 * i + 3, 8 * i + 6), 3 * i);
                out.radii[i] = f[8 * i + 6];
                out.states[i] = f[8 * i + 7];
            }
            return out;
        } finally {
            this._x.wfjs_free(p);
        }
    }

    // --- obstacles ------------------------------------------------------

    /**
     * Queues an obstacle (applied at the next step); returns its id.
     * desc: { shape: 'cylinder' | 'box' | 'orientedBox', position, radius,
     * height (cylinder), halfExtents, yaw (boxes), paint, area }.
     */
    addObstacle(desc) {
        const shape = SHAPES[desc.shape ?? 'cylinder'];
        if (shape === undefined) {
            throw new TypeError(`addObstacle: shape is one of ${Object.keys(SHAPES).join(', ')}`);
        }
        const [x, y, z] = vec(desc.position, 'addObstacle');
        const [hx, hy, hz] = desc.halfExtents ? vec(desc.halfExtents, 'addObstacle') : [0, 0, 0];
        this._check(this._x.wfjs_obstacle_add(this._live(), shape, x, y, z, desc.radius ?? 0,
            desc.height ?? 0, hx, hy, hz, desc.yaw ?? 0, desc.paint ? 1 : 0, desc.area ?? 0, this._s),
        'addObstacle');
        return this._wf._u64(this._s, 1)[0];
    }

    /** Queues the obstacle's removal (the id is stale at once). */
    removeObstacle(id) {
        this._check(this._x.wfjs_obstacle_remove(this._live(), id), 'removeObstacle');
    }

    /** Debug: every live obstacle with its desc. */
    obstacles() {
        const h = this._live();
        const max = 16384;
        const n = Math.min(this._x.wfjs_obstacles(h, this._s, max), max);
        const ids = this._wf._u64(this._s, n).slice();
        const out = [];
        for (const id of ids) {
            this._check(this._x.wfjs_obstacle_get(h, id, this._s), 'obstacles');
            const v = Array.from(this._wf._f32(this._s, 12));
            out.push({ id, shape: SHAPE_NAMES[v[0]], paint: v[1] !== 0, area: v[2],
                position: v.slice(3, 6), radius: v[6], height: v[7], halfExtents: v.slice(8, 11), yaw: v[11] });
        }
        return out;
    }

    // --- path queries ---------------------------------------------------

    /** The nearest navmesh point: { point, poly }, or null when none is near. */
    findNearest(position) {
        const [x, y, z] = vec(position, 'findNearest');
        const status = this._x.wfjs_find_nearest(this._live(), x, y, z, this._s, this._s + 16);
        if (status === Status.ERR_NOT_FOUND) {
            return null;
        }
        this._check(status, 'findNearest');
        return { point: Array.from(this._wf._f32(this._s, 3)), poly: this._wf._u64(this._s + 16, 1)[0] };
    }

    /**
     * A path from start to end: { points: [[x, y, z]...] (the string-pulled
     * corners), polys (the corridor), partial, cost }.
     */
    findPath(start, end) {
        const [sx, sy, sz] = vec(start, 'findPath');
        const [ex, ey, ez] = vec(end, 'findPath');
        const s = this._s;
        const maxPoints = 256, maxPolys = 1024;
        const points = s + 16, polys = points + 12 * maxPoints;
        const status = this._check(this._x.wfjs_find_path(this._live(), sx, sy, sz, ex, ey, ez, points,
            maxPoints, polys, maxPolys, s), 'findPath');
        const info = Array.from(this._wf._f32(s, 4));
        const f = this._wf._f32(points, 3 * info[0]);
        const out = [];
        for (let i = 0; i < info[0]; i++) {
            out.push([f[3 * i], f[3 * i + 1], f[3 * i + 2]]);
        }
        return { points: out, polys: this._wf._u64(polys, Math.min(info[1], maxPolys)).slice(),
            partial: (info[2] & 1) !== 0, cost: info[3], complete: status === Status.OK };
    }

    /** A random navmesh point from the world's seeded generator (seedRandom). */
    findRandomPoint() {
        this._check(this._x.wfjs_find_random_point(this._live(), this._s), 'findRandomPoint');
        return Array.from(this._wf._f32(this._s, 3));
    }

    seedRandom(seed, stream = 7) { this._x.wfjs_seed_random(this._live(), seed >>> 0, stream >>> 0); }

    // --- debug draw -----------------------------------------------------

    /** Debug: every navmesh tile: [{ ref, x, z, layer, polyCount }]. */
    meshTiles() {
        const h = this._live();
        const max = Math.floor((this._scratchBytes - 64) / 8);
        const n = Math.min(this._x.wfjs_mesh_tiles(h, this._s, max), max);
        const refs = this._wf._u64(this._s, n).slice();
        return Array.from(refs, (ref) => {
            this._check(this._x.wfjs_tile_info(h, ref, this._s), 'meshTiles');
            const v = this._wf._i32(this._s, 4);
            return { ref, x: v[0], z: v[1], layer: v[2], polyCount: v[3] };
        });
    }

    /**
     * Debug: a tile's polygons { polys: [Float32Array of xyz...], edges:
     * [{ start, end, kind }] } (kind: EdgeKind names: wall, internal,
     * tilePortal, unlinkedPortal, layerSeam).
     */
    tileGeometry(ref) {
        const h = this._live();
        let need = this._x.wfjs_tile_geometry(h, ref, this._s, this._scratchBytes / 4);
        this._check(need, 'tileGeometry');
        if (need * 4 > this._scratchBytes) {
            this._x.wfjs_free(this._s);
            this._scratchBytes = Math.ceil(need / 2) * 8;
            this._s = this._x.wfjs_alloc(this._scratchBytes);
            need = this._check(this._x.wfjs_tile_geometry(h, ref, this._s, need), 'tileGeometry');
        }
        const f = this._wf._f32(this._s, need).slice();
        const polys = [], edges = [];
        for (let i = 0; i < f.length;) {
            const n = f[i++];
            polys.push(f.slice(i, i + 3 * n));
            i += 3 * n;
            for (let k = 0; k < n; k++, i += 7) {
                edges.push({ start: Array.from(f.subarray(i, i + 3)), end: Array.from(f.subarray(i + 3, i + 6)),
                    kind: EdgeKind[f[i + 6]] });
            }
        }
        return { polys, edges };
    }

    /** Debug: an agent's neighbours of the last step, nearest first. */
    agentNeighbours(agent) {
        const max = 32;
        this._check(this._x.wfjs_agent_neighbours(this._live(), agent, this._s + 8, max, this._s), 'agentNeighbours');
        const n = Math.min(this._wf._u32(this._s, 1)[0], max);
        return this._wf._u64(this._s + 8, n).slice();
    }

    /** Debug: watch one agent's avoidance from the next step on (null stops). */
    setDebugAgent(agent) {
        this._check(this._x.wfjs_set_debug_agent(this._live(), agent ?? 0n), 'setDebugAgent');
    }

    /**
     * Debug: the watched agent's last avoidance: { agent, sampled,
     * desiredVelocity, chosenVelocity, candidates: [{ vx, vz, score }] }.
     */
    avoidanceDebug() {
        const s = this._s, max = 64;
        const info = s + 16, cands = s + 64;
        this._check(this._x.wfjs_avoidance_debug(this._live(), s, info, cands, max, s + 8), 'avoidanceDebug');
        const agent = this._wf._u64(s, 1)[0];
        const n = Math.min(this._wf._u32(s + 8, 1)[0], max);
        const v = Array.from(this._wf._f32(info, 7));
        const c = this._wf._f32(cands, 3 * n);
        const candidates = [];
        for (let i = 0; i < n; i++) {
            candidates.push({ vx: c[3 * i], vz: c[3 * i + 1], score: c[3 * i + 2] });
        }
        return { agent, sampled: v[0] !== 0, desiredVelocity: v.slice(1, 4), chosenVelocity: v.slice(4, 7), candidates };
    }
}

export { Wayfarer, World };
