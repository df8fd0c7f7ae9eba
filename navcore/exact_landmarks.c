// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Landmark tables for exact mode: built once by the user, read by every
// exact search of the queries they are set on (see exact_landmarks.h).
#include "navcore/exact_landmarks.h"

#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/mesh_internal.h"
#include "navcore/query_internal.h"
#include "navcore/tile_format.h"

#define NO_POINT 0xffffffffu
/// Passes of upper bounds spread along polygons from measured vertices to
/// the others (vertices a corner's polygon does not hold are rare).
#define SPREAD_PASSES 64

static float round_down(double d) {
    float f = (float)d;
    return (double)f > d ? nextafterf(f, -INFINITY) : f;
}
static float round_up(double d) {
    float f = (float)d;
    return (double)f < d ? nextafterf(f, INFINITY) : f;
}

static double xz_distance(const float* a, const float* b) {
    double dx = (double)a[0] - b[0], dz = (double)a[2] - b[2];
    return sqrt(dx * dx + dz * dz);
}

static uint32_t point_hash(const float* p) {
    uint32_t bits[3];
    memcpy(bits, p, sizeof bits);
    uint64_t h = bits[0] * 0x9e3779b97f4a7c15u + bits[1] * 0x165667b19e3779f9u +
                 bits[2] * 0xc2b2ae3d27d4eb4fu;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9u;
    return (uint32_t)(h ^ (h >> 29));
}

static uint32_t point_find(const wf_exact_landmarks* t, const float* p) {
    for (uint32_t b = point_hash(p) & t->slot_mask;; b = (b + 1u) & t->slot_mask) {
        uint32_t i = t->slots[b];
        if (i == 0) {
            return NO_POINT;
        }
        const float* q = &t->points[(size_t)(i - 1u) * 3u];
        if (q[0] == p[0] && q[1] == p[1] && q[2] == p[2]) {
            return i - 1u;
        }
    }
}

/// The point's index, added if new (the table has room for every vertex).
static uint32_t point_add(wf_exact_landmarks* t, const float* p) {
    uint32_t b = point_hash(p) & t->slot_mask;
    for (;; b = (b + 1u) & t->slot_mask) {
        uint32_t i = t->slots[b];
        if (i == 0) {
            break;
        }
        const float* q = &t->points[(size_t)(i - 1u) * 3u];
        if (q[0] == p[0] && q[1] == p[1] && q[2] == p[2]) {
            return i - 1u;
        }
    }
    uint32_t i = t->point_count++;
    memcpy(&t->points[(size_t)i * 3u], p, 3u * sizeof(float));
    t->slots[b] = i + 1u;
    return i;
}

static bool is_live_ground(const wf_mesh_tile* tile, uint32_t p) {
    return p < tile->header->poly_count && wf_poly_type(&tile->polys[p]) == WF_POLY_TYPE_GROUND;
}

static void free_table(wf_exact_landmarks* t) {
    wf_allocator a = t->allocator;
    uint32_t cap = t->point_capacity;
    WF_FREE_ARRAY(&a, t->slots, uint32_t, (size_t)t->slot_mask + 1u);
    WF_FREE_ARRAY(&a, t->points, float, (size_t)cap * 3u);
    WF_FREE_ARRAY(&a, t->bounds, float, (size_t)cap * 2u * t->landmark_count);
    wf_free(&a, t, sizeof *t, _Alignof(wf_exact_landmarks));
}

void wf_exact_landmarks_destroy(wf_exact_landmarks* table) {
    if (table != NULL) {
        free_table(table);
    }
}

size_t wf_exact_landmarks_memory_bytes(const wf_exact_landmarks* t) {
    if (t == NULL) {
        return 0;
    }
    return sizeof *t + ((size_t)t->slot_mask + 1u) * sizeof(uint32_t) +
           (size_t)t->point_capacity * (3u + 2u * t->landmark_count) * sizeof(float);
}

/* ---------------------------------------------------------------------------
 * Building
 */

typedef struct builder {
    wf_exact_landmarks* t;
    const wf_mesh* mesh;
    wf_query* query;
    uint64_t* owner; ///< per point, a ground polygon holding it
    double* lo;      ///< per point, for the landmark being measured
    double* hi;      ///< infinite: no path measured
    double* nearest; ///< per point, the least exact distance to the landmarks so far
    bool* exact;     ///< per point: no dead end holds it (the search's least is its distance)
    bool* pinch;     ///< per point: polygons touch there without an edge between them
    bool* reached;   ///< per point: the landmark being measured has a path to it
    uint32_t pinch_count;
    uint32_t* tile_first; ///< per tile slot, its first entry in vert_point
    uint32_t* vert_point; ///< per tile vertex, its point
} builder;

/// Most points one polygon is taken to see: its vertices and the vertices
/// of polygons across its tile-border edges that lie on those edges.
#define MAX_SEEN_POINTS 32u

/// Points on polygon p's boundary (all see each other: it is convex):
/// its vertices, and neighbours' vertices on its tile-border edges, where
/// a corner of the next tile often lies inside one of its edges and the
/// way along that edge from the corner is in no step (a cone along an
/// edge has no width).
static uint32_t seen_points(const builder* b, uint32_t ti, uint32_t p, uint32_t* out) {
    const wf_mesh_tile* tile = &b->mesh->tiles[ti];
    const wf_tile_poly* poly = &tile->polys[p];
    const uint32_t* vp = &b->vert_point[b->tile_first[ti]];
    uint32_t n = 0;
    for (uint32_t k = 0; k < poly->vert_count; ++k) {
        out[n++] = vp[poly->verts[k]];
    }
    for (uint32_t k = tile->first_link[p]; k != WF_NULL_LINK; k = tile->links[k].next) {
        const wf_tile_link* link = &tile->links[k];
        if (link->side == 0xff || link->edge >= poly->vert_count || link->ref == 0) {
            continue;
        }
        const float* a = &tile->verts[poly->verts[link->edge] * 3u];
        const float* c = &tile->verts[poly->verts[(link->edge + 1u) % poly->vert_count] * 3u];
        double ex = (double)c[0] - a[0], ez = (double)c[2] - a[2], len2 = ex * ex + ez * ez;
        const wf_mesh_tile* nt;
        const wf_tile_poly* np;
        wf_mesh_resolve_unchecked(b->mesh, wf_poly_ref_from_u64(link->ref), &nt, &np);
        const uint32_t* nvp = &b->vert_point[b->tile_first[nt - b->mesh->tiles]];
        for (uint32_t j = 0; j < np->vert_count && n < MAX_SEEN_POINTS; ++j) {
            const float* w = &nt->verts[np->verts[j] * 3u];
            double wx = (double)w[0] - a[0], wz = (double)w[2] - a[2];
            double along = len2 > 0.0 ? (wx * ex + wz * ez) / len2 : -1.0;
            double cross = wx * ez - wz * ex;
            if (along > 0.0 && along < 1.0 && cross * cross <= 1e-10 * len2) {
                out[n++] = nvp[np->verts[j]];
            }
        }
    }
    return n;
}

/// The search's dead-end test (exact_search.c): such polygons are entered
/// only when the goal is in them, so the measuring search, whose goal is
/// nowhere, never covers what lies beyond their entry edge.
static bool maybe_dead_end(const wf_mesh_tile* tile, uint32_t index) {
    const wf_tile_poly* poly = &tile->polys[index];
    uint32_t inside = 0, ways = 0;
    for (uint32_t k = 0; k < poly->vert_count; ++k) {
        uint16_t nb = poly->neighbours[k];
        inside += nb != 0 && (nb & WF_PORTAL_EDGE) == 0;
    }
    if (inside >= 2) {
        return false;
    }
    for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK && ways < 2;
         k = tile->links[k].next) {
        ways += tile->links[k].edge < poly->vert_count && tile->links[k].ref != 0;
    }
    return ways < 2;
}

/// Whether w lies on the closed segment a-c (XZ; the tolerance of seen_points).
static bool on_edge(const float* w, const float* a, const float* c) {
    if ((w[0] == a[0] && w[2] == a[2]) || (w[0] == c[0] && w[2] == c[2])) {
        return true;
    }
    double ex = (double)c[0] - a[0], ez = (double)c[2] - a[2], len2 = ex * ex + ez * ez;
    double wx = (double)w[0] - a[0], wz = (double)w[2] - a[2];
    double along = len2 > 0.0 ? (wx * ex + wz * ez) / len2 : -1.0;
    double cross = wx * ez - wz * ex;
    return along > 0.0 && along < 1.0 && cross * cross <= 1e-10 * len2;
}

/// Most polygons around one point that are sorted into groups; more: taken
/// as a pinch (no upper bound there is always safe).
#define MAX_FAN 32u

/// Whether the polygons whose boundary holds point w (fan, n of them) fall
/// into more than one group joined by links on edges through w: a pinch,
/// which the search never passes, so a distance to w measured on one side
/// bounds nothing on the other.
static bool is_pinch(const builder* b, const float* w, const uint64_t* fan, uint32_t n) {
    if (n > MAX_FAN) {
        return true;
    }
    uint8_t group[MAX_FAN];
    for (uint32_t k = 0; k < n; ++k) {
        group[k] = (uint8_t)k;
    }
    for (uint32_t u = 0; u < n; ++u) {
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        wf_mesh_resolve_unchecked(b->mesh, wf_poly_ref_from_u64(fan[u]), &tile, &poly);
        for (uint32_t k = tile->first_link[wf_tile_poly_index(tile, poly)]; k != WF_NULL_LINK;
             k = tile->links[k].next) {
            const wf_tile_link* link = &tile->links[k];
            if (link->edge >= poly->vert_count || link->ref == 0 ||
                !on_edge(w, &tile->verts[poly->verts[link->edge] * 3u],
                         &tile->verts[poly->verts[(link->edge + 1u) % poly->vert_count] * 3u])) {
                continue;
            }
            for (uint32_t v = 0; v < n; ++v) {
                if (fan[v] == link->ref && group[v] != group[u]) {
                    uint8_t from = group[v];
                    for (uint32_t j = 0; j < n; ++j) {
                        group[j] = group[j] == from ? group[u] : group[j];
                    }
                }
            }
        }
    }
    for (uint32_t k = 1; k < n; ++k) {
        if (group[k] != group[0]) {
            return true;
        }
    }
    return false;
}

/// Marks the pinch points: per point, the ground polygons holding it as a
/// vertex or inside a tile-border edge (seen_points), then is_pinch.
static wf_status find_pinches(builder* b, const wf_allocator* a) {
    const wf_exact_landmarks* t = b->t;
    uint32_t* start = WF_ALLOC_ARRAY(a, uint32_t, (size_t)t->point_count + 1u);
    uint32_t* fill = WF_ALLOC_ARRAY(a, uint32_t, t->point_count);
    uint64_t* fan = NULL;
    size_t total = 0;
    wf_status s = start != NULL && fill != NULL ? WF_OK : WF_ERR_OUT_OF_MEMORY;
    for (int pass = 0; s == WF_OK && pass < 2; ++pass) {
        if (pass == 1) {
            for (uint32_t i = 0; i < t->point_count; ++i) {
                fill[i] = start[i] = (uint32_t)total;
                total += start[i + 1u];
            }
            fan = WF_ALLOC_ARRAY(a, uint64_t, total > 0 ? total : 1u);
            if (fan == NULL) {
                s = WF_ERR_OUT_OF_MEMORY;
                break;
            }
        } else {
            memset(start, 0, ((size_t)t->point_count + 1u) * sizeof *start);
        }
        for (uint32_t ti = 0; ti < b->mesh->max_tiles; ++ti) {
            const wf_mesh_tile* tile = &b->mesh->tiles[ti];
            if (!tile->in_use || tile->header == NULL) {
                continue;
            }
            wf_poly_ref base = wf_mesh_tile_base(b->mesh, tile);
            for (uint32_t p = 0; p < tile->header->poly_count; ++p) {
                if (!is_live_ground(tile, p)) {
                    continue;
                }
                uint32_t seen[MAX_SEEN_POINTS];
                uint32_t count = seen_points(b, ti, p, seen);
                for (uint32_t k = 0; k < count; ++k) {
                    uint32_t i = seen[k];
                    if (pass == 0) {
                        start[i + 1u]++;
                    } else if (fill[i] == start[i] || fan[fill[i] - 1u] != base.bits + p) {
                        fan[fill[i]++] = base.bits + p; // once per polygon
                    }
                }
            }
        }
    }
    for (uint32_t i = 0; s == WF_OK && i < t->point_count; ++i) {
        b->pinch[i] = is_pinch(b, &t->points[(size_t)i * 3u], &fan[start[i]], fill[i] - start[i]);
        b->pinch_count += b->pinch[i];
    }
    WF_FREE_ARRAY(a, start, uint32_t, (size_t)t->point_count + 1u);
    WF_FREE_ARRAY(a, fill, uint32_t, t->point_count);
    WF_FREE_ARRAY(a, fan, uint64_t, total > 0 ? total : 1u);
    return s;
}

/// Paths along polygons (convex: every two of a polygon's vertices see
/// each other) shorten what the steps missed in d: a cone along a wall has
/// no width, so the vertices on the wall past a door jamb are reached only
/// this way (Dijkstra's relaxation, to a fixed point). A pinch point's
/// value may come from its other side, so for upper bounds it is not
/// spread (the search never goes on past a pinch).
static void spread_along_polygons(const builder* b, double* d, bool skip_pinches) {
    const wf_exact_landmarks* t = b->t;
    for (int pass = 0; pass < SPREAD_PASSES; ++pass) {
        bool changed = false;
        for (uint32_t ti = 0; ti < b->mesh->max_tiles; ++ti) {
            const wf_mesh_tile* tile = &b->mesh->tiles[ti];
            if (!tile->in_use || tile->header == NULL) {
                continue;
            }
            for (uint32_t p = 0; p < tile->header->poly_count; ++p) {
                if (!is_live_ground(tile, p)) {
                    continue;
                }
                uint32_t seen[MAX_SEEN_POINTS];
                uint32_t count = seen_points(b, ti, p, seen);
                for (uint32_t u = 0; u < count; ++u) {
                    uint32_t iu = seen[u];
                    if (skip_pinches && b->pinch[iu]) {
                        continue;
                    }
                    for (uint32_t v = 0; v < count; ++v) {
                        uint32_t iv = seen[v];
                        double uv =
                            xz_distance(&t->points[(size_t)iu * 3u], &t->points[(size_t)iv * 3u]);
                        if (d[iu] + uv < d[iv] - 1e-9) {
                            d[iv] = d[iu] + uv;
                            changed = true;
                        }
                    }
                }
            }
        }
        if (!changed) {
            break;
        }
    }
}

/// Bounds of d(L, p) for every point from one exact search from landmark
/// point l that runs until nothing is open (its goal polygon is null, so
/// it is never reached). Every expansion leaves a step (root, g, interval,
/// polygon); a vertex of the polygon inside the cone root -> interval is
/// reached by a path of length g + |root - v|, and the least of these is
/// d(L, v) wherever the search covered the polygon the shortest path comes
/// in by: everywhere but beyond dead ends, whose vertices keep this as an
/// upper bound only. Slack covers the steps' floats.
static wf_status measure_from(builder* b, uint32_t l, uint64_t other_poly) {
    wf_exact_landmarks* t = b->t;
    const float* lp = &t->points[(size_t)l * 3u];
    wf_vec3 pos = wf_v3(lp[0], lp[1], lp[2]);
    wf_query_filter f = wf_query_filter_defaults();
    f.path_mode = WF_PATH_MODE_EXACT;
    for (uint32_t i = 0; i < t->point_count; ++i) {
        b->hi[i] = INFINITY;
    }
    b->hi[l] = 0.0;
    if (other_poly != 0) {
        wf_status s = wf_exact_begin_path(b->query, wf_poly_ref_from_u64(b->owner[l]),
                                          wf_poly_ref_from_u64(other_poly), pos, pos, &f);
        if (s != WF_OK) {
            return s;
        }
        wf_exact_search* es = &b->query->exact;
        es->end_ref = (wf_poly_ref){0};
        uint32_t iterations = 0;
        while (es->status == WF_IN_PROGRESS) {
            (void)wf_exact_update_path(b->query, 0x7fffffffu, &iterations);
        }
        if (es->out_of_nodes) {
            return WF_ERR_CAPACITY;
        }
        for (uint32_t j = 0; j < es->step_count; ++j) {
            const wf_exact_step* step = es->steps_end - ((size_t)j + 1u);
            if (step->poly == 0) {
                continue; // a join record
            }
            const wf_mesh_tile* tile;
            const wf_tile_poly* poly;
            wf_mesh_resolve_unchecked(b->mesh, wf_poly_ref_from_u64(step->poly), &tile, &poly);
            const uint32_t* vp = &b->vert_point[b->tile_first[tile - b->mesh->tiles]];
            double rx = step->root[0], rz = step->root[1];
            double ax = step->right[0] - rx, az = step->right[1] - rz;
            double bx = step->left[0] - rx, bz = step->left[1] - rz;
            double la = sqrt(ax * ax + az * az), lb = sqrt(bx * bx + bz * bz);
            // A root on an interval end sees the whole (convex) polygon.
            bool all = la < 1e-5 || lb < 1e-5;
            for (uint32_t k = 0; k < poly->vert_count; ++k) {
                const float* v = &tile->verts[poly->verts[k] * 3u];
                double vx = v[0] - rx, vz = v[2] - rz, lv = sqrt(vx * vx + vz * vz);
                if (!all &&
                    (ax * vz - az * vx > 1e-6 * la * lv || bx * vz - bz * vx < -1e-6 * lb * lv)) {
                    continue; // outside the cone
                }
                uint32_t i = vp[poly->verts[k]];
                double d = (double)step->u.g + lv;
                if (d < b->hi[i]) {
                    b->hi[i] = d;
                }
            }
        }
    } else {
        // One polygon: every vertex is seen straight from the landmark.
        for (uint32_t i = 0; i < t->point_count; ++i) {
            b->hi[i] = xz_distance(lp, &t->points[(size_t)i * 3u]);
        }
    }
    // Lower bounds from paths that may pass pinches (as short as the
    // search's or shorter), upper bounds from paths that never do.
    memcpy(b->lo, b->hi, (size_t)t->point_count * sizeof *b->lo);
    spread_along_polygons(b, b->lo, false);
    for (uint32_t i = 0; i < t->point_count; ++i) {
        b->reached[i] = isfinite(b->lo[i]); // pinches too (hi drops them below)
    }
    if (b->pinch_count > 0) {
        spread_along_polygons(b, b->hi, true);
    } else {
        memcpy(b->hi, b->lo, (size_t)t->point_count * sizeof *b->hi); // the same ways
    }
    // Measured vertices: the step's float g and ends, rounded both ways;
    // the others d(L, v) >= d(L, u) - |u - v| from measured u of a polygon.
    for (uint32_t i = 0; i < t->point_count; ++i) {
        double euclid = xz_distance(lp, &t->points[(size_t)i * 3u]);
        bool known = isfinite(b->hi[i]) && b->exact[i] && !b->pinch[i];
        b->lo[i] = known ? fmax(euclid, b->lo[i] * (1.0 - 4e-7) - 1e-5) : euclid;
    }
    for (uint32_t ti = 0; ti < b->mesh->max_tiles; ++ti) {
        const wf_mesh_tile* tile = &b->mesh->tiles[ti];
        if (!tile->in_use || tile->header == NULL) {
            continue;
        }
        const uint32_t* vp = &b->vert_point[b->tile_first[ti]];
        for (uint32_t p = 0; p < tile->header->poly_count; ++p) {
            if (!is_live_ground(tile, p)) {
                continue;
            }
            const wf_tile_poly* poly = &tile->polys[p];
            for (uint32_t u = 0; u < poly->vert_count; ++u) {
                uint32_t iu = vp[poly->verts[u]];
                if (!b->exact[iu] || !isfinite(b->hi[iu])) {
                    continue;
                }
                for (uint32_t v = 0; v < poly->vert_count; ++v) {
                    uint32_t iv = vp[poly->verts[v]];
                    double d =
                        xz_distance(&t->points[(size_t)iu * 3u], &t->points[(size_t)iv * 3u]);
                    if (!b->exact[iv] && !b->pinch[iv] && b->lo[iu] - d > b->lo[iv]) {
                        b->lo[iv] = b->lo[iu] - d;
                    }
                }
            }
        }
    }
    // A pinch point's least (over its sides) is a lower bound for each
    // side, but no upper bound for the side it did not come from.
    for (uint32_t i = 0; i < t->point_count; ++i) {
        b->hi[i] = isfinite(b->hi[i]) && !b->pinch[i] ? b->hi[i] * (1.0 + 4e-7) + 1e-5 : INFINITY;
    }
    return WF_OK;
}

static void store_bounds(builder* b, uint32_t k) {
    wf_exact_landmarks* t = b->t;
    for (uint32_t i = 0; i < t->point_count; ++i) {
        float* out = &t->bounds[((size_t)i * t->landmark_count + k) * 2u];
        out[0] = round_down(b->lo[i]);
        out[1] = isfinite(b->hi[i]) ? round_up(b->hi[i]) : INFINITY;
        if (b->exact[i] && isfinite(b->hi[i]) && b->hi[i] < b->nearest[i]) {
            b->nearest[i] = b->hi[i];
        }
    }
}

/// The point farthest (XZ) from the mean of the points not ruled out (a
/// negative nearest marks one ruled out while the first landmark is picked).
static uint32_t farthest_from_mean(const builder* b) {
    const wf_exact_landmarks* t = b->t;
    double mean[2] = {0.0, 0.0};
    uint32_t n = 0;
    for (uint32_t i = 0; i < t->point_count; ++i) {
        if (b->nearest[i] >= 0.0) {
            mean[0] += t->points[i * 3u];
            mean[1] += t->points[i * 3u + 2u];
            ++n;
        }
    }
    float c[3] = {(float)(mean[0] / n), 0.0f, (float)(mean[1] / n)};
    uint32_t best = 0;
    double best_d = -1.0;
    for (uint32_t i = 0; i < t->point_count; ++i) {
        double d = xz_distance(c, &t->points[(size_t)i * 3u]);
        if (b->nearest[i] >= 0.0 && d > best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

/// A later landmark: the measured point farthest from every landmark so
/// far (the landmarks spread to the far ends of the first one's part of the
/// mesh, where their bounds are tight for the most pairs).
static uint32_t pick_landmark(const builder* b) {
    const wf_exact_landmarks* t = b->t;
    uint32_t best = 0;
    double best_d = -1.0;
    for (uint32_t i = 0; i < t->point_count; ++i) {
        if (isfinite(b->nearest[i]) && b->nearest[i] > best_d) {
            best_d = b->nearest[i];
            best = i;
        }
    }
    return best;
}

/// Exact distances from point l to every point it reaches (b->lo, b->hi).
static wf_status measure_landmark(builder* b, uint32_t l) {
    const wf_exact_landmarks* t = b->t;
    // A ground polygon other than the landmark's, as the goal the search
    // never reaches; none: the mesh is one polygon.
    uint64_t other = 0;
    for (uint32_t i = 0; i < t->point_count && other == 0; ++i) {
        other = b->owner[i] != b->owner[l] ? b->owner[i] : 0;
    }
    return measure_from(b, l, other);
}

/// The first landmark, measured: the point farthest from the mean, on the
/// largest connected part of the mesh. Each try measures the part the
/// farthest point not yet ruled out reaches and rules that part out, until
/// no part left can be larger than the largest seen; that one is kept (a
/// first landmark on a small island would bound nothing, and every later
/// one is picked among the points it reaches). A mesh in one piece, or with
/// one part holding half its points, takes one try.
static wf_status measure_first(builder* b, uint32_t* out) {
    const wf_exact_landmarks* t = b->t;
    uint32_t left = t->point_count, best = 0, best_reach = 0;
    bool best_measured = false; // lo and hi hold best's distances
    wf_status s = WF_OK;
    while (s == WF_OK && left > 0 && best_reach < left) {
        uint32_t l = farthest_from_mean(b);
        s = measure_landmark(b, l);
        uint32_t reach = 0;
        for (uint32_t i = 0; s == WF_OK && i < t->point_count; ++i) {
            if (b->nearest[i] >= 0.0 && (b->reached[i] || i == l)) {
                b->nearest[i] = -1.0; // ruled out (l at least, so the loop ends)
                ++reach;
            }
        }
        best_measured = reach > best_reach;
        if (best_measured) {
            best_reach = reach;
            best = l;
        }
        left -= reach;
    }
    for (uint32_t i = 0; i < t->point_count; ++i) {
        b->nearest[i] = INFINITY;
    }
    if (s == WF_OK && !best_measured) {
        s = measure_landmark(b, best); // the largest part's, measured again
    }
    *out = best;
    return s;
}

static wf_status build(builder* b, uint32_t landmark_count) {
    wf_exact_landmarks* t = b->t;
    for (uint32_t i = 0; i < t->point_count; ++i) {
        b->nearest[i] = INFINITY;
    }
    for (uint32_t k = 0; k < landmark_count; ++k) {
        uint32_t l = k == 0 ? 0 : pick_landmark(b);
        wf_status s = k == 0 ? measure_first(b, &l) : measure_landmark(b, l);
        if (s != WF_OK) {
            return s;
        }
        memcpy(t->landmarks[k], &t->points[(size_t)l * 3u], sizeof t->landmarks[k]);
        store_bounds(b, k);
    }
    return WF_OK;
}

wf_status wf_exact_landmarks_build(const wf_exact_landmarks_desc* desc, wf_exact_landmarks** out) {
    WF_CHECK_ARG(desc != NULL && out != NULL && desc->mesh != NULL);
    WF_CHECK_ARG(desc->landmark_count >= 1 && desc->landmark_count <= WF_EXACT_MAX_LANDMARKS);
    const wf_mesh* mesh = desc->mesh;
    wf_allocator allocator;
    WF_CHECK_ARG(wf_allocator_resolve(&desc->allocator, &allocator) == WF_OK);
    uint64_t vert_total = 0;
    for (uint32_t ti = 0; ti < mesh->max_tiles; ++ti) {
        if (mesh->tiles[ti].in_use && mesh->tiles[ti].header != NULL) {
            vert_total += mesh->tiles[ti].header->vert_count;
        }
    }
    if (vert_total == 0) {
        return WF_ERR_NOT_FOUND; // no polygon to measure
    }
    if (vert_total > (1u << 24)) {
        return WF_ERR_CAPACITY;
    }
    uint32_t cap = (uint32_t)vert_total;
    wf_exact_landmarks* t = wf_alloc_zeroed(&allocator, sizeof *t, _Alignof(wf_exact_landmarks));
    if (t == NULL) {
        return WF_ERR_OUT_OF_MEMORY;
    }
    t->allocator = allocator;
    t->landmark_count = desc->landmark_count;
    t->point_capacity = cap;
    uint32_t slots = 1;
    while (slots < 2u * cap) {
        slots <<= 1;
    }
    t->slot_mask = slots - 1u;
    t->mesh = mesh;
    t->mesh_stamp = mesh->change_count;
    t->valid_after_changes = desc->valid_after_changes;
    t->slots = WF_ALLOC_ARRAY(&allocator, uint32_t, slots);
    t->points = WF_ALLOC_ARRAY(&allocator, float, (size_t)cap * 3u);
    t->bounds = WF_ALLOC_ARRAY(&allocator, float, (size_t)cap * 2u * t->landmark_count);
    builder b = {.t = t, .mesh = mesh};
    b.owner = WF_ALLOC_ARRAY(&allocator, uint64_t, cap);
    b.lo = WF_ALLOC_ARRAY(&allocator, double, cap);
    b.hi = WF_ALLOC_ARRAY(&allocator, double, cap);
    b.nearest = WF_ALLOC_ARRAY(&allocator, double, cap);
    b.exact = WF_ALLOC_ARRAY(&allocator, bool, cap);
    b.pinch = WF_ALLOC_ARRAY(&allocator, bool, cap);
    b.reached = WF_ALLOC_ARRAY(&allocator, bool, cap);
    b.tile_first = WF_ALLOC_ARRAY(&allocator, uint32_t, mesh->max_tiles);
    b.vert_point = WF_ALLOC_ARRAY(&allocator, uint32_t, cap);
    wf_status s = WF_OK;
    if (t->slots == NULL || t->points == NULL || t->bounds == NULL || b.owner == NULL ||
        b.lo == NULL || b.hi == NULL || b.nearest == NULL || b.exact == NULL || b.pinch == NULL ||
        b.reached == NULL || b.tile_first == NULL || b.vert_point == NULL) {
        s = WF_ERR_OUT_OF_MEMORY;
    }
    uint32_t first = 0;
    for (uint32_t ti = 0; s == WF_OK && ti < mesh->max_tiles; ++ti) {
        const wf_mesh_tile* tile = &mesh->tiles[ti];
        if (!tile->in_use || tile->header == NULL) {
            continue;
        }
        wf_poly_ref base = wf_mesh_tile_base(mesh, tile);
        b.tile_first[ti] = first;
        first += tile->header->vert_count;
        for (uint32_t p = 0; p < tile->header->poly_count; ++p) {
            if (!is_live_ground(tile, p)) {
                continue;
            }
            const wf_tile_poly* poly = &tile->polys[p];
            for (uint32_t k = 0; k < poly->vert_count; ++k) {
                uint32_t n = t->point_count;
                uint32_t i = point_add(t, &tile->verts[poly->verts[k] * 3u]);
                if (i == n) {
                    b.owner[i] = base.bits + p; // a ref's low bits are its polygon
                    b.exact[i] = true;
                }
                b.vert_point[b.tile_first[ti] + poly->verts[k]] = i;
            }
        }
    }
    for (uint32_t ti = 0; s == WF_OK && ti < mesh->max_tiles; ++ti) {
        const wf_mesh_tile* tile = &mesh->tiles[ti];
        for (uint32_t p = 0; tile->in_use && tile->header != NULL && p < tile->header->poly_count;
             ++p) {
            if (is_live_ground(tile, p) && maybe_dead_end(tile, p)) {
                for (uint32_t k = 0; k < tile->polys[p].vert_count; ++k) {
                    b.exact[b.vert_point[b.tile_first[ti] + tile->polys[p].verts[k]]] = false;
                }
            }
        }
    }
    if (s == WF_OK && t->point_count == 0) {
        s = WF_ERR_NOT_FOUND;
    }
    if (s == WF_OK) {
        s = find_pinches(&b, &allocator);
    }
    // A whole-mesh search keeps a step per expansion: storage for 16 nodes
    // per vertex first, twice and four times that when it runs out.
    for (uint32_t per = 16u; s == WF_OK; per *= 2u) {
        // Roots fit one per max_nodes: as many as points, so every corner.
        wf_query_desc qd = {.mesh = mesh,
                            .max_nodes = t->point_count > 4096u ? t->point_count : 4096u,
                            .exact_nodes_per_node = per,
                            .allocator = desc->allocator};
        s = wf_query_create(&qd, &b.query);
        if (s == WF_OK) {
            s = build(&b, t->landmark_count);
        }
        wf_query_destroy(b.query);
        b.query = NULL;
        if (s != WF_ERR_CAPACITY || per * 2u > WF_EXACT_MAX_NODES_PER_MAX_NODE) {
            break;
        }
        s = WF_OK;
    }
    WF_FREE_ARRAY(&allocator, b.owner, uint64_t, cap);
    WF_FREE_ARRAY(&allocator, b.lo, double, cap);
    WF_FREE_ARRAY(&allocator, b.hi, double, cap);
    WF_FREE_ARRAY(&allocator, b.nearest, double, cap);
    WF_FREE_ARRAY(&allocator, b.exact, bool, cap);
    WF_FREE_ARRAY(&allocator, b.pinch, bool, cap);
    WF_FREE_ARRAY(&allocator, b.reached, bool, cap);
    WF_FREE_ARRAY(&allocator, b.tile_first, uint32_t, mesh->max_tiles);
    WF_FREE_ARRAY(&allocator, b.vert_point, uint32_t, cap);
    if (s != WF_OK) {
        free_table(t);
        return s;
    }
    *out = t;
    return WF_OK;
}

/* ---------------------------------------------------------------------------
 * Searching
 */

void wf_exact_landmark_goal_begin(wf_exact_landmark_goal* goal,
                                  const struct wf_exact_landmarks* table, const wf_mesh* mesh,
                                  wf_poly_ref goal_ref, wf_vec3 goal_pos) {
    goal->table = NULL;
    if (table == NULL || (table->mesh_stamp != mesh->change_count && !table->valid_after_changes)) {
        return; // none set, or the mesh changed since: the straight-line bound alone
    }
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    if (wf_mesh_resolve(mesh, goal_ref, &tile, &poly) != WF_OK) {
        return;
    }
    float gp[3] = {goal_pos.x, goal_pos.y, goal_pos.z};
    const float* known[WF_MAX_VERTS_PER_POLY];
    double near[WF_MAX_VERTS_PER_POLY];
    uint32_t n = 0;
    for (uint32_t k = 0; k < poly->vert_count; ++k) {
        uint32_t i = point_find(table, &tile->verts[poly->verts[k] * 3u]);
        if (i != NO_POINT) {
            known[n] = &table->bounds[(size_t)i * table->landmark_count * 2u];
            near[n++] = xz_distance(&tile->verts[poly->verts[k] * 3u], gp);
        }
    }
    for (uint32_t l = 0; l < table->landmark_count; ++l) {
        double lo = xz_distance(table->landmarks[l], gp), hi = INFINITY;
        for (uint32_t k = 0; k < n; ++k) {
            // The goal sees its polygon's vertices: |d(L, v) - d(L, t)| <= |v - t|.
            double below = (double)known[k][2u * l] - near[k];
            double above = (double)known[k][2u * l + 1u] + near[k];
            lo = below > lo ? below : lo;
            hi = above < hi ? above : hi;
        }
        goal->lo[l] = lo;
        goal->hi[l] = hi;
    }
    goal->table = table;
}

float wf_exact_landmark_bound(const wf_exact_landmark_goal* goal, const double* p) {
    const wf_exact_landmarks* t = goal->table;
    float key[3] = {(float)p[0], (float)p[1], (float)p[2]};
    uint32_t i = point_find(t, key);
    if (i == NO_POINT) {
        return 0.0f;
    }
    const float* bd = &t->bounds[(size_t)i * t->landmark_count * 2u];
    double best = 0.0;
    for (uint32_t l = 0; l < t->landmark_count; ++l) {
        // d(p, t) >= d(L, t) - d(L, p) and >= d(L, p) - d(L, t); in
        // doubles, as float differences could round up.
        double a = goal->lo[l] - bd[2u * l + 1u];
        double c = (double)bd[2u * l] - goal->hi[l];
        best = a > best ? a : best;
        best = c > best ? c : best;
    }
    return round_down(best);
}

wf_status wf_query_set_exact_landmarks(wf_query* query, const wf_exact_landmarks* table) {
    WF_CHECK_ARG(query != NULL);
    WF_CHECK_ARG(table == NULL || table->mesh == query->mesh);
    query->exact_landmarks = table;
    return WF_OK;
}
