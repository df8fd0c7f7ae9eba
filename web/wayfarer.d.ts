// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Types of wayfarer.js (the ES module over the WebAssembly build).

export type Vec3 = [number, number, number] | Float32Array | { x: number; y: number; z: number };
/** The library's 64-bit handles (agent, obstacle, polygon and tile ids). */
export type Id = bigint;

export declare const Status: Readonly<{
    OK: 0; IN_PROGRESS: 1; PARTIAL: 2; ERR_INVALID_ARG: -1; ERR_OUT_OF_MEMORY: -2; ERR_CAPACITY: -3;
    ERR_STALE_REF: -4; ERR_NOT_FOUND: -5; ERR_BAD_DATA: -6; ERR_VERSION: -7; ERR_BUSY: -8;
    ERR_WRONG_KIND: -9; ERR_THREAD: -10; ERR_IO: -11;
}>;
export type TargetStateName = 'none' | 'requested' | 'valid' | 'velocity' | 'arrived' | 'blocked' | 'failed';
export type EventKindName = 'arrived' | 'blocked' | 'replanned' | 'offmeshStart' | 'offmeshEnd' | 'lost' | 'stoppedShort';
export type EdgeKindName = 'wall' | 'internal' | 'tilePortal' | 'unlinkedPortal' | 'layerSeam';
export declare const TargetState: readonly TargetStateName[];
export declare const EventKind: readonly EventKindName[];
export declare const EdgeKind: readonly EdgeKindName[];

/** A call the library refused. */
export declare class WayfarerError extends Error {
    /** The wf_status (negative). */
    status: number;
    /** Its name, e.g. "WF_ERR_STALE_REF". */
    statusName: string;
}

export interface LoadOptions {
    /** The module's bytes, or a compiled module (default: fetched/read from wasmUrl). */
    wasm?: BufferSource | WebAssembly.Module;
    /** Default: wayfarer.wasm beside wayfarer.js. */
    wasmUrl?: string | URL;
    /** The library's log (level 0 error .. 3 debug); default: errors and warnings to console.warn. */
    log?: (level: number, message: string) => void;
}

/** Tile cache params (wf_tilecache_params); units metres, degrees, cells. */
export interface TileCacheParams {
    cellSize: number; cellHeight: number; agentHeight: number; agentRadius: number;
    agentClimb: number; agentMaxSlope: number; tileSize: number; minRegionArea: number;
    mergeRegionArea: number; maxEdgeLength: number; maxSimplificationError: number;
    maxVertsPerPoly: number;
}

/** Agent params (wf_agent_params). */
export interface AgentParams {
    radius: number; height: number; maxSpeed: number; maxAcceleration: number;
    collisionQueryRange: number; pathOptimizationRange: number; separationWeight: number;
    /** wf_agent_update_flags bits (31 = all). */
    updateFlags: number;
    avoidancePreset: number; filter: number; priority: number;
}

export interface WorldDesc {
    /** Exactly one of cache, obj, geometry. */
    cache?: Uint8Array;
    obj?: string;
    geometry?: { vertices: ArrayLike<number>; indices: ArrayLike<number> };
    /** Geometry only: overrides of the Recast demo params. */
    params?: Partial<TileCacheParams>;
    /** Default 1000. */
    maxAgents?: number;
    /** Default 1024. */
    maxObstacles?: number;
}

export interface Wayfarer {
    readonly version: string;
    createWorld(desc: WorldDesc): World;
    defaultParams(): TileCacheParams;
    defaultAgentParams(): AgentParams;
    statusString(status: number): string;
}

export declare function loadWayfarer(options?: LoadOptions): Promise<Wayfarer>;

export interface StepBudget {
    /** µs for committing rebuilt tiles per step; 0 or absent: no limit. */
    tileTimeUs?: number;
    /** Tiles committed per step; 0 or absent: no limit. */
    tileCommits?: number;
}

export interface StepReport {
    frame: number; totalUs: number; tilesUs: number; crowdUs: number;
    upToDate: boolean; requestsApplied: number; layersRebuilt: number; tilesCommitted: number;
    buildsInFlight: number; layersPending: number; changedCount: number;
    pathsCompleted: number; pathIterations: number; pathsQueued: number; replans: number;
    lostAgents: number;
    changedTiles: { x: number; z: number; layer: number }[];
    events: { agent: Id; kind: EventKindName }[];
}

export interface PathInfo { corridorCount: number; partial: boolean; cost: number; wait: number }

/** Run during step(); a missing callback answers the default in brackets. */
export interface MoveCallbacks {
    /** The path is known: false rejects it and stops the agent [true]. */
    onResult?: (agent: Id, info: PathInfo) => boolean | void;
    /** The path broke and a repair failed: false stops the agent [true]. */
    onBlocked?: (agent: Id) => boolean | void;
    /** Arrived (or stopped short): true keeps following the target [false]. */
    onDone?: (agent: Id) => boolean | void;
}

export interface AgentState {
    position: number[]; velocity: number[]; desiredVelocity: number[]; target: number[];
    mode: 'walking' | 'offmesh' | 'lost'; targetState: TargetStateName;
    corridorCount: number; corridorPartial: boolean; corners: number[][];
    neighbourCount: number; pathWait: number; stuckTime: number; poly: Id;
}

export interface ObstacleDesc {
    shape?: 'cylinder' | 'box' | 'orientedBox';
    position: Vec3;
    /** Cylinder. */
    radius?: number;
    /** Cylinder. */
    height?: number;
    /** Boxes. */
    halfExtents?: Vec3;
    /** Oriented box, radians about Y. */
    yaw?: number;
    /** true: paint `area` instead of carving. */
    paint?: boolean;
    area?: number;
}

export interface ObstacleInfo {
    id: Id; shape: 'cylinder' | 'box' | 'orientedBox' | 'prism'; paint: boolean; area: number;
    position: number[]; radius: number; height: number; halfExtents: number[]; yaw: number;
}

export interface PathResult {
    points: number[][];
    polys: BigUint64Array;
    partial: boolean;
    cost: number;
    complete: boolean;
}

export interface World {
    step(dt: number, budget?: StepBudget): StepReport;
    destroy(): void;
    stats(): { memoryBytes: number; agentCount: number; obstacleCount: number; tileCount: number; polyCount: number };
    saveCache(): Uint8Array;

    addAgent(position: Vec3, params?: Partial<AgentParams>): Id;
    setAgentParams(agent: Id, params: Partial<AgentParams>): void;
    removeAgent(agent: Id): void;
    teleportAgent(agent: Id, position: Vec3): void;
    requestMove(agent: Id, target: Vec3, callbacks?: MoveCallbacks): void;
    retarget(agent: Id, target: Vec3): void;
    requestVelocity(agent: Id, velocity: Vec3): void;
    cancelMove(agent: Id): void;
    getAgent(agent: Id): AgentState;
    getAgentCorridor(agent: Id): BigUint64Array;
    agents(): { ids: BigUint64Array; positions: Float32Array; velocities: Float32Array; radii: Float32Array; states: Uint8Array };

    addObstacle(desc: ObstacleDesc): Id;
    removeObstacle(id: Id): void;
    obstacles(): ObstacleInfo[];

    findNearest(position: Vec3): { point: number[]; poly: Id } | null;
    findPath(start: Vec3, end: Vec3): PathResult;
    findRandomPoint(): number[];
    seedRandom(seed: number, stream?: number): void;

    meshTiles(): { ref: Id; x: number; z: number; layer: number; polyCount: number }[];
    tileGeometry(ref: Id): { polys: Float32Array[]; edges: { start: number[]; end: number[]; kind: EdgeKindName }[] };
    agentNeighbours(agent: Id): BigUint64Array;
    setDebugAgent(agent: Id | null): void;
    avoidanceDebug(): {
        agent: Id; sampled: boolean; desiredVelocity: number[]; chosenVelocity: number[];
        candidates: { vx: number; vz: number; score: number }[];
    };
}
