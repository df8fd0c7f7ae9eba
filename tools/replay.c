// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Replay recording (replay.h): everything is kept in arrays sized once by
// replay_create, so recording a frame allocates nothing; writing encodes
// the frames (deltas, varints), compresses them with LZ4 and puts them in
// base64 into the viewer page of viewer_template.h.
//
// The data (little-endian; counts are in the page's JSON meta):
//   mesh     per polygon: u8 vertex count, u8 layer, i16 mean y, then per
//            vertex i16 x, i16 z
//   offmesh  per link: i16 ax, az, bx, bz, u8 bidirectional
//   agents   per column: u32 id low, u32 id high, u16 radius
//   frames   per frame: state bytes (one per column, XOR the previous
//            frame's), layer bytes (the same), then the x deltas of every
//            column, the z deltas, the y deltas (each the int16 difference
//            from the previous frame, zigzag, LEB128 varint: 1 byte for
//            moves under 64 units)
//   paths    per frame: varint count of columns whose path ahead changed,
//            then per such column (in column order): varint gap from the
//            previous one's column + 1 (the first: from 0); u8 corner count
//            n | m << 3 (the first m corners are the column's previous
//            record's, from index k) | 0x40 (the target is the previous
//            one's); k (u8, when m > 0); the other n - m corners (i16 x, z
//            each); the target (i16 x, z) unless the same. A column's path
//            holds until its next record
//   stats    per frame: f32 frame, tiles, crowd ms; u32 arrivals, replans,
//            blocked, obstacles, queued paths
//   obstacle per frame: varint index of its obstacle set
//   sets     per set: varint shape count; per shape u8 kind (0 circle,
//            1 outline) | 2 painted; circle: i16 x, z, r; outline: u8 n,
//            n x (i16 x, z)
// Positions are int16 in units of `unit` metres from `origin` (the mesh
// bounds' centre): 1 cm while the level fits in +-320 m, else 2 cm, 4 cm...
// State byte: mode << 4 | target state; 0xff = the agent is not there.
#include "tools/replay.h"

#include <lz4.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/replay_internal.h"
#include "tools/viewer_template.h"

/* ---------------------------------------------------------------------------
 * Quantization
 */

static int16_t quant(const replay* r, float v, int axis) {
    double q = floor(((double)v - r->origin[axis]) / r->unit + 0.5);
    if (!(q > -32767.0)) { // NaN lands here too
        q = -32767.0;
    }
    return (int16_t)(q > 32767.0 ? 32767.0 : q);
}

/// Origin at the bounds' centre; the unit doubles from 1 cm until the
/// bounds (plus a margin for agents pushed past them) fit in int16.
static void fix_quant(replay* r, const float* bmin, const float* bmax) {
    double half = 0.0;
    for (int a = 0; a < 3; ++a) {
        r->origin[a] = 0.5 * ((double)bmin[a] + (double)bmax[a]);
        double h = 0.5 * ((double)bmax[a] - (double)bmin[a]) + 2.0;
        half = h > half ? h : half;
        r->bmin[a] = bmin[a];
        r->bmax[a] = bmax[a];
    }
    r->unit = 0.01;
    while (half / r->unit > 32000.0 && r->unit < 1e6) {
        r->unit *= 2.0;
    }
    r->quant_fixed = true;
}

/* ---------------------------------------------------------------------------
 * Create and destroy
 */

replay* replay_create(const replay_desc* desc) {
    if (desc == NULL || desc->max_agents == 0 || desc->max_frames == 0) {
        return NULL;
    }
    replay* r = calloc(1, sizeof *r);
    if (r == NULL) {
        return NULL;
    }
    r->desc = *desc;
    if (r->desc.frame_stride == 0) {
        r->desc.frame_stride = 1;
    }
    if (!(r->desc.dt > 0.0f)) {
        r->desc.dt = 1.0f / 30.0f;
    }
    const char* title = desc->title != NULL ? desc->title : "Wayfarer replay";
    r->title = malloc(strlen(title) + 1u);
    size_t cells = (size_t)desc->max_agents * desc->max_frames;
    uint32_t slots = 16;
    while (slots < desc->max_agents * 2u && slots < 0x80000000u) {
        slots <<= 1;
    }
    r->hash_mask = slots - 1u;
    r->hash = calloc(slots, sizeof *r->hash);
    r->col_ids = calloc(desc->max_agents, sizeof *r->col_ids);
    r->col_radius = calloc(desc->max_agents, sizeof *r->col_radius);
    r->pos = malloc(cells * 3u * sizeof *r->pos);
    r->state = malloc(cells);
    r->layer = malloc(cells);
    r->path_last = calloc(desc->max_agents, sizeof *r->path_last);
    r->path_prev = calloc(desc->max_agents, sizeof *r->path_prev);
    r->path_offset = calloc((size_t)desc->max_frames + 1u, sizeof *r->path_offset);
    r->path_changes = calloc(desc->max_frames, sizeof *r->path_changes);
    r->path_scratch = malloc((size_t)desc->max_agents * PATH_RECORD_MAX);
    r->stats = calloc(desc->max_frames, sizeof *r->stats);
    r->obstacle_set = calloc(desc->max_frames, sizeof *r->obstacle_set);
    r->set_cap = 64;
    r->set_offsets = malloc((r->set_cap + 1u) * sizeof *r->set_offsets);
    if (r->title == NULL || r->hash == NULL || r->col_ids == NULL || r->col_radius == NULL ||
        r->pos == NULL || r->state == NULL || r->layer == NULL || r->path_last == NULL ||
        r->path_prev == NULL || r->path_offset == NULL || r->path_changes == NULL ||
        r->path_scratch == NULL || r->stats == NULL || r->obstacle_set == NULL ||
        r->set_offsets == NULL) {
        replay_destroy(r);
        return NULL;
    }
    memcpy(r->title, title, strlen(title) + 1u);
    r->set_offsets[0] = 0;
    r->unit = 0.01;
    return r;
}

void replay_destroy(replay* r) {
    if (r == NULL) {
        return;
    }
    free(r->title);
    free(r->polys);
    free(r->offmesh);
    free(r->col_ids);
    free(r->col_radius);
    free(r->hash);
    free(r->pos);
    free(r->state);
    free(r->layer);
    free(r->path_last);
    free(r->path_prev);
    free(r->path_bytes);
    free(r->path_offset);
    free(r->path_changes);
    free(r->path_scratch);
    free(r->stats);
    free(r->obstacle_set);
    free(r->obstacle_bytes);
    free(r->set_offsets);
    free(r->scratch);
    free(r);
}

/* ---------------------------------------------------------------------------
 * The mesh
 */

int replay_set_mesh(replay* r, const wf_mesh* mesh) {
    if (r == NULL || mesh == NULL) {
        return -1;
    }
    wf_mesh_stats ms = wf_mesh_get_stats(mesh);
    wf_tile_ref* tiles = malloc(sizeof *tiles * (ms.tile_count + 1u));
    if (tiles == NULL) {
        return -1;
    }
    uint32_t tile_count = wf_mesh_get_tiles(mesh, tiles, ms.tile_count);
    tile_count = tile_count < ms.tile_count ? tile_count : ms.tile_count;
    // Count first: the arrays are sized once.
    uint32_t poly_total = 0, link_total = 0;
    float bmin[3] = {INFINITY, INFINITY, INFINITY}, bmax[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (uint32_t i = 0; i < tile_count; ++i) {
        wf_tile_info ti;
        if (wf_mesh_get_tile_info(mesh, tiles[i], &ti) != WF_OK) {
            continue;
        }
        poly_total += ti.poly_count;
        link_total += ti.offmesh_link_count;
        const float lo[3] = {ti.bmin.x, ti.bmin.y, ti.bmin.z};
        const float hi[3] = {ti.bmax.x, ti.bmax.y, ti.bmax.z};
        for (int a = 0; a < 3; ++a) {
            bmin[a] = lo[a] < bmin[a] ? lo[a] : bmin[a];
            bmax[a] = hi[a] > bmax[a] ? hi[a] : bmax[a];
        }
    }
    if (poly_total == 0) {
        for (int a = 0; a < 3; ++a) {
            bmin[a] = bmax[a] = 0.0f;
        }
    }
    if (!r->quant_fixed) {
        fix_quant(r, bmin, bmax);
    }
    free(r->polys);
    free(r->offmesh);
    r->polys = malloc(sizeof *r->polys * (poly_total + 1u));
    r->offmesh = malloc(sizeof *r->offmesh * (link_total + 1u));
    r->poly_count = r->offmesh_count = 0;
    if (r->polys == NULL || r->offmesh == NULL) {
        free(tiles);
        return -1;
    }
    // Outlines through the debug API (wf_mesh_get_poly_outline), as a
    // game's renderer would read them: per tile the ground polygons, then
    // the off-mesh links, each in index order.
    for (uint32_t i = 0; i < tile_count; ++i) {
        wf_tile_info ti;
        if (wf_mesh_get_tile_info(mesh, tiles[i], &ti) != WF_OK) {
            continue;
        }
        uint32_t layer = ti.layer < 0 ? 0u : (uint32_t)ti.layer;
        uint32_t total = ti.poly_count + ti.offmesh_link_count;
        for (uint32_t p = 0; p < total && r->poly_count < poly_total; ++p) {
            wf_poly_outline outline;
            if (wf_mesh_get_poly_outline(mesh, wf_mesh_poly_ref(mesh, tiles[i], p), &outline) !=
                    WF_OK ||
                outline.is_offmesh_link) {
                continue;
            }
            mesh_poly* out = &r->polys[r->poly_count++];
            const wf_vec3* v = outline.verts;
            uint32_t n = outline.vert_count;
            float y = 0.0f;
            for (uint32_t k = 0; k < n; ++k) {
                out->xz[k][0] = quant(r, v[k].x, 0);
                out->xz[k][1] = quant(r, v[k].z, 2);
                y += v[k].y;
            }
            out->vert_count = (uint8_t)n;
            out->layer = (uint8_t)(layer > 255u ? 255u : layer);
            out->y = quant(r, n > 0 ? y / (float)n : 0.0f, 1);
        }
        for (uint32_t p = 0; p < total && r->offmesh_count < link_total; ++p) {
            wf_poly_outline o;
            if (wf_mesh_get_poly_outline(mesh, wf_mesh_poly_ref(mesh, tiles[i], p), &o) != WF_OK ||
                !o.is_offmesh_link) {
                continue;
            }
            offmesh_rec* out = &r->offmesh[r->offmesh_count++];
            out->a[0] = quant(r, o.verts[0].x, 0);
            out->a[1] = quant(r, o.verts[0].z, 2);
            out->b[0] = quant(r, o.verts[1].x, 0);
            out->b[1] = quant(r, o.verts[1].z, 2);
            out->bidirectional = o.is_bidirectional;
        }
    }
    free(tiles);
    return 0;
}

void replay_poly_extent(const replay* r, int16_t lo[2], int16_t hi[2]) {
    lo[0] = lo[1] = INT16_MAX;
    hi[0] = hi[1] = INT16_MIN;
    for (uint32_t i = 0; i < r->poly_count; ++i) {
        const mesh_poly* p = &r->polys[i];
        for (uint32_t k = 0; k < p->vert_count; ++k) {
            for (int a = 0; a < 2; ++a) {
                lo[a] = p->xz[k][a] < lo[a] ? p->xz[k][a] : lo[a];
                hi[a] = p->xz[k][a] > hi[a] ? p->xz[k][a] : hi[a];
            }
        }
    }
    if (lo[0] > hi[0]) {
        lo[0] = lo[1] = hi[0] = hi[1] = 0;
    }
}

uint32_t replay_layers(const replay* r, bool used[256]) {
    memset(used, 0, 256 * sizeof *used);
    uint32_t n = 0;
    for (uint32_t i = 0; i < r->poly_count; ++i) {
        n += !used[r->polys[i].layer];
        used[r->polys[i].layer] = true;
    }
    return n;
}

/* ---------------------------------------------------------------------------
 * Frames
 */

static uint32_t hash_id(uint64_t bits) {
    bits ^= bits >> 33;
    bits *= 0xff51afd7ed558ccdull;
    bits ^= bits >> 33;
    return (uint32_t)bits;
}

/// The column of an agent id (a new one for an unseen id); UINT32_MAX when
/// every column is taken.
static uint32_t column_of(replay* r, wf_agent_id id) {
    uint32_t h = hash_id(id.bits) & r->hash_mask;
    for (;;) {
        uint32_t c = r->hash[h];
        if (c == 0) {
            break;
        }
        if (r->col_ids[c - 1u] == id.bits) {
            return c - 1u;
        }
        h = (h + 1u) & r->hash_mask;
    }
    if (r->col_count >= r->desc.max_agents) {
        return UINT32_MAX;
    }
    uint32_t col = r->col_count++;
    r->col_ids[col] = id.bits;
    r->hash[h] = col + 1u;
    return col;
}

static bool reserve(uint8_t** buf, size_t* cap, size_t need, size_t limit) {
    if (need <= *cap) {
        return true;
    }
    if (need > limit) {
        return false;
    }
    size_t c = *cap != 0 ? *cap : 4096;
    while (c < need) {
        c *= 2;
    }
    c = c > limit ? limit : c;
    uint8_t* p = realloc(*buf, c);
    if (p == NULL) {
        return false;
    }
    *buf = p;
    *cap = c;
    return true;
}

static uint8_t* put_i16(uint8_t* p, int16_t v) {
    uint16_t u = (uint16_t)v;
    p[0] = (uint8_t)(u & 0xffu);
    p[1] = (uint8_t)(u >> 8);
    return p + 2;
}

/// Writes a box's or prism's outline (XZ), `n` points.
static uint8_t* put_outline(const replay* r, uint8_t* p, const float (*xz)[2], uint32_t n) {
    *p++ = (uint8_t)n;
    for (uint32_t i = 0; i < n; ++i) {
        p = put_i16(p, quant(r, xz[i][0], 0));
        p = put_i16(p, quant(r, xz[i][1], 2));
    }
    return p;
}

/// One obstacle as the page reads it; returns the end.
static uint8_t* encode_shape(const replay* r, uint8_t* p, const wf_obstacle_desc* o) {
    uint8_t painted = o->paint ? 2u : 0u;
    float xz[WF_OBSTACLE_MAX_VERTS][2];
    switch (o->shape) {
    case WF_OBSTACLE_CYLINDER: {
        *p++ = (uint8_t)(0u | painted);
        p = put_i16(p, quant(r, o->position.x, 0));
        p = put_i16(p, quant(r, o->position.z, 2));
        double rq = ceil((double)o->radius / r->unit);
        p = put_i16(p, (int16_t)(rq > 32767.0 ? 32767.0 : (rq < 0.0 ? 0.0 : rq)));
        return p;
    }
    case WF_OBSTACLE_BOX:
    case WF_OBSTACLE_ORIENTED_BOX: {
        float yaw = o->shape == WF_OBSTACLE_ORIENTED_BOX ? o->yaw : 0.0f;
        float c = cosf(yaw), s = sinf(yaw);
        static const float signs[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int i = 0; i < 4; ++i) {
            float lx = signs[i][0] * o->half_extents.x, lz = signs[i][1] * o->half_extents.z;
            // Yaw about +Y: x' = x cos + z sin, z' = -x sin + z cos.
            xz[i][0] = o->position.x + lx * c + lz * s;
            xz[i][1] = o->position.z - lx * s + lz * c;
        }
        *p++ = (uint8_t)(1u | painted);
        return put_outline(r, p, (const float(*)[2])xz, 4);
    }
    case WF_OBSTACLE_PRISM:
    default: {
        uint32_t n = o->vert_count < WF_OBSTACLE_MAX_VERTS ? o->vert_count : WF_OBSTACLE_MAX_VERTS;
        for (uint32_t i = 0; i < n; ++i) {
            xz[i][0] = o->verts[i].x;
            xz[i][1] = o->verts[i].z;
        }
        *p++ = (uint8_t)(1u | painted);
        return put_outline(r, p, (const float(*)[2])xz, n);
    }
    }
}

static size_t put_varint(uint8_t* p, uint32_t v) {
    size_t n = 0;
    while (v >= 0x80u) {
        p[n++] = (uint8_t)(v | 0x80u);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/// The frame's obstacle set: the previous one when nothing changed, else
/// a new set appended. false when out of memory.
static bool record_obstacles(replay* r, uint32_t frame, const wf_obstacle_desc* obstacles,
                             uint32_t count) {
    size_t need = 5u + (size_t)count * SHAPE_BYTES_MAX;
    if (!reserve(&r->scratch, &r->scratch_cap, need, SIZE_MAX)) {
        return false;
    }
    uint8_t* p = r->scratch + put_varint(r->scratch, count);
    for (uint32_t i = 0; i < count; ++i) {
        p = encode_shape(r, p, &obstacles[i]);
    }
    size_t size = (size_t)(p - r->scratch);
    if (r->set_count > 0) {
        size_t last = r->set_offsets[r->set_count - 1u];
        size_t last_size = r->set_offsets[r->set_count] - last;
        if ((last_size == size && memcmp(r->obstacle_bytes + last, r->scratch, size) == 0) ||
            r->obstacles_truncated) {
            r->obstacle_set[frame] = r->set_count - 1u;
            return true;
        }
    }
    if (!reserve(&r->obstacle_bytes, &r->obstacle_cap, r->obstacle_size + size,
                 OBSTACLE_BYTES_MAX)) {
        // Full (or out of memory): the frames from here on show the last set.
        r->obstacles_truncated = true;
        r->obstacle_set[frame] = r->set_count > 0 ? r->set_count - 1u : 0u;
        return r->set_count > 0;
    }
    if (r->set_count == r->set_cap) {
        size_t* o = realloc(r->set_offsets, (r->set_cap * 2u + 1u) * sizeof *o);
        if (o == NULL) {
            r->obstacles_truncated = true;
            r->obstacle_set[frame] = r->set_count > 0 ? r->set_count - 1u : 0u;
            return r->set_count > 0;
        }
        r->set_offsets = o;
        r->set_cap *= 2u;
    }
    memcpy(r->obstacle_bytes + r->obstacle_size, r->scratch, size);
    r->obstacle_size += size;
    r->obstacle_set[frame] = r->set_count++;
    r->set_offsets[r->set_count] = r->obstacle_size;
    return true;
}

/// The tile layer of the agent's polygon; `before` when it has none.
static uint8_t layer_of(const wf_mesh* mesh, wf_poly_ref poly, uint8_t before) {
    wf_tile_info ti;
    if (mesh == NULL || wf_poly_ref_is_null(poly) ||
        wf_mesh_get_tile_info(mesh, wf_poly_ref_tile_ref(poly), &ti) != WF_OK) {
        return mesh == NULL ? 0u : before;
    }
    return (uint8_t)(ti.layer < 0 ? 0 : (ti.layer > 254 ? 254 : ti.layer));
}

/// The agent's path ahead, quantised; true when it differs from the last
/// recorded one by a point moved more than the tolerance, another corner
/// count, or when none was recorded.
static bool path_changed(const replay* r, const wf_agent_state* s, path_rec* now,
                         const path_rec* last) {
    memset(now, 0, sizeof *now);
    uint32_t n = s->corner_count < WF_CROWD_MAX_CORNERS ? s->corner_count : WF_CROWD_MAX_CORNERS;
    for (uint32_t k = 0; k < n; ++k) {
        now->corners[k][0] = quant(r, s->corners[k].pos.x, 0);
        now->corners[k][1] = quant(r, s->corners[k].pos.z, 2);
    }
    now->corner_count = (uint8_t)n;
    now->target[0] = quant(r, s->target.x, 0);
    now->target[1] = quant(r, s->target.z, 2);
    now->recorded = true;
    if (!last->recorded || last->corner_count != n) {
        return true;
    }
    double tolerance = (double)REPLAY_PATH_TOLERANCE / r->unit;
    double d2 = tolerance * tolerance;
    for (uint32_t k = 0; k <= n; ++k) {
        const int16_t* a = k < n ? now->corners[k] : now->target;
        const int16_t* b = k < n ? last->corners[k] : last->target;
        double dx = (double)a[0] - (double)b[0], dz = (double)a[1] - (double)b[1];
        if (dx * dx + dz * dz > d2) {
            return true;
        }
    }
    return false;
}

/// One path record against the column's previous one: the corners it
/// still has (passing a corner shifts them by one) and its target are
/// referred to, not repeated. Returns the bytes written.
static size_t encode_path(uint8_t* out, uint32_t gap, const path_rec* p, const path_rec* before) {
    uint32_t reuse = 0, from = 0;
    for (uint32_t k = 0; before->recorded && k < before->corner_count; ++k) {
        uint32_t m = 0;
        while (m < p->corner_count && k + m < before->corner_count &&
               memcmp(p->corners[m], before->corners[k + m], sizeof p->corners[m]) == 0) {
            m++;
        }
        if (m > reuse) {
            reuse = m;
            from = k;
        }
    }
    bool same_target = before->recorded && memcmp(p->target, before->target, sizeof p->target) == 0;
    uint8_t* q = out + put_varint(out, gap);
    *q++ = (uint8_t)(p->corner_count | reuse << 3 | (same_target ? 0x40u : 0u));
    if (reuse > 0) {
        *q++ = (uint8_t)from;
    }
    for (uint32_t k = reuse; k < p->corner_count; ++k) {
        q = put_i16(q, p->corners[k][0]);
        q = put_i16(q, p->corners[k][1]);
    }
    if (!same_target) {
        q = put_i16(q, p->target[0]);
        q = put_i16(q, p->target[1]);
    }
    return (size_t)(q - out);
}

/// Appends frame f's path records (already in the scratch) to the paths.
static void commit_paths(replay* r, uint32_t f, size_t size, uint32_t changes) {
    r->path_offset[f] = r->path_size;
    if (!r->paths_truncated &&
        reserve(&r->path_bytes, &r->path_cap, r->path_size + size, PATH_BYTES_MAX)) {
        memcpy(r->path_bytes + r->path_size, r->path_scratch, size);
        r->path_size += size;
        r->path_changes[f] = changes;
        r->path_records += changes;
    } else {
        // Full: the paths stay as they were, which the page still reads.
        r->paths_truncated = true;
        r->path_changes[f] = 0;
    }
    r->path_offset[f + 1u] = r->path_size;
}

int replay_add_frame(replay* r, const wf_crowd* crowd, const wf_mesh* mesh, const wf_agent_id* ids,
                     uint32_t count, const wf_obstacle_desc* obstacles, uint32_t obstacle_count,
                     const replay_stats* stats) {
    return replay_add_frame_classes(r, &crowd, 1, mesh, ids, count, obstacles, obstacle_count,
                                    stats);
}

int replay_add_frame_classes(replay* r, const wf_crowd* const* crowds, uint32_t crowd_count,
                             const wf_mesh* mesh, const wf_agent_id* ids, uint32_t count,
                             const wf_obstacle_desc* obstacles, uint32_t obstacle_count,
                             const replay_stats* stats) {
    if (r == NULL || crowds == NULL || crowd_count == 0 || crowds[0] == NULL ||
        (count > 0 && ids == NULL) || (obstacle_count > 0 && obstacles == NULL)) {
        return -1;
    }
    uint64_t call = r->calls++;
    if (stats != NULL) {
        r->pending_arrivals += stats->arrivals;
        r->pending_replans += stats->replans;
    }
    if (call % r->desc.frame_stride != 0 || r->frame_count >= r->desc.max_frames) {
        return 0;
    }
    if (!r->quant_fixed) {
        const float zero[3] = {0.0f, 0.0f, 0.0f};
        fix_quant(r, zero, zero);
    }
    uint32_t f = r->frame_count;
    size_t row = (size_t)f * r->desc.max_agents;
    int16_t* pos = &r->pos[row * 3u];
    uint8_t* state = &r->state[row];
    uint8_t* layer = &r->layer[row];
    // Columns not seen this frame keep their place and layer and show as
    // absent.
    if (f > 0) {
        memcpy(pos, pos - (size_t)r->desc.max_agents * 3u,
               (size_t)r->desc.max_agents * 3u * sizeof *pos);
        memcpy(layer, layer - r->desc.max_agents, r->desc.max_agents);
    } else {
        memset(pos, 0, (size_t)r->desc.max_agents * 3u * sizeof *pos);
        memset(layer, 0, r->desc.max_agents);
    }
    memset(state, STATE_ABSENT, r->desc.max_agents);
    // Path records go in column order (the page reads column gaps), so the
    // changed columns are marked first and written after the loop.
    uint32_t changes = 0;
    for (uint32_t i = 0; i < count; ++i) {
        wf_agent_state s;
        uint32_t class_index = (uint32_t)ids[i].bits >> 24;
        if (class_index >= crowd_count ||
            wf_crowd_get_agent(crowds[class_index], ids[i], &s) != WF_OK) {
            continue;
        }
        uint32_t col = column_of(r, ids[i]);
        if (col == UINT32_MAX) {
            r->agents_dropped++;
            continue;
        }
        if (r->col_radius[col] == 0) {
            double rq = ceil((double)s.params.radius / r->unit);
            r->col_radius[col] = (uint16_t)(rq > 65535.0 ? 65535.0 : (rq < 1.0 ? 1.0 : rq));
        }
        pos[col * 3u + 0u] = quant(r, s.position.x, 0);
        pos[col * 3u + 1u] = quant(r, s.position.y, 1);
        pos[col * 3u + 2u] = quant(r, s.position.z, 2);
        state[col] =
            (uint8_t)(((uint32_t)s.mode & 0x0fu) << 4 | ((uint32_t)s.target_state & 0x0fu));
        layer[col] = layer_of(mesh, s.poly, layer[col]);
        path_rec now;
        if (!r->paths_truncated && (r->path_last[col].corner_count & 0x80u) == 0 &&
            path_changed(r, &s, &now, &r->path_last[col])) {
            // Kept in path_last with the top bit of corner_count marking
            // "changed this frame" until the records are written below.
            r->path_prev[col] = r->path_last[col];
            r->path_last[col] = now;
            r->path_last[col].corner_count |= 0x80u;
        }
    }
    size_t path_size = 0;
    for (uint32_t c = 0, next = 0; c < r->col_count; ++c) {
        path_rec* p = &r->path_last[c];
        if ((p->corner_count & 0x80u) == 0) {
            continue;
        }
        p->corner_count &= 0x7fu;
        path_size += encode_path(r->path_scratch + path_size, c - next, p, &r->path_prev[c]);
        next = c + 1u;
        changes++;
    }
    commit_paths(r, f, path_size, changes);
    stats_rec* st = &r->stats[f];
    memset(st, 0, sizeof *st);
    if (stats != NULL) {
        bool timed = r->desc.timings;
        st->ms[0] = timed ? (float)stats->frame_ms : 0.0f;
        st->ms[1] = timed ? (float)stats->tiles_ms : 0.0f;
        st->ms[2] = timed ? (float)stats->crowd_ms : 0.0f;
        st->counts[2] = stats->blocked;
        st->counts[3] = stats->obstacles;
        st->counts[4] = stats->paths_queued;
    }
    // Arrivals and replans of the frames the stride skipped count here.
    st->counts[0] = r->pending_arrivals;
    st->counts[1] = r->pending_replans;
    r->pending_arrivals = r->pending_replans = 0;
    r->frame_count++;
    return record_obstacles(r, f, obstacles, obstacle_count) ? 0 : -1;
}

/* ---------------------------------------------------------------------------
 * Encoding
 */

typedef struct bytes {
    uint8_t* data;
    size_t size, cap;
    bool failed;
} bytes;

static uint8_t* bytes_grow(bytes* b, size_t n) {
    if (b->failed || !reserve(&b->data, &b->cap, b->size + n, SIZE_MAX)) {
        b->failed = true;
        return NULL;
    }
    uint8_t* p = b->data + b->size;
    b->size += n;
    return p;
}

static void bytes_u8(bytes* b, uint8_t v) {
    uint8_t* p = bytes_grow(b, 1);
    if (p != NULL) {
        *p = v;
    }
}

static void bytes_i16(bytes* b, int16_t v) {
    uint8_t* p = bytes_grow(b, 2);
    if (p != NULL) {
        put_i16(p, v);
    }
}

static void bytes_u32(bytes* b, uint32_t v) {
    uint8_t* p = bytes_grow(b, 4);
    if (p != NULL) {
        for (int i = 0; i < 4; ++i) {
            p[i] = (uint8_t)(v >> (8 * i));
        }
    }
}

static void bytes_f32(bytes* b, float v) {
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    bytes_u32(b, u);
}

static void bytes_varint(bytes* b, uint32_t v) {
    uint8_t tmp[5];
    size_t n = put_varint(tmp, v);
    uint8_t* p = bytes_grow(b, n);
    if (p != NULL) {
        memcpy(p, tmp, n);
    }
}

/// Section sizes (for the meta) and the whole raw blob.
typedef struct encoded {
    bytes raw;
    size_t section[8];
} encoded;

static void encode(const replay* r, encoded* e) {
    bytes* b = &e->raw;
    size_t mark = 0;
    int s = 0;
#define SECTION_END() (e->section[s++] = b->size - mark, mark = b->size)
    for (uint32_t i = 0; i < r->poly_count; ++i) {
        const mesh_poly* p = &r->polys[i];
        bytes_u8(b, p->vert_count);
        bytes_u8(b, p->layer);
        bytes_i16(b, p->y);
        for (uint32_t k = 0; k < p->vert_count; ++k) {
            bytes_i16(b, p->xz[k][0]);
            bytes_i16(b, p->xz[k][1]);
        }
    }
    SECTION_END();
    for (uint32_t i = 0; i < r->offmesh_count; ++i) {
        const offmesh_rec* o = &r->offmesh[i];
        bytes_i16(b, o->a[0]);
        bytes_i16(b, o->a[1]);
        bytes_i16(b, o->b[0]);
        bytes_i16(b, o->b[1]);
        bytes_u8(b, o->bidirectional);
    }
    SECTION_END();
    for (uint32_t c = 0; c < r->col_count; ++c) {
        bytes_u32(b, (uint32_t)r->col_ids[c]);
        bytes_u32(b, (uint32_t)(r->col_ids[c] >> 32));
        bytes_i16(b, (int16_t)r->col_radius[c]);
    }
    SECTION_END();
    // Planes per frame (states, then x, z, y deltas) so that LZ4 sees long
    // runs: unchanged states XOR to zero, y rarely moves.
    static const int axis_order[3] = {0, 2, 1};
    for (uint32_t f = 0; f < r->frame_count; ++f) {
        size_t row = (size_t)f * r->desc.max_agents;
        const uint8_t* st = &r->state[row];
        const uint8_t* st_before = f > 0 ? st - r->desc.max_agents : NULL;
        for (uint32_t c = 0; c < r->col_count; ++c) {
            bytes_u8(b, (uint8_t)(st[c] ^ (st_before != NULL ? st_before[c] : 0u)));
        }
        const uint8_t* ly = &r->layer[row];
        const uint8_t* ly_before = f > 0 ? ly - r->desc.max_agents : NULL;
        for (uint32_t c = 0; c < r->col_count; ++c) {
            bytes_u8(b, (uint8_t)(ly[c] ^ (ly_before != NULL ? ly_before[c] : 0u)));
        }
        const int16_t* pos = &r->pos[row * 3u];
        const int16_t* pos_before = f > 0 ? pos - (size_t)r->desc.max_agents * 3u : NULL;
        for (int a = 0; a < 3; ++a) {
            uint32_t axis = (uint32_t)axis_order[a];
            for (uint32_t c = 0; c < r->col_count; ++c) {
                uint16_t now = (uint16_t)pos[c * 3u + axis];
                uint16_t before = pos_before != NULL ? (uint16_t)pos_before[c * 3u + axis] : 0u;
                // The int16 difference (wrapping), zigzagged: small moves of
                // either sign take one varint byte.
                int16_t d = (int16_t)(uint16_t)(now - before);
                uint32_t zig = d < 0 ? ((uint32_t)(-(int32_t)d) << 1) - 1u : (uint32_t)d << 1;
                bytes_varint(b, zig);
            }
        }
    }
    SECTION_END();
    for (uint32_t f = 0; f < r->frame_count; ++f) {
        bytes_varint(b, r->path_changes[f]);
        size_t size = r->path_offset[f + 1u] - r->path_offset[f];
        uint8_t* p = bytes_grow(b, size);
        if (p != NULL && size > 0) {
            memcpy(p, r->path_bytes + r->path_offset[f], size);
        }
    }
    SECTION_END();
    for (uint32_t f = 0; f < r->frame_count; ++f) {
        for (int k = 0; k < 3; ++k) {
            bytes_f32(b, r->stats[f].ms[k]);
        }
        for (int k = 0; k < 5; ++k) {
            bytes_u32(b, r->stats[f].counts[k]);
        }
    }
    SECTION_END();
    for (uint32_t f = 0; f < r->frame_count; ++f) {
        bytes_varint(b, r->obstacle_set[f]);
    }
    SECTION_END();
    uint8_t* p = bytes_grow(b, r->obstacle_size);
    if (p != NULL && r->obstacle_size > 0) {
        memcpy(p, r->obstacle_bytes, r->obstacle_size);
    }
    SECTION_END();
#undef SECTION_END
}

size_t replay_data_bytes(const replay* r) {
    if (r == NULL) {
        return 0;
    }
    encoded e;
    memset(&e, 0, sizeof e);
    encode(r, &e);
    size_t result = 0;
    if (!e.raw.failed && e.raw.size <= (size_t)LZ4_MAX_INPUT_SIZE) {
        int bound = LZ4_compressBound((int)e.raw.size);
        char* z = malloc((size_t)bound + 1u);
        if (z != NULL) {
            int n = LZ4_compress_default((const char*)e.raw.data, z, (int)e.raw.size, bound);
            result = n > 0 ? ((size_t)n + 2u) / 3u * 4u : 0;
            free(z);
        }
    }
    free(e.raw.data);
    return result;
}

/* ---------------------------------------------------------------------------
 * Writing
 */

/// A string for JSON inside a <script> element: no '<' (so no '</script>'),
/// no quotes or control characters unescaped.
static void write_json_string(FILE* f, const char* s) {
    fputc('"', f);
    for (const unsigned char* p = (const unsigned char*)s; *p != 0; ++p) {
        if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p);
        } else if (*p < 0x20u || *p == '<' || *p == '>' || *p == '&') {
            fprintf(f, "\\u%04x", *p);
        } else {
            fputc(*p, f);
        }
    }
    fputc('"', f);
}

void replay_write_html_text(FILE* f, const char* s) {
    for (const char* p = s; *p != 0; ++p) {
        switch (*p) {
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '&':
            fputs("&amp;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*p, f);
            break;
        }
    }
}

static void write_lines(FILE* f, const char* const* lines) {
    for (size_t i = 0; lines[i] != NULL; ++i) {
        fputs(lines[i], f);
        fputc('\n', f);
    }
}

static void write_base64(FILE* f, const uint8_t* data, size_t size) {
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char line[1025];
    size_t used = 0;
    for (size_t i = 0; i < size; i += 3) {
        uint32_t v = (uint32_t)data[i] << 16;
        size_t n = size - i < 3 ? size - i : 3;
        if (n > 1) {
            v |= (uint32_t)data[i + 1] << 8;
        }
        if (n > 2) {
            v |= data[i + 2];
        }
        line[used++] = alphabet[(v >> 18) & 63u];
        line[used++] = alphabet[(v >> 12) & 63u];
        line[used++] = n > 1 ? alphabet[(v >> 6) & 63u] : '=';
        line[used++] = n > 2 ? alphabet[v & 63u] : '=';
        if (used == 1024) { // whitespace is ignored by atob's forgiving decode
            line[used++] = '\n';
            fwrite(line, 1, used, f);
            used = 0;
        }
    }
    line[used++] = '\n';
    fwrite(line, 1, used, f);
}

/// What the page computes after decoding (and refuses to show a replay
/// that does not match): positions and states of every kept frame.
static uint32_t frames_check(const replay* r) {
    uint32_t h = 0;
    for (uint32_t f = 0; f < r->frame_count; ++f) {
        size_t row = (size_t)f * r->desc.max_agents;
        for (uint32_t c = 0; c < r->col_count; ++c) {
            const int16_t* q = &r->pos[(row + c) * 3u];
            for (int a = 0; a < 3; ++a) {
                h = h * 31u + (uint32_t)(int32_t)q[a];
            }
            h = h * 31u + r->state[row + c];
            h = h * 31u + r->layer[row + c];
        }
    }
    return h;
}

static void write_meta(FILE* f, const replay* r, const encoded* e, size_t packed) {
    fputs("{\"version\":2,\"title\":", f);
    write_json_string(f, r->title);
    fprintf(f, ",\"dt\":%.9g,\"stride\":%u,\"unit\":%.9g", (double)r->desc.dt, r->desc.frame_stride,
            r->unit);
    fprintf(f, ",\"origin\":[%.6f,%.6f,%.6f]", r->origin[0], r->origin[1], r->origin[2]);
    fprintf(f, ",\"bmin\":[%.4f,%.4f,%.4f],\"bmax\":[%.4f,%.4f,%.4f]", (double)r->bmin[0],
            (double)r->bmin[1], (double)r->bmin[2], (double)r->bmax[0], (double)r->bmax[1],
            (double)r->bmax[2]);
    // The polygons' own extent (tiles reach past the level): the view is
    // centred on it.
    int16_t lo[2], hi[2];
    replay_poly_extent(r, lo, hi);
    fprintf(f, ",\"extent\":[%.4f,%.4f,%.4f,%.4f]", r->origin[0] + lo[0] * r->unit,
            r->origin[2] + lo[1] * r->unit, r->origin[0] + hi[0] * r->unit,
            r->origin[2] + hi[1] * r->unit);
    fprintf(f, ",\"polys\":%u,\"offmesh\":%u,\"columns\":%u,\"frames\":%u", r->poly_count,
            r->offmesh_count, r->col_count, r->frame_count);
    fputs(",\"layers\":[", f);
    bool used[256];
    replay_layers(r, used);
    for (uint32_t k = 0, n = 0; k < 256u; ++k) {
        if (used[k]) {
            fprintf(f, "%s%u", n++ > 0 ? "," : "", k);
        }
    }
    fprintf(f, "],\"pathRecords\":%llu,\"pathTolerance\":%.3g,\"pathsTruncated\":%s",
            (unsigned long long)r->path_records, (double)REPLAY_PATH_TOLERANCE,
            r->paths_truncated ? "true" : "false");
    fprintf(f, ",\"obstacleSets\":%u,\"framesSeen\":%llu,\"agentsDropped\":%u", r->set_count,
            (unsigned long long)r->calls, r->agents_dropped);
    fprintf(f, ",\"check\":%u,\"timings\":%s", frames_check(r), r->desc.timings ? "true" : "false");
    fprintf(f, ",\"rawBytes\":%zu,\"packedBytes\":%zu,\"sections\":[", e->raw.size, packed);
    for (size_t i = 0; i < sizeof e->section / sizeof e->section[0]; ++i) {
        fprintf(f, "%s%zu", i > 0 ? "," : "", e->section[i]);
    }
    fputs("]}\n", f);
}

int replay_write_html(const replay* r, const char* path) {
    if (r == NULL || path == NULL) {
        return -1;
    }
    encoded e;
    memset(&e, 0, sizeof e);
    encode(r, &e);
    if (e.raw.failed || e.raw.size > (size_t)LZ4_MAX_INPUT_SIZE) {
        free(e.raw.data);
        return -1;
    }
    int bound = LZ4_compressBound((int)e.raw.size);
    char* z = malloc((size_t)bound + 1u);
    int packed = z != NULL && e.raw.size > 0
                     ? LZ4_compress_default((const char*)e.raw.data, z, (int)e.raw.size, bound)
                     : 0;
    FILE* f = (z != NULL && (packed > 0 || e.raw.size == 0)) ? fopen(path, "wb") : NULL;
    if (f == NULL) {
        free(z);
        free(e.raw.data);
        return -1;
    }
    write_lines(f, viewer_html_head);
    replay_write_html_text(f, r->title);
    write_lines(f, viewer_html_body);
    fputs("<script id=\"meta\" type=\"application/json\">", f);
    write_meta(f, r, &e, (size_t)packed);
    fputs("</script>\n<script id=\"data\" type=\"application/octet-stream\">\n", f);
    write_base64(f, (const uint8_t*)z, (size_t)packed);
    fputs("</script>\n", f);
    write_lines(f, viewer_html_script);
    free(z);
    free(e.raw.data);
    int bad = ferror(f);
    return (fclose(f) != 0 || bad) ? -1 : 0;
}
