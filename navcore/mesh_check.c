// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Navmesh integrity check: rays across every tile seam, links that point
// both ways, convex polygons. A navmesh that passes has no wall at a seam
// that the level does not have.
#include <float.h>
#include <math.h>
#include <string.h>

#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/query_internal.h"
#include "wayfarer/mesh_check.h"

#define DEFAULT_SEAM_OFFSET 0.35f
#define DEFAULT_SEAM_SPACING 0.25f
#define DEFAULT_MAX_CLIMB 0.9f
/// Polygons a probe ray may cross (it is short).
#define SEAM_MAX_VISITED 64u
/// A point lies on the seam line when it is this close to it (m), plus
/// SEAM_RELATIVE of the seam's coordinate (float vertices far from the
/// origin are only as exact as their magnitude).
#define SEAM_TOLERANCE 1e-4f
#define SEAM_RELATIVE 1e-6f
/// Polygons of one tile that can lie under a probe point (layers are
/// separate tiles, so few overlap in one tile).
#define MAX_UNDER 16u
/// A vertex this far (m) inside the line of its neighbours still counts
/// as collinear (more far from the origin, see poly_is_convex).
#define CONVEX_TOLERANCE 1e-4f

typedef struct checker {
    wf_query* q;
    wf_mesh_check_desc desc;
    wf_mesh_check_report* report;
} checker;

static void report_issue(checker* c, wf_mesh_issue_kind kind, wf_vec3 a, wf_vec3 b, wf_poly_ref ref,
                         wf_poly_ref other, float t) {
    c->report->issue_count++;
    if (c->desc.on_issue != NULL) {
        wf_mesh_issue issue = {.kind = kind, .a = a, .b = b, .ref = ref, .other = other, .t = t};
        c->desc.on_issue(&issue, c->desc.user);
    }
}

typedef struct under_point {
    wf_poly_ref ref;
    float height;
} under_point;

/// Ground polygons of the tiles at (tx, tz), any layer, lying under p in
/// XZ, with their surface height there. Returns how many (at most max).
static uint32_t polys_under(const wf_mesh* mesh, int32_t tx, int32_t tz, wf_vec3 p,
                            under_point* out, uint32_t max) {
    const wf_mesh_tile* tiles[WF_MAX_LAYERS_PER_CELL];
    uint32_t tile_count = wf_mesh_tiles_at(mesh, tx, tz, tiles, WF_MAX_LAYERS_PER_CELL);
    if (tile_count > WF_MAX_LAYERS_PER_CELL) {
        tile_count = WF_MAX_LAYERS_PER_CELL;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < tile_count; ++i) {
        const wf_mesh_tile* t = tiles[i];
        wf_vec3 lo = wf_v3(p.x - 1e-3f, t->vert_min[1] - 1.0f, p.z - 1e-3f);
        wf_vec3 hi = wf_v3(p.x + 1e-3f, t->vert_max[1] + 1.0f, p.z + 1e-3f);
        wf_poly_ref found[MAX_UNDER];
        uint32_t m = wf_mesh_tile_polys_in_box(mesh, t, lo, hi, found, MAX_UNDER);
        if (m > MAX_UNDER) {
            m = MAX_UNDER;
        }
        for (uint32_t k = 0; k < m && n < max; ++k) {
            const wf_mesh_tile* pt;
            const wf_tile_poly* poly;
            wf_mesh_resolve_unchecked(mesh, found[k], &pt, &poly);
            float h;
            if (wf_mesh_poly_height(pt, poly, p, &h)) {
                out[n].ref = found[k];
                out[n].height = h;
                n++;
            }
        }
    }
    return n;
}

/// Whether the wall a ray stopped at lies on the seam line (the border
/// x = seam when along_z, else z = seam): a wall the tile has only because
/// it is a tile. Walls elsewhere are outlines of something in the level.
static bool wall_on_seam(const wf_mesh* mesh, const wf_poly_ref* visited, uint32_t count,
                         uint32_t edge, bool along_z, float seam) {
    if (count == 0 || count > SEAM_MAX_VISITED || edge == 0xffffffffu) {
        return true; // no wall to look at: the walk itself failed
    }
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(mesh, visited[count - 1u], &tile, &poly);
    wf_vec3 a = wf_tile_vertex(tile, poly->verts[edge]);
    wf_vec3 b = wf_tile_vertex(tile, poly->verts[(edge + 1u) % poly->vert_count]);
    float tol = SEAM_TOLERANCE + SEAM_RELATIVE * fabsf(seam);
    float ua = along_z ? a.x : a.z, ub = along_z ? b.x : b.z;
    return fabsf(ua - seam) <= tol && fabsf(ub - seam) <= tol;
}

/// Whether the tile across (tx, tz) reaches the seam at p: one of its
/// polygons has an edge on the seam line through p, at a height within the
/// climb (then both tiles are walkable at p: the stop is a wall between
/// them). Else *out_gap is how close (XZ) its nearest polygon at that
/// height comes to p (FLT_MAX when none is within max_gap): the two
/// outlines meet the seam that far apart.
static bool across_reaches(const wf_mesh* mesh, int32_t tx, int32_t tz, wf_vec3 p, bool along_z,
                           float seam, float climb, float max_gap, float* out_gap) {
    const wf_mesh_tile* tiles[WF_MAX_LAYERS_PER_CELL];
    uint32_t tile_count = wf_mesh_tiles_at(mesh, tx, tz, tiles, WF_MAX_LAYERS_PER_CELL);
    tile_count = tile_count < WF_MAX_LAYERS_PER_CELL ? tile_count : WF_MAX_LAYERS_PER_CELL;
    float tol = SEAM_TOLERANCE + SEAM_RELATIVE * fabsf(seam);
    float up = along_z ? p.z : p.x;
    float gap = FLT_MAX;
    for (uint32_t i = 0; i < tile_count; ++i) {
        const wf_mesh_tile* t = tiles[i];
        wf_vec3 lo = wf_v3(p.x - max_gap, p.y - climb, p.z - max_gap);
        wf_vec3 hi = wf_v3(p.x + max_gap, p.y + climb, p.z + max_gap);
        wf_poly_ref found[MAX_UNDER];
        uint32_t m = wf_mesh_tile_polys_in_box(mesh, t, lo, hi, found, MAX_UNDER);
        m = m < MAX_UNDER ? m : MAX_UNDER;
        for (uint32_t k = 0; k < m; ++k) {
            const wf_mesh_tile* pt;
            const wf_tile_poly* poly;
            wf_mesh_resolve_unchecked(mesh, found[k], &pt, &poly);
            for (uint32_t e = 0; e < poly->vert_count; ++e) {
                wf_vec3 a = wf_tile_vertex(pt, poly->verts[e]);
                wf_vec3 b = wf_tile_vertex(pt, poly->verts[(e + 1u) % poly->vert_count]);
                float seg_t;
                float d = sqrtf(wf_dist_point_segment_sq_2d(p, a, b, &seg_t));
                if (fabsf(a.y + (b.y - a.y) * seg_t - p.y) > climb) {
                    continue;
                }
                float ca = along_z ? a.x : a.z, cb = along_z ? b.x : b.z;
                float ua = along_z ? a.z : a.x, ub = along_z ? b.z : b.x;
                if (fabsf(ca - seam) <= tol && fabsf(cb - seam) <= tol &&
                    up >= fminf(ua, ub) - tol && up <= fmaxf(ua, ub) + tol) {
                    return true;
                }
                gap = fminf(gap, d);
            }
        }
    }
    *out_gap = gap;
    return false;
}

/// One probe position: every pair of polygons under a (tile ta) and b
/// (tile tb) at heights within the climb gets a ray from a to b.
static void probe_pair(checker* c, int32_t tax, int32_t taz, int32_t tbx, int32_t tbz, wf_vec3 a,
                       wf_vec3 b, bool along_z, float seam) {
    const wf_mesh* mesh = c->q->mesh;
    under_point ua[MAX_UNDER], ub[MAX_UNDER];
    uint32_t na = polys_under(mesh, tax, taz, a, ua, MAX_UNDER);
    if (na == 0) {
        return;
    }
    uint32_t nb = polys_under(mesh, tbx, tbz, b, ub, MAX_UNDER);
    wf_query_filter filter = wf_query_filter_defaults();
    for (uint32_t i = 0; i < na; ++i) {
        for (uint32_t j = 0; j < nb; ++j) {
            if (fabsf(ua[i].height - ub[j].height) > c->desc.max_climb) {
                continue;
            }
            wf_vec3 from = wf_v3(a.x, ua[i].height, a.z), to = wf_v3(b.x, ub[j].height, b.z);
            wf_raycast_hit hit;
            wf_poly_ref visited[SEAM_MAX_VISITED];
            wf_status s = wf_query_raycast(c->q, ua[i].ref, from, to, &filter, visited,
                                           SEAM_MAX_VISITED, &hit);
            c->report->seam_probes++;
            if (s == WF_OK && hit.t > 1.0f) {
                continue;
            }
            if (s == WF_OK &&
                !wall_on_seam(mesh, visited, hit.visited_count, hit.edge, along_z, seam)) {
                c->report->seam_grazing++;
                continue;
            }
            if (s == WF_OK) {
                wf_vec3 stop = wf_v3_lerp(from, to, hit.t);
                float gap;
                if (!across_reaches(mesh, tbx, tbz, stop, along_z, seam, c->desc.max_climb,
                                    c->desc.seam_offset, &gap) &&
                    gap <= c->desc.seam_offset) {
                    c->report->seam_offset++;
                    continue;
                }
            }
            c->report->seam_blocked++;
            report_issue(c, WF_MESH_ISSUE_SEAM_BLOCKED, from, to, ua[i].ref, ub[j].ref,
                         s == WF_OK ? hit.t : 0.0f);
        }
    }
}

/// Probes the +x seam (side 0) and the +z seam (side 1) of tile cell (tx, tz),
/// in both directions.
static void probe_cell_seams(checker* c, int32_t tx, int32_t tz) {
    const wf_mesh* mesh = c->q->mesh;
    float x0 = mesh->origin.x + (float)tx * mesh->tile_width;
    float z0 = mesh->origin.z + (float)tz * mesh->tile_depth;
    float off = c->desc.seam_offset, step = c->desc.seam_spacing;
    const wf_mesh_tile* other[1];
    if (wf_mesh_tiles_at(mesh, tx + 1, tz, other, 1) > 0) {
        float x = x0 + mesh->tile_width;
        for (float s = 0.5f * step; s < mesh->tile_depth; s += step) {
            wf_vec3 a = wf_v3(x - off, 0.0f, z0 + s), b = wf_v3(x + off, 0.0f, z0 + s);
            probe_pair(c, tx, tz, tx + 1, tz, a, b, true, x);
            probe_pair(c, tx + 1, tz, tx, tz, b, a, true, x);
        }
    }
    if (wf_mesh_tiles_at(mesh, tx, tz + 1, other, 1) > 0) {
        float z = z0 + mesh->tile_depth;
        for (float s = 0.5f * step; s < mesh->tile_width; s += step) {
            wf_vec3 a = wf_v3(x0 + s, 0.0f, z - off), b = wf_v3(x0 + s, 0.0f, z + off);
            probe_pair(c, tx, tz, tx, tz + 1, a, b, false, z);
            probe_pair(c, tx, tz + 1, tx, tz, b, a, false, z);
        }
    }
}

static bool has_link_to(const wf_mesh_tile* tile, uint32_t poly_index, wf_poly_ref target) {
    for (uint32_t k = tile->first_link[poly_index]; k != WF_NULL_LINK; k = tile->links[k].next) {
        if (tile->links[k].ref == target.bits) {
            return true;
        }
    }
    return false;
}

static bool poly_is_convex(const wf_mesh_tile* tile, const wf_tile_poly* poly) {
    wf_vec3 v[WF_MAX_VERTS_PER_POLY];
    uint32_t n = wf_tile_poly_vertices(tile, poly, v);
    if (n < 3) {
        return false;
    }
    for (uint32_t i = 0; i < n; ++i) {
        wf_vec3 a = v[i], b = v[(i + 1) % n], p = v[(i + 2) % n];
        // The turn at b, as p's distance from the line a-b: collinear
        // vertices are fine, and float vertices far from the origin are
        // only as exact as their magnitude allows.
        float ab = wf_v2_distance(a, b);
        float slack = CONVEX_TOLERANCE * (1.0f + 0.01f * (fabsf(b.x) + fabsf(b.z)));
        if (wf_v2_triangle_area2(a, b, p) < -slack * ab) {
            return false;
        }
    }
    return true;
}

/// Links both ways and convex polygons, tile by tile in slot order.
static void check_tile(checker* c, const wf_mesh_tile* tile) {
    const wf_mesh* mesh = c->q->mesh;
    wf_poly_ref base = wf_mesh_tile_base(mesh, tile);
    for (uint32_t i = 0; i < tile->header->poly_count; ++i) {
        const wf_tile_poly* poly = &tile->polys[i];
        wf_poly_ref ref = {base.bits | i};
        wf_vec3 centre = wf_mesh_poly_center(tile, poly);
        if (wf_poly_type(poly) == WF_POLY_TYPE_OFFMESH) {
            // Attached at its start always; at its end whenever a tile is
            // loaded there (the end may lie in a tile not streamed in).
            uint32_t ends = 0;
            for (uint32_t k = tile->first_link[i]; k != WF_NULL_LINK; k = tile->links[k].next) {
                ends |= tile->links[k].bmin == 0 ? 1u : 2u;
            }
            const wf_tile_offmesh* o =
                &tile->offmesh[i - (tile->header->poly_count - tile->header->offmesh_count)];
            wf_vec3 start = wf_v3(o->pos[0], o->pos[1], o->pos[2]);
            wf_vec3 end = wf_v3(o->pos[3], o->pos[4], o->pos[5]);
            int32_t ex, ez;
            wf_mesh_tile_at(mesh, end, &ex, &ez);
            const wf_mesh_tile* at_end[1];
            bool end_loaded = wf_mesh_tiles_at(mesh, ex, ez, at_end, 1) > 0;
            if ((ends & 1u) == 0 || (end_loaded && (ends & 2u) == 0)) {
                c->report->loose_offmesh_links++;
                report_issue(c, WF_MESH_ISSUE_LOOSE_OFFMESH, start, end, ref, (wf_poly_ref){0},
                             0.0f);
            }
            continue;
        }
        c->report->polys_checked++;
        if (!poly_is_convex(tile, poly)) {
            c->report->non_convex_polys++;
            report_issue(c, WF_MESH_ISSUE_NOT_CONVEX, centre, centre, ref, (wf_poly_ref){0}, 0.0f);
        }
        for (uint32_t k = tile->first_link[i]; k != WF_NULL_LINK; k = tile->links[k].next) {
            const wf_tile_link* link = &tile->links[k];
            wf_poly_ref to = wf_poly_ref_from_u64(link->ref);
            const wf_mesh_tile* to_tile;
            const wf_tile_poly* to_poly;
            wf_mesh_resolve_unchecked(mesh, to, &to_tile, &to_poly);
            if (wf_poly_type(to_poly) != WF_POLY_TYPE_GROUND) {
                continue;
            }
            c->report->links_checked++;
            if (!has_link_to(to_tile, wf_tile_poly_index(to_tile, to_poly), ref)) {
                c->report->one_way_links++;
                report_issue(c, WF_MESH_ISSUE_ONE_WAY_LINK, centre,
                             wf_mesh_poly_center(to_tile, to_poly), ref, to, 0.0f);
            }
        }
    }
}

wf_mesh_check_desc wf_mesh_check_desc_defaults(const wf_mesh_check_desc* desc) {
    wf_mesh_check_desc d;
    memset(&d, 0, sizeof d);
    if (desc != NULL) {
        d = *desc;
    }
    d.seam_offset = d.seam_offset != 0.0f ? d.seam_offset : DEFAULT_SEAM_OFFSET;
    d.seam_spacing = d.seam_spacing != 0.0f ? d.seam_spacing : DEFAULT_SEAM_SPACING;
    d.max_climb = d.max_climb != 0.0f ? d.max_climb : DEFAULT_MAX_CLIMB;
    return d;
}

wf_status wf_query_check_mesh(wf_query* query, const wf_mesh_check_desc* desc,
                              wf_mesh_check_report* out) {
    WF_CHECK_ARG(query != NULL && desc != NULL && out != NULL);
    checker c = {.q = query, .desc = wf_mesh_check_desc_defaults(desc), .report = out};
    const float settings[3] = {c.desc.seam_offset, c.desc.seam_spacing, c.desc.max_climb};
    for (int i = 0; i < 3; ++i) {
        WF_CHECK_ARG(isfinite(settings[i]) && settings[i] > 0.0f);
    }
    const wf_mesh* mesh = query->mesh;
    // A probe further from the seam than half a tile would test the tile's inside.
    WF_CHECK_ARG(c.desc.seam_offset < 0.5f * fminf(mesh->tile_width, mesh->tile_depth));
    // Spacing so fine that a seam needs more than 2^24 probes is a mistake.
    WF_CHECK_ARG(fmaxf(mesh->tile_width, mesh->tile_depth) / c.desc.seam_spacing < 16777216.0f);
    memset(out, 0, sizeof *out);
    wf_query_begin_search(query);
    for (uint32_t i = 0; i < mesh->max_tiles; ++i) {
        const wf_mesh_tile* t = &mesh->tiles[i];
        if (!t->in_use) {
            continue;
        }
        check_tile(&c, t);
        // Seams belong to the cell: probe them from its lowest layer only.
        const wf_mesh_tile* first[WF_MAX_LAYERS_PER_CELL];
        uint32_t n = wf_mesh_tiles_at(mesh, t->tile_x, t->tile_z, first, WF_MAX_LAYERS_PER_CELL);
        bool lowest = true;
        for (uint32_t k = 0; k < n && k < WF_MAX_LAYERS_PER_CELL; ++k) {
            lowest = lowest && (first[k] == t || first[k] > t);
        }
        if (lowest) {
            probe_cell_seams(&c, t->tile_x, t->tile_z);
        }
    }
    return WF_OK;
}
