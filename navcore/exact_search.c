// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Exact path mode: Polyanya (Cui, Harabor, Grastien 2017) over the navmesh's
// polygons in the XZ plane.
//
// A node is (root, interval, polygon): the path so far ends at the root, a
// point where it turned (or the start), and continues in a straight line
// through the interval (part of a portal) into the polygon. Expanding it
// projects the interval through the polygon onto the polygon's other edges:
// what the root sees through the interval keeps the root (observable
// successors); what lies beside that cone is reached by turning at an
// interval end that is an obstacle corner (non-observable successors, the
// corner is their root). f = g(root) + the shortest way from the root
// through the interval to the goal (the goal mirrored across the interval's
// line when it lies on the root's side), which never overestimates, so the
// first goal node popped is the shortest path. Adjacency comes only from the
// mesh's links (tile portals, layers), never from overlap in XZ.
//
// Geometry is in doubles, nodes too. Left and right are as seen
// from the root looking through the interval (the funnel's convention:
// a point p is left of a -> b when wf_v2_triangle_area2(a, b, p) > 0).
#include <math.h>
#include <string.h>

#include "navcore/alloc.h"
#include "navcore/check.h"
#include "navcore/geometry.h"
#include "navcore/mesh_links.h"
#include "navcore/query_internal.h"

#define EXACT_NODE_RIGHT_END 1u ///< the interval's right end is its portal's end
#define EXACT_NODE_LEFT_END 2u  ///< the interval's left end is its portal's end
#define EXACT_NODE_GOAL 4u      ///< the interval is the goal point
#define EXACT_NODE_START 8u     ///< the start point in the start polygon
#define EXACT_NODE_FREE 16u     ///< a free slot (its node was expanded)
#define EXACT_NODE_F_KNOWN 32u  ///< f was set when two cones were joined
#define EXACT_NODE_OPEN 64u     ///< on the open list
#define EXACT_NODE_DEAD 128u    ///< joined into another node: dropped when popped
// An open half of a cone cut at a vertex (link: the other half).
#define EXACT_NODE_HALF_RIGHT 256u ///< right of the vertex (its left end)
#define EXACT_NODE_HALF_LEFT 512u  ///< left of the vertex (its right end)

#define NO_INDEX 0xffffffffu

/// add_piece runs for nearly every successor: inlined, its arguments are
/// not spilled for a call (8room -0.3 %, generated city -0.4 % instructions).
#if defined(__GNUC__)
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define ALWAYS_INLINE
#endif

/// A root reached this much (metres) worse than its best g is pruned.
#define G_EPSILON 1e-6
/// Points this close (metres, XZ) are one point: a root on an interval end,
/// a point on an edge.
#define SAME_POINT 1e-5
/// Intervals shorter than this are dropped: slivers left where a cone's
/// side passes a vertex (what lies beyond is reached by the next edge).
#define MIN_INTERVAL 1e-6
/// Polygons walked round a vertex before calling it a corner anyway (a
/// wrong "corner" costs time, never correctness).
#define CORNER_WALK_MAX 32

typedef struct xp {
    double x, y, z;
} xp;

static xp xp_from(const double* p) { return (xp){p[0], p[1], p[2]}; }
static xp xp_v3(wf_vec3 v) { return (xp){v.x, v.y, v.z}; }
static void xp_store(xp p, double* out) {
    out[0] = p.x + 0.0; // + 0: no negative zero in root keys
    out[1] = p.y + 0.0;
    out[2] = p.z + 0.0;
}
static xp xp_lerp(xp a, xp b, double t) {
    return (xp){a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t};
}
/// Twice the signed XZ area of abc, the sign rule of wf_v2_triangle_area2.
static double area2(xp a, xp b, xp c) {
    return (b.z - a.z) * (c.x - a.x) - (b.x - a.x) * (c.z - a.z);
}
static double dist2d(xp a, xp b) {
    double dx = b.x - a.x, dz = b.z - a.z;
    return sqrt(dx * dx + dz * dz);
}
/// Position of p along a -> b (XZ), 0 at a, 1 at b.
static double edge_param(xp p, xp a, xp b) {
    double dx = b.x - a.x, dz = b.z - a.z, len_sq = dx * dx + dz * dz;
    return len_sq > 0.0 ? ((p.x - a.x) * dx + (p.z - a.z) * dz) / len_sq : 0.0;
}
static double dist_point_segment(xp p, xp a, xp b, xp* out_closest) {
    double t = edge_param(p, a, b);
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    xp c = xp_lerp(a, b, t);
    if (out_closest != NULL) {
        *out_closest = c;
    }
    return dist2d(p, c);
}

/* ---------------------------------------------------------------------------
 * Storage
 */

static uint32_t pow2_at_least(uint32_t n) {
    uint32_t p = 1;
    while (p < n) {
        p <<= 1;
    }
    return p;
}

wf_status wf_exact_create(wf_exact_search* s, const wf_allocator* allocator, uint32_t max_nodes,
                          uint32_t nodes_per_node) {
    memset(s, 0, sizeof *s);
    uint64_t capacity = (uint64_t)max_nodes * nodes_per_node;
    s->capacity = capacity > (1u << 26) ? (1u << 26) : (uint32_t)capacity;
    // Turning points are a fraction of the nodes (about a quarter on grid
    // maps): one per max_nodes; a full table only stops pruning new ones.
    s->root_capacity = max_nodes > 0 ? max_nodes : 1u;
    s->root_mask = pow2_at_least(s->root_capacity) - 1u;
    s->nodes = WF_ALLOC_ARRAY(allocator, wf_exact_node, s->capacity);
    s->open = WF_ALLOC_ARRAY(allocator, wf_exact_open, s->capacity);
    s->roots = WF_ALLOC_ARRAY(allocator, wf_exact_root, s->root_capacity);
    s->root_buckets = WF_ALLOC_ARRAY(allocator, uint32_t, (size_t)s->root_mask + 1u);
    s->pushed = WF_ALLOC_ARRAY(allocator, uint64_t, (size_t)s->root_mask + 1u);
    s->open_slots = WF_ALLOC_ARRAY(allocator, uint32_t, (size_t)s->root_mask + 1u);
    if (s->nodes == NULL || s->open == NULL || s->roots == NULL || s->root_buckets == NULL ||
        s->pushed == NULL || s->open_slots == NULL) {
        wf_exact_destroy(s, allocator);
        return WF_ERR_OUT_OF_MEMORY;
    }
    s->steps_end = (wf_exact_step*)(void*)(s->nodes + s->capacity);
    memset(s->root_buckets, 0xff, ((size_t)s->root_mask + 1u) * sizeof(uint32_t));
    memset(s->pushed, 0, ((size_t)s->root_mask + 1u) * sizeof(uint64_t));
    memset(s->open_slots, 0xff, ((size_t)s->root_mask + 1u) * sizeof(uint32_t));
    s->goal_node = NO_INDEX;
    return WF_OK;
}

void wf_exact_destroy(wf_exact_search* s, const wf_allocator* allocator) {
    if (s->nodes != NULL) {
        WF_FREE_ARRAY(allocator, s->nodes, wf_exact_node, s->capacity);
    }
    if (s->open != NULL) {
        WF_FREE_ARRAY(allocator, s->open, wf_exact_open, s->capacity);
    }
    if (s->roots != NULL) {
        WF_FREE_ARRAY(allocator, s->roots, wf_exact_root, s->root_capacity);
    }
    if (s->root_buckets != NULL) {
        WF_FREE_ARRAY(allocator, s->root_buckets, uint32_t, (size_t)s->root_mask + 1u);
    }
    if (s->pushed != NULL) {
        WF_FREE_ARRAY(allocator, s->pushed, uint64_t, (size_t)s->root_mask + 1u);
    }
    if (s->open_slots != NULL) {
        WF_FREE_ARRAY(allocator, s->open_slots, uint32_t, (size_t)s->root_mask + 1u);
    }
    memset(s, 0, sizeof *s);
}

size_t wf_exact_memory_bytes(const wf_exact_search* s) {
    if (s->nodes == NULL) {
        return 0; // created without exact storage
    }
    return (size_t)s->capacity * (sizeof(wf_exact_node) + sizeof(wf_exact_open)) +
           (size_t)s->root_capacity * sizeof(wf_exact_root) +
           ((size_t)s->root_mask + 1u) * (2u * sizeof(uint32_t) + sizeof(uint64_t));
}

bool wf_exact_filter_is_valid(const wf_query_filter* filter) {
    for (uint32_t i = 0; i < WF_MAX_AREAS; ++i) {
        if (filter->area_cost[i] != 1.0f) {
            return false;
        }
    }
    return true;
}

/* ---------------------------------------------------------------------------
 * Open list (a radix heap on f; ties to the larger g, which is nearer the
 * goal on the same straight line, then to the lower node index)
 *
 * The heuristic is consistent, so no node is pushed with an f below the
 * last one popped (but for float noise, which goes to bucket 0 and is
 * popped next, as a binary heap would). A push files the entry by the
 * highest bit in which its f differs from the last popped f; a pop takes
 * the best of bucket 0, refilling it from the lowest other bucket when it
 * is empty (each entry moves down a few times in all). Same pops in the
 * same order as a binary heap with this order, at a fraction of the
 * comparisons and moves (8room: the binary heap was 11 % of the search).
 */

static bool open_less(const wf_exact_search* s, const wf_exact_open* a, const wf_exact_open* b) {
    if (a->f != b->f) {
        return a->f < b->f;
    }
    double ga = s->nodes[a->node].g, gb = s->nodes[b->node].g; // a node's g never changes
    return ga > gb || (ga == gb && a->node < b->node);
}

static double heuristic(xp r, xp right, xp left, xp t);

/// f raised to the landmark bound of the node's root (exact_landmarks.h),
/// and never below the last f popped (a root the table does not know has
/// only the straight line, which may be below its parent's bound).
static double landmark_f(wf_exact_search* s, uint32_t root_index, double g, double f) {
    if (root_index != NO_INDEX) {
        wf_exact_root* r = &s->roots[root_index];
        if (r->landmark < 0.0f) {
            r->landmark = wf_exact_landmark_bound(&s->landmarks, r->pos);
        }
        double bound = g + r->landmark;
        f = bound > f ? bound : f;
    }
    double last;
    memcpy(&last, &s->open_last, sizeof last);
    return last > f ? last : f;
}

static uint64_t f_bits(double f) {
    uint64_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/// Files entry e (its f set) in its bucket.
static inline void open_file(wf_exact_search* s, uint32_t e) {
    uint64_t bits = f_bits(s->open[e].f);
    uint32_t b = 0;
    if (bits > s->open_last) {
        b = 64u - (uint32_t)__builtin_clzll(bits ^ s->open_last);
        s->open_filled |= 1ull << (b - 1u);
    }
    s->open[e].next = s->open_bucket[b];
    s->open_bucket[b] = e;
}

static void open_clear(wf_exact_search* s) {
    s->open_count = 0;
    s->open_used = 0;
    s->open_free = NO_INDEX;
    s->open_last = 0;
    s->open_filled = 0;
    for (uint32_t b = 0; b < WF_EXACT_OPEN_BUCKETS; ++b) {
        s->open_bucket[b] = NO_INDEX;
    }
}

/// Always inlined: it runs for every pushed node (8room -0.8 %, city -0.4 %).
static ALWAYS_INLINE inline void open_push(wf_exact_search* s, uint32_t node) {
    wf_exact_node* n = &s->nodes[node];
    if ((n->flags & (EXACT_NODE_GOAL | EXACT_NODE_F_KNOWN)) == 0) {
        n->f = n->g +
               heuristic(xp_from(n->root), xp_from(n->right), xp_from(n->left), xp_v3(s->end_pos));
        if (s->landmarks.table != NULL) {
            n->f = landmark_f(s, n->root_index, n->g, n->f);
        }
    }
    n->flags |= EXACT_NODE_OPEN;
    // Entries are as many as nodes: one is always free or unused.
    uint32_t e = s->open_free;
    if (e != NO_INDEX) {
        s->open_free = s->open[e].next;
    } else {
        e = s->open_used++;
    }
    s->open[e].f = n->f;
    s->open[e].node = node;
    s->open_count++;
    open_file(s, e);
}

/// Pops the best entry's node (NO_INDEX when the list is empty).
static uint32_t open_pop(wf_exact_search* s) {
    if (s->open_count == 0) {
        return NO_INDEX;
    }
    if (s->open_bucket[0] == NO_INDEX) {
        // Refill bucket 0 from the lowest other bucket: its least f is
        // the new last, and its entries move to lower buckets.
        uint32_t b = 1u + (uint32_t)__builtin_ctzll(s->open_filled);
        uint32_t list = s->open_bucket[b];
        s->open_bucket[b] = NO_INDEX;
        s->open_filled &= ~(1ull << (b - 1u));
        double least = s->open[list].f;
        for (uint32_t e = s->open[list].next; e != NO_INDEX; e = s->open[e].next) {
            least = s->open[e].f < least ? s->open[e].f : least;
        }
        s->open_last = f_bits(least);
        for (uint32_t e = list, next; e != NO_INDEX; e = next) {
            next = s->open[e].next;
            open_file(s, e);
        }
    }
    // Bucket 0 rarely holds more than one entry (ties on f).
    uint32_t* best = &s->open_bucket[0];
    for (uint32_t* at = &s->open[*best].next; *at != NO_INDEX; at = &s->open[*at].next) {
        if (open_less(s, &s->open[*at], &s->open[*best])) {
            best = at;
        }
    }
    uint32_t e = *best;
    *best = s->open[e].next;
    s->open[e].next = s->open_free;
    s->open_free = e;
    s->open_count--;
    return s->open[e].node;
}

/* ---------------------------------------------------------------------------
 * Root-level pruning: the best g found for each root point
 */

/// Points are floats widened to doubles (the low mantissa bits are zero):
/// each coordinate is folded and mixed (splitmix64's finaliser).
static uint64_t mix64(uint64_t h) {
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9u;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebu;
    return h ^ (h >> 31);
}

static uint32_t root_hash(const double* p) {
    uint64_t bits[3];
    memcpy(bits, p, sizeof bits);
    // Independent products, one full mix (the low mantissa bits are zero,
    // the multiplies carry the high ones up and down through the mix).
    return (uint32_t)mix64(bits[0] * 0x9e3779b97f4a7c15u + bits[2] * 0xc2b2ae3d27d4eb4fu +
                           bits[1] * 0x165667b19e3779f9u);
}

static uint32_t root_find(const wf_exact_search* s, const double* p) {
    for (uint32_t i = s->root_buckets[root_hash(p) & s->root_mask]; i != NO_INDEX;
         i = s->roots[i].next) {
        const double* q = s->roots[i].pos;
        if (q[0] == p[0] && q[1] == p[1] && q[2] == p[2]) {
            return i;
        }
    }
    return NO_INDEX;
}

/// The entry of point p, added (g infinite, corner unknown) if new;
/// NO_INDEX when the table is full.
static uint32_t root_get(wf_exact_search* s, const double* p) {
    uint32_t i = root_find(s, p);
    if (i == NO_INDEX && s->root_count < s->root_capacity) {
        uint32_t b = root_hash(p) & s->root_mask;
        i = s->root_count++;
        wf_exact_root* r = &s->roots[i];
        memcpy(r->pos, p, sizeof r->pos);
        r->g = INFINITY;
        r->corner = 0;
        r->landmark = -1.0f;
        r->next = s->root_buckets[b];
        r->bucket = b;
        s->root_buckets[b] = i;
    }
    return i;
}

/// False when root entry i is already known at a better g (prune);
/// otherwise records g. No entry (a full table) just stops pruning.
static bool root_admit(wf_exact_search* s, uint32_t i, double g) {
    if (i == NO_INDEX) {
        return true;
    }
    if (s->roots[i].g + G_EPSILON < g) {
        return false;
    }
    if (g < s->roots[i].g) {
        s->roots[i].g = g;
    }
    return true;
}

/// True when a better way to the node's root was found after it was pushed.
static bool root_is_beaten(const wf_exact_search* s, const wf_exact_node* n) {
    uint32_t i = n->root_index;
    return i != NO_INDEX && s->roots[i].g + G_EPSILON < n->g;
}

/// True when a node with the same root, g, polygon and interval was pushed
/// before in this search (then this one is dropped); else remembers it.
/// On meshes where a straight line can come back to a polygon (layers,
/// seams, edges run along from one portal to the next) the same nodes
/// would otherwise be made again and again at one g. A direct-mapped table
/// of 64-bit hashes: a slot taken over by another node only lets a
/// duplicate through (more work, same answer); the salt retires the last
/// search's hashes without clearing the table, so a search drops the same
/// nodes whatever the query searched before.
static ALWAYS_INLINE inline bool pushed_before(wf_exact_search* s, const wf_exact_node* n) {
    // Interval heights follow from the polygon: XZ is enough for them.
    const double* d[8] = {&n->root[0],  &n->root[1], &n->root[2], &n->right[0],
                          &n->right[2], &n->left[0], &n->left[2], &n->g};
    static const uint64_t k[8] = {0x9e3779b97f4a7c15u, 0xc2b2ae3d27d4eb4fu, 0x165667b19e3779f9u,
                                  0xd6e8feb86659fd93u, 0xff51afd7ed558ccdu, 0xc4ceb9fe1a85ec53u,
                                  0x94d049bb133111ebu, 0xbf58476d1ce4e5b9u};
    // Independent products (no chain of multiplies), one full mix after.
    uint64_t h = n->poly;
    for (int i = 0; i < 8; ++i) {
        uint64_t w;
        memcpy(&w, d[i], sizeof w);
        h += w * k[i];
    }
    h = mix64(h);
    // The slot depends on the node alone (which nodes share one is the
    // same whatever was searched before); the salt is in the value only.
    uint64_t value = (h ^ s->search_salt) | 1u; // never 0, an unused slot
    uint64_t* slot = &s->pushed[(uint32_t)(h >> 32) & s->root_mask];
    if (*slot == value) {
        return true;
    }
    *slot = value;
    return false;
}

/* ---------------------------------------------------------------------------
 * Mesh helpers
 */

/// poly_is_walkable where the polygon's index in its tile is known.
static inline bool poly_walkable_at(const wf_query_filter* filter, const wf_mesh_tile* tile,
                                    const wf_tile_poly* poly, uint32_t index) {
    return wf_poly_type(poly) == WF_POLY_TYPE_GROUND && wf_filter_passes(filter, tile, index);
}

static bool poly_is_walkable(const wf_query_filter* filter, const wf_mesh_tile* tile,
                             const wf_tile_poly* poly) {
    return poly_walkable_at(filter, tile, poly, wf_tile_poly_index(tile, poly));
}

/// Tolerance for "p lies on an edge" at p's magnitude (float vertices).
static double point_eps(xp p) { return 1e-4 + 1e-6 * (fabs(p.x) + fabs(p.z)); }

/// True when the link is the only one from its polygon to its neighbour
/// and covers its whole edge: the portal is the edge (what
/// wf_mesh_link_portal answers then, without its search for a span).
static bool link_is_whole_edge(const wf_mesh_tile* tile, uint32_t poly_index,
                               const wf_tile_link* link) {
    if (link->side != 0xff && (link->bmin != 0 || link->bmax != 255)) {
        return false;
    }
    const wf_tile_poly* poly = &tile->polys[poly_index];
    uint16_t nb = link->edge < poly->vert_count ? poly->neighbours[link->edge] : 0u;
    if (link->side == 0xff && nb != 0 && (nb & WF_PORTAL_EDGE) == 0) {
        // Inside the tile: one link per edge, and the polygon's edges
        // towards that neighbour are those with its number (no list walk).
        uint32_t count = 0;
        for (uint32_t k = 0; k < poly->vert_count; ++k) {
            count += poly->neighbours[k] == nb;
        }
        return count == 1;
    }
    uint32_t count = 0;
    for (uint32_t k = tile->first_link[poly_index]; k != WF_NULL_LINK; k = tile->links[k].next) {
        count += tile->links[k].ref == link->ref;
    }
    return count == 1;
}

/// One step of is_corner when p is exactly one of the polygon's vertices
/// and the edge ending there (starting there when `reverse`) has a single
/// link that covers it whole (on
/// meshes of small polygons, nearly every step): the link's neighbour, or
/// null for a wall. False when the general step must decide.
static bool corner_step_at_vertex(const wf_mesh* mesh, const wf_mesh_tile* tile,
                                  const wf_tile_poly* poly, wf_poly_ref here, xp p, double eps,
                                  bool reverse, wf_poly_ref* out_next,
                                  const wf_mesh_tile** out_tile, const wf_tile_poly** out_poly) {
    uint32_t n = poly->vert_count, k = 0;
    while (k < n) {
        wf_vec3 v = wf_tile_vertex(tile, poly->verts[k]);
        if ((double)v.x == p.x && (double)v.z == p.z) {
            break;
        }
        k++;
    }
    if (k == n) {
        return false;
    }
    uint32_t e = reverse ? k : (k > 0 ? k - 1u : n - 1u);
    uint32_t other = reverse ? (k + 1u < n ? k + 1u : 0u) : e;
    xp a = xp_v3(wf_tile_vertex(tile, poly->verts[other]));
    double dx = p.x - a.x, dz = p.z - a.z;
    if (dx * dx + dz * dz <= 16.0 * eps * eps) {
        return false; // the general step's probe could fall off the edge
    }
    // A neighbour inside the tile is the edge's only link, whole unless it
    // also lies across an adjacent edge (as in expand): read it from the
    // polygon, without the link list (the generated city walks round
    // about six triangles at each vertex that is no corner).
    uint16_t nb = poly->neighbours[e];
    if (nb != 0 && (nb & WF_PORTAL_EDGE) == 0) {
        if (nb == poly->neighbours[e > 0 ? e - 1u : n - 1u] ||
            nb == poly->neighbours[e + 1u < n ? e + 1u : 0u] ||
            wf_poly_type(&tile->polys[nb - 1u]) != WF_POLY_TYPE_GROUND) {
            return false;
        }
        out_next->bits =
            (here.bits & ~(uint64_t)((1u << WF_POLY_REF_POLY_BITS) - 1u)) | (uint64_t)(nb - 1u);
        *out_tile = tile;
        *out_poly = &tile->polys[nb - 1u];
        return true;
    }
    uint32_t index = wf_tile_poly_index(tile, poly);
    const wf_tile_link* only = NULL;
    for (uint32_t l = tile->first_link[index]; l != WF_NULL_LINK; l = tile->links[l].next) {
        const wf_tile_link* link = &tile->links[l];
        if (link->edge == e && link->ref != 0) {
            if (only != NULL) {
                return false;
            }
            only = link;
        }
    }
    if (only == NULL) {
        *out_next = (wf_poly_ref){0};
        return true;
    }
    const wf_mesh_tile* to_tile;
    const wf_tile_poly* to_poly;
    wf_mesh_resolve_unchecked(mesh, wf_poly_ref_from_u64(only->ref), &to_tile, &to_poly);
    if (wf_poly_type(to_poly) != WF_POLY_TYPE_GROUND || !link_is_whole_edge(tile, index, only)) {
        return false;
    }
    *out_next = wf_poly_ref_from_u64(only->ref);
    *out_tile = to_tile;
    *out_poly = to_poly;
    return true;
}

/// True when p (on the boundary of polygon start) touches an obstacle: the
/// polygons round p, walked through the links, do not close a loop. Only
/// such points can be turning points of a shortest path. Each step leaves
/// the polygon through the edge that ends at p (starts at p when
/// `reverse`; or runs through it), by the link covering the edge just
/// before (after) p: partial tile portals and layer seams work like whole
/// edges. Either way round gives the same answer; the way that meets the
/// obstacle first takes fewer steps.
static bool is_corner(const wf_mesh* mesh, const wf_query_filter* filter, wf_poly_ref start, xp p,
                      bool reverse) {
    double eps = point_eps(p);
    wf_poly_ref cur = start;
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(mesh, cur, &tile, &poly);
    for (int step = 0; step < CORNER_WALK_MAX; ++step) {
        wf_poly_ref fast;
        const wf_mesh_tile* to_tile;
        const wf_tile_poly* to_poly;
        if (corner_step_at_vertex(mesh, tile, poly, cur, p, eps, reverse, &fast, &to_tile,
                                  &to_poly)) {
            if (wf_poly_ref_is_null(fast)) {
                return true; // a wall
            }
            if (!poly_is_walkable(filter, to_tile, to_poly)) {
                return true;
            }
            if (fast.bits == start.bits) {
                return false;
            }
            cur = fast; // its polygon is known: no resolve
            tile = to_tile;
            poly = to_poly;
            continue;
        }
        uint32_t n = poly->vert_count, exit_edge = NO_INDEX;
        xp a = {0, 0, 0}, b = {0, 0, 0};
        for (uint32_t e = 0; e < n; ++e) {
            a = xp_v3(wf_tile_vertex(tile, poly->verts[e]));
            b = xp_v3(wf_tile_vertex(tile, poly->verts[(e + 1u) % n]));
            if (dist_point_segment(p, a, b, NULL) <= eps && dist2d(p, reverse ? b : a) > eps) {
                exit_edge = e;
                break;
            }
        }
        if (exit_edge == NO_INDEX) {
            return true;
        }
        double len = dist2d(a, b);
        double probe = edge_param(p, a, b) + (reverse ? 2.0 : -2.0) * eps / len;
        uint32_t index = wf_tile_poly_index(tile, poly);
        wf_poly_ref next = {0};
        for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK; k = tile->links[k].next) {
            const wf_tile_link* link = &tile->links[k];
            wf_poly_ref to = wf_poly_ref_from_u64(link->ref);
            if (link->edge != exit_edge || wf_poly_ref_is_null(to)) {
                continue;
            }
            wf_mesh_resolve_unchecked(mesh, to, &to_tile, &to_poly);
            if (wf_poly_type(to_poly) != WF_POLY_TYPE_GROUND) {
                continue;
            }
            const wf_link_portal* lp = &tile->link_portals[k]; // wf_mesh_link_portal's answer
            xp right = {lp->right[0], lp->right[1], lp->right[2]};
            xp left = {lp->left[0], lp->left[1], lp->left[2]};
            double t0 = edge_param(right, a, b), t1 = edge_param(left, a, b);
            if (t0 <= probe && probe <= t1) {
                if (!poly_is_walkable(filter, to_tile, to_poly)) {
                    return true;
                }
                next = to;
                break;
            }
        }
        if (wf_poly_ref_is_null(next)) {
            return true; // a wall
        }
        if (next.bits == start.bits) {
            return false;
        }
        cur = next;
        tile = to_tile;
        poly = to_poly;
    }
    return true;
}

/* ---------------------------------------------------------------------------
 * Nodes
 */

/// True when a polygon's only way on is back where it was entered from
/// (one linked neighbour across an edge): a path never needs to go in
/// unless the goal is there (Polyanya's dead-end pruning). Neighbours the
/// filter refuses still count: reading their flags costs more than it saves.
static bool is_dead_end(const wf_mesh_tile* tile, const wf_tile_poly* poly) {
    // Two edges inside the tile are two ways (their links exist unless the
    // tile ran out of links, and then a missed prune only costs time).
    uint32_t inside = 0;
    for (uint32_t k = 0; k < poly->vert_count; ++k) {
        uint16_t nb = poly->neighbours[k];
        if (nb != 0 && (nb & WF_PORTAL_EDGE) == 0 && ++inside == 2) {
            return false;
        }
    }
    uint32_t index = wf_tile_poly_index(tile, poly), ways = 0;
    for (uint32_t k = tile->first_link[index]; k != WF_NULL_LINK && ways < 2;
         k = tile->links[k].next) {
        ways += tile->links[k].edge < poly->vert_count && tile->links[k].ref != 0;
    }
    return ways < 2;
}

/// Lower bound of the way from root r through interval (right R, left L)
/// to t: the goal mirrored onto the far side of the interval's line, then
/// straight if that line passes the interval, else round its nearer end.
static double heuristic(xp r, xp right, xp left, xp t) {
    // The polygon beyond lies where area2(right, left, x) < 0.
    double side = area2(right, left, t);
    if (side > 0.0) {
        double dx = left.x - right.x, dz = left.z - right.z, len_sq = dx * dx + dz * dz;
        if (len_sq > 0.0) {
            double u = ((t.x - right.x) * dx + (t.z - right.z) * dz) / len_sq;
            xp foot = {right.x + u * dx, t.y, right.z + u * dz};
            t.x = 2.0 * foot.x - t.x;
            t.z = 2.0 * foot.z - t.z;
        }
    }
    double out_right = area2(r, right, t), out_left = area2(r, left, t);
    if (out_right >= 0.0 && out_left <= 0.0) {
        return dist2d(r, t);
    }
    // Beside the cone on one side only: the way bends round that end (the
    // length through the interval is convex along it), the other is longer.
    if (out_left <= 0.0) {
        return dist2d(r, right) + dist2d(right, t);
    }
    if (out_right >= 0.0) {
        return dist2d(r, left) + dist2d(left, t);
    }
    double via_right = dist2d(r, right) + dist2d(right, t);
    double via_left = dist2d(r, left) + dist2d(left, t);
    return via_right < via_left ? via_right : via_left;
}

/// Length of the way to the node's polygon: to the root, then to the
/// nearest point of the interval.
static double node_reach(const wf_exact_node* n) {
    xp r = xp_from(n->root);
    return n->g + dist_point_segment(r, xp_from(n->right), xp_from(n->left), NULL);
}

/* Nodes fill the storage from the front, chain steps from the back; the
 * search is out of nodes when the two meet. */

static size_t pool_bytes(const wf_exact_search* s) {
    return (size_t)s->capacity * sizeof(wf_exact_node);
}
static size_t pool_used(const wf_exact_search* s) {
    return (size_t)s->node_count * sizeof(wf_exact_node) +
           (size_t)s->step_count * sizeof(wf_exact_step);
}

/// A node slot: a freed one first, else one more from the pool; NO_INDEX
/// when the pool is full.
static ALWAYS_INLINE inline uint32_t take_slot(wf_exact_search* s) {
    uint32_t i = s->free_node;
    if (i != NO_INDEX) {
        s->free_node = s->nodes[i].link;
    } else if (pool_used(s) + sizeof(wf_exact_node) <= pool_bytes(s)) {
        i = s->node_count++;
    }
    return i;
}
static wf_exact_step* step_at(const wf_exact_search* s, uint32_t j) {
    return s->steps_end - ((size_t)j + 1u);
}
/// Polygon and parent of a node or step id.
static uint64_t id_poly(const wf_exact_search* s, uint32_t id) {
    return (id & WF_EXACT_STEP_BIT) != 0 ? step_at(s, id & ~WF_EXACT_STEP_BIT)->poly
                                         : s->nodes[id].poly;
}
static uint32_t id_parent(const wf_exact_search* s, uint32_t id) {
    return (id & WF_EXACT_STEP_BIT) != 0 ? step_at(s, id & ~WF_EXACT_STEP_BIT)->parent
                                         : s->nodes[id].parent;
}
static xp step_point(const float* p) { return (xp){p[0], 0.0, p[1]}; }
/// The join record of id, or NULL when id is a node or a step.
static const wf_exact_step* id_join(const wf_exact_search* s, uint32_t id) {
    if (id == NO_INDEX || (id & WF_EXACT_STEP_BIT) == 0) {
        return NULL;
    }
    const wf_exact_step* step = step_at(s, id & ~WF_EXACT_STEP_BIT);
    return step->poly == 0 ? step : NULL;
}
static double step_reach(const wf_exact_step* step) {
    return step->u.g + dist_point_segment(step_point(step->root), step_point(step->right),
                                          step_point(step->left), NULL);
}
static double step_goal_distance(const wf_exact_search* s, const wf_exact_step* step) {
    return dist_point_segment(xp_v3(s->end_pos), step_point(step->right), step_point(step->left),
                              NULL);
}
static double id_reach(const wf_exact_search* s, uint32_t id) {
    return (id & WF_EXACT_STEP_BIT) != 0 ? step_reach(step_at(s, id & ~WF_EXACT_STEP_BIT))
                                         : node_reach(&s->nodes[id]);
}

/// Appends a node (the caller pushes it); false when storage ran out.
/// Always inlined: it runs for every successor, and a call passes nine
/// arguments (8room -2.9 %, generated city -3.6 % instructions).
static ALWAYS_INLINE inline bool add_node(wf_exact_search* s, uint32_t parent, wf_poly_ref poly,
                                          const xp* root, uint32_t root_index, double g,
                                          const xp* right, const xp* left, uint32_t flags) {
    uint32_t i = take_slot(s);
    if (i == NO_INDEX) {
        s->out_of_nodes = true;
        return false;
    }
    wf_exact_node* n = &s->nodes[i];
    n->link = s->new_nodes;
    s->new_nodes = i;
    s->new_count++;
    // A root is a stored point already (a node's root or interval end, or
    // the start as its key): no negative zero to clear.
    n->root[0] = root->x;
    n->root[1] = root->y;
    n->root[2] = root->z;
    xp_store(*right, n->right);
    xp_store(*left, n->left);
    n->g = g;
    n->poly = poly.bits;
    n->parent = parent;
    n->flags = flags;
    n->root_index = root_index;
    // Other nodes get f when pushed: most are expanded in place instead.
    n->f = (flags & EXACT_NODE_GOAL) != 0 ? g + dist2d(*root, xp_v3(s->end_pos)) : INFINITY;
    return true;
}

/// A turn at an interval end: allowed when the end is its portal's end, a
/// corner of an obstacle, not the root itself, and not already reached
/// more cheaply. Evaluated once per expansion and side (lazy).
typedef struct turn {
    int state; ///< 0 unknown, 1 allowed, -1 refused
    xp at;
    double g;
    uint32_t root_index;
} turn;

typedef struct expansion {
    wf_exact_search* s;
    const wf_mesh* mesh;
    uint32_t node;
    wf_poly_ref poly;
    xp root;
    uint32_t root_index;
    double g;
    turn right, left;
} expansion;

/// Starts refused when the end is not its portal's end or is the root.
static bool turn_allowed(expansion* x, turn* t) {
    if (t->state == 0) {
        t->state = -1;
        t->g = x->g + dist2d(x->root, t->at);
        double key[3];
        xp_store(t->at, key);
        // Corners are walked round once per search.
        uint32_t i = root_get(x->s, key);
        uint32_t corner = i != NO_INDEX ? x->s->roots[i].corner : 0u;
        if (corner == 0) {
            // Walk round the turn's side first: the obstacle that makes
            // the turn is there, often just past the polygon's next edge
            // (an interval's right end ends its entry edge, the left end
            // starts it; 8room -2.7 % instructions).
            corner = is_corner(x->mesh, &x->s->filter, x->poly, t->at, t == &x->right) ? 1u : 2u;
            if (i != NO_INDEX) {
                x->s->roots[i].corner = corner;
            }
        }
        if (corner == 1 && root_admit(x->s, i, t->g)) {
            t->state = 1;
            t->root_index = i;
        }
    }
    return t->state == 1;
}

/// [lo, hi] of t in [0, 1] where f0 + t (f1 - f0) >= 0 (empty: lo > hi).
static void nonneg_range(double f0, double f1, double* lo, double* hi) {
    if (f0 >= 0.0 && f1 >= 0.0) {
        *lo = 0.0;
        *hi = 1.0;
    } else if (f0 < 0.0 && f1 < 0.0) {
        *lo = 1.0;
        *hi = 0.0;
    } else {
        double t = f0 / (f0 - f1);
        if (f0 < 0.0) {
            *lo = t;
            *hi = 1.0;
        } else {
            *lo = 0.0;
            *hi = t;
        }
    }
}

/// The part of [0, 1] outside the range [lo, hi] of nonneg_range (one end).
static void outside_range(double lo, double hi, double* out_lo, double* out_hi) {
    if (lo > hi) {
        *out_lo = 0.0;
        *out_hi = 1.0;
    } else if (lo > 0.0) {
        *out_lo = 0.0;
        *out_hi = lo;
    } else if (hi < 1.0) {
        *out_lo = hi;
        *out_hi = 1.0;
    } else {
        *out_lo = 1.0;
        *out_hi = 0.0;
    }
}

/// One side of the polygon the node may leave by: the edge's ends, its
/// length, and the parts of it in and beside the cone (params along the
/// edge, lo > hi when empty). Filled once per edge and expansion.
typedef struct exit_edge {
    const xp *a, *b; ///< into the expansion's vertices (no copies)
    double len;
    double obs_lo, obs_hi; ///< seen from the root through the interval
    /// Inside the cone's right (left) ray: the part beside the cone on that
    /// side, for a turn at that end, is what lies outside (outside_range,
    /// worked out only where a turn is asked about; mostly it is empty).
    double right_lo, right_hi;
    double left_lo, left_hi;
} exit_edge;

/// True when outside_range(lo, hi) is empty.
static bool outside_is_empty(double lo, double hi) { return !(lo > hi || lo > 0.0 || hi < 1.0); }

/// The part of an exit edge its link leads through: ends (exact) and
/// their params along the edge.
typedef struct exit_portal {
    const xp *right, *left;
    double p0, p1;
} exit_portal;

/// One successor: the part [lo, hi] of the portal (params along the edge;
/// the portal's own ends are exact), seen from root. Arguments by address:
/// this runs for nearly every successor.
static ALWAYS_INLINE inline bool add_piece(expansion* x, wf_poly_ref next, const exit_edge* ed,
                                           const exit_portal* pt, double lo, double hi,
                                           const xp* root, uint32_t root_index, double g) {
    // A cut within SAME_POINT of a portal end is that end: a cone's side
    // through a corner must leave the corner a turning point.
    double len = ed->len, snap = len > 0.0 ? SAME_POINT / len : 0.0;
    double p0 = pt->p0, p1 = pt->p1;
    // An end not cut is the portal's own (its param exact: the flag is
    // which way the cut went, not a compare of doubles).
    bool right_end = !(lo > p0 + snap), left_end = !(hi < p1 - snap);
    double t0 = right_end ? p0 : lo, t1 = left_end ? p1 : hi;
    if ((t1 - t0) * len < MIN_INTERVAL) {
        return true;
    }
    xp cut_right, cut_left;
    const xp* right = pt->right;
    const xp* left = pt->left;
    if (!right_end) {
        cut_right = xp_lerp(*ed->a, *ed->b, t0);
        right = &cut_right;
    }
    if (!left_end) {
        cut_left = xp_lerp(*ed->a, *ed->b, t1);
        left = &cut_left;
    }
    uint32_t flags =
        (right_end ? EXACT_NODE_RIGHT_END : 0u) | (left_end ? EXACT_NODE_LEFT_END : 0u);
    return add_node(x->s, x->node, next, root, root_index, g, right, left, flags);
}

/// Fills the edge's ranges from the sides of its ends.
static void edge_ranges(exit_edge* ed, double right0, double right1, double left0, double left1) {
    double rl, rh, ll, lh;
    nonneg_range(right0, right1, &rl, &rh);
    nonneg_range(left0, left1, &ll, &lh);
    ed->obs_lo = rl > ll ? rl : ll;
    ed->obs_hi = rh < lh ? rh : lh;
    ed->right_lo = rl;
    ed->right_hi = rh;
    ed->left_lo = ll;
    ed->left_hi = lh;
    ed->len = dist2d(*ed->a, *ed->b);
}

static double dist2d_sq(xp a, xp b) {
    double dx = b.x - a.x, dz = b.z - a.z;
    return dx * dx + dz * dz;
}

/// The first link from l on that the node may leave by: across an edge
/// (off-mesh links are not taken), not back where it came from. A tight
/// loop of its own: the expansion's loop body keeps few of these values
/// in registers (generated city -0.2 % instructions).
static inline uint32_t next_exit(const wf_tile_link* links, uint32_t l, uint32_t n, uint64_t back,
                                 uint64_t back2) {
    while (l != WF_NULL_LINK && (links[l].edge >= n || links[l].ref == back ||
                                 links[l].ref == back2 || links[l].ref == 0)) {
        l = links[l].next;
    }
    return l;
}

/// Expands `node` (its polygon live), whose successors name `self` (a
/// node or step id) as parent. False when storage ran out.
static bool expand(wf_query* q, const wf_exact_node* node, uint32_t self, const wf_mesh_tile* tile,
                   const wf_tile_poly* poly) {
    wf_exact_search* s = &q->exact;
    wf_poly_ref poly_ref = wf_poly_ref_from_u64(node->poly);
    uint32_t node_flags = node->flags;
    // Field by field: a designated initialiser would zero the turns too,
    // and this runs for every expansion (a turn's g and root_index are
    // set when it is first asked for, and read only once it is allowed).
    expansion x;
    x.s = s;
    x.mesh = q->mesh;
    x.node = self;
    x.poly = poly_ref;
    x.root = xp_from(node->root);
    x.root_index = node->root_index;
    x.g = node->g;
    x.right.at = xp_from(node->right);
    x.left.at = xp_from(node->left);
    bool start = (node_flags & EXACT_NODE_START) != 0;
    uint32_t n = poly->vert_count;
    // Polygon entered from: never straight back. Its edge is not skipped:
    // another portal on it (a tile border split differently on each side)
    // is reached by turning at an interval end and running along the edge.
    uint64_t back = 0u, back2 = 0u;
    if (!start) {
        // A joined cone came in through two polygons, one each side of
        // the vertex where it had split.
        const wf_exact_step* join = id_join(s, node->parent);
        back = id_poly(s, join != NULL ? join->parent : node->parent);
        back2 = join != NULL ? id_poly(s, join->u.other) : 0u;
    }
    // A root on an interval end sees the whole polygon from that side.
    bool snap_right = start || dist2d_sq(x.root, x.right.at) <= SAME_POINT * SAME_POINT;
    bool snap_left = start || dist2d_sq(x.root, x.left.at) <= SAME_POINT * SAME_POINT;
    // Turns only at an interval end that is its portal's end, not the root.
    x.right.state = snap_right || (node_flags & EXACT_NODE_RIGHT_END) == 0 ? -1 : 0;
    x.left.state = snap_left || (node_flags & EXACT_NODE_LEFT_END) == 0 ? -1 : 0;
    xp t = xp_v3(s->end_pos);

    if (poly_ref.bits == s->end_ref.bits) {
        // The goal's polygon is convex: straight on if the root sees the
        // goal through the interval, else round the interval end.
        double fr = snap_right ? 0.0 : area2(x.root, x.right.at, t);
        double fl = snap_left ? 0.0 : area2(x.root, x.left.at, t);
        xp root = x.root;
        uint32_t root_index = x.root_index;
        double g = x.g;
        if (fr < 0.0) {
            root = x.right.at;
        } else if (fl > 0.0) {
            root = x.left.at;
        }
        if (root.x != x.root.x || root.z != x.root.z || root.y != x.root.y) {
            g += dist2d(x.root, root);
            double key[3];
            xp_store(root, key);
            root_index = root_get(s, key);
            if (!root_admit(s, root_index, g)) {
                return true;
            }
        }
        return add_node(s, self, poly_ref, &root, root_index, g, &t, &t, EXACT_NODE_GOAL);
    }

    // Per vertex, its side of the cone's right and left rays (0 when the
    // root sits on that interval end; area2 with the rays' deltas taken
    // once, in one pass with the vertices); per edge, computed when a link
    // needs it: the observable range and the ranges beside the cone.
    xp verts[WF_MAX_VERTS_PER_POLY];
    double side_right[WF_MAX_VERTS_PER_POLY], side_left[WF_MAX_VERTS_PER_POLY];
    double right_dz = x.right.at.z - x.root.z, right_dx = x.right.at.x - x.root.x;
    double left_dz = x.left.at.z - x.root.z, left_dx = x.left.at.x - x.root.x;
    for (uint32_t v = 0; v < n; ++v) {
        xp p = xp_v3(wf_tile_vertex(tile, poly->verts[v]));
        verts[v] = p;
        double dx = p.x - x.root.x, dz = p.z - x.root.z;
        side_right[v] = snap_right ? 0.0 : right_dz * dx - right_dx * dz;
        // The negated area2 written the other way round (one negation
        // less; only a zero's sign can differ, and no range tells them apart).
        side_left[v] = snap_left ? 0.0 : left_dx * dz - left_dz * dx;
    }
    exit_edge edges[WF_MAX_VERTS_PER_POLY];
    uint32_t ranges_done = 0; // bit per edge
    uint32_t poly_index = wf_tile_poly_index(tile, poly);
    const wf_tile_link* links = tile->links;
    for (uint32_t l = next_exit(links, tile->first_link[poly_index], n, back, back2);
         l != WF_NULL_LINK; l = next_exit(links, links[l].next, n, back, back2)) {
        const wf_tile_link* link = &links[l];
        uint32_t e = link->edge;
        exit_edge* ed = &edges[e];
        if ((ranges_done & (1u << e)) == 0) {
            uint32_t w = e + 1u < n ? e + 1u : 0u;
            // Both ends beyond one side of the cone and no turn: nothing
            // to range (an edge longer than the snaps can bridge).
            if (x.right.state < 0 && x.left.state < 0 &&
                ((side_right[e] < 0.0 && side_right[w] < 0.0) ||
                 (side_left[e] < 0.0 && side_left[w] < 0.0)) &&
                dist2d_sq(verts[e], verts[w]) > 4.0 * SAME_POINT * SAME_POINT) {
                continue;
            }
            ranges_done |= 1u << e;
            ed->a = &verts[e];
            ed->b = &verts[w];
            edge_ranges(ed, side_right[e], side_right[w], side_left[e], side_left[w]);
        }
        // Nothing can come out of an edge wholly outside the cone with no
        // turn possible: the neighbour is not even looked at. (add_piece
        // snaps each cut at most SAME_POINT outwards to a portal end.)
        bool obs = (ed->obs_hi - ed->obs_lo) * ed->len + 2.0 * SAME_POINT >= MIN_INTERVAL;
        bool right = x.right.state >= 0 && !outside_is_empty(ed->right_lo, ed->right_hi);
        bool left = x.left.state >= 0 && !outside_is_empty(ed->left_lo, ed->left_hi);
        if (!obs && !right && !left) {
            continue;
        }
        wf_poly_ref next = wf_poly_ref_from_u64(link->ref);
        const wf_mesh_tile* next_tile;
        const wf_tile_poly* next_poly;
        // Into a pocket without the goal (polygons of this tile left only
        // back through this polygon, a dead end the smallest): a way in
        // and out again is no shorter than the straight line between its
        // two crossings, inside this convex polygon. The tile's records
        // know pockets inside it; across its border the neighbour is
        // looked at. Not for a search without a goal (landmarks).
        bool dead;
        uint32_t next_index;
        bool inside_tile = link->side == 0xff;
        if (inside_tile) {
            // A link across an edge with no tile side is one of the tile's
            // own (mesh_links.c, from `neighbours`): no resolve.
#ifndef NDEBUG
            if (wf_poly_ref_tile(next) != wf_poly_ref_tile(poly_ref)) {
                WF_REPORT_MISUSE("inside link leaves its tile");
            }
#endif
            next_tile = tile;
            next_index = wf_poly_ref_poly(next);
            next_poly = &tile->polys[next_index];
        } else {
            wf_mesh_resolve_unchecked(q->mesh, next, &next_tile, &next_poly);
            next_index = wf_tile_poly_index(next_tile, next_poly);
        }
        if (inside_tile && s->end_ref.bits != 0) {
            const wf_link_portal* into = &tile->link_portals[l];
            dead = into->pocket != 0 && (wf_poly_ref_tile(next) != s->goal_tile ||
                                         s->goal_number - into->number >= into->pocket_size);
        } else {
            dead = next.bits != s->end_ref.bits && is_dead_end(next_tile, next_poly);
        }
        if (dead || !poly_walkable_at(&s->filter, next_tile, next_poly, next_index)) {
            continue;
        }
        exit_portal pt;
        xp portal_right, portal_left; // ends of a portal that is part of its edge
        // Inside the tile the link is its edge's only one, and the portal
        // the whole edge unless the neighbour also lies across an adjacent
        // edge (collinear edges towards one polygon are consecutive).
        uint16_t nb = poly->neighbours[e]; // inside the tile: a polygon's number
        bool whole = inside_tile && nb != poly->neighbours[e > 0 ? e - 1u : n - 1u] &&
                     nb != poly->neighbours[e + 1u < n ? e + 1u : 0u];
        if (!whole) {
            // The tile's record of the link's portal (what
            // wf_mesh_link_portal answers, kept since the links were made);
            // one that ends at the edge's ends is the edge, as above.
            const wf_link_portal* lp = &tile->link_portals[l];
            portal_right = (xp){lp->right[0], lp->right[1], lp->right[2]};
            portal_left = (xp){lp->left[0], lp->left[1], lp->left[2]};
            whole = portal_right.x == ed->a->x && portal_right.y == ed->a->y &&
                    portal_right.z == ed->a->z && portal_left.x == ed->b->x &&
                    portal_left.y == ed->b->y && portal_left.z == ed->b->z;
        }
        if (whole) {
            pt.right = ed->a;
            pt.left = ed->b;
            pt.p0 = 0.0;
            pt.p1 = 1.0;
        } else {
            pt.right = &portal_right;
            pt.left = &portal_left;
            pt.p0 = edge_param(portal_right, *ed->a, *ed->b);
            pt.p1 = edge_param(portal_left, *ed->a, *ed->b);
        }
        if (obs &&
            !add_piece(&x, next, ed, &pt, ed->obs_lo, ed->obs_hi, &x.root, x.root_index, x.g)) {
            return false;
        }
        double lo, hi;
        if (right) {
            outside_range(ed->right_lo, ed->right_hi, &lo, &hi);
            if (pt.p0 < hi && pt.p1 > lo && turn_allowed(&x, &x.right) &&
                !add_piece(&x, next, ed, &pt, lo, hi, &x.right.at, x.right.root_index, x.right.g)) {
                return false;
            }
        }
        if (left) {
            outside_range(ed->left_lo, ed->left_hi, &lo, &hi);
            if (pt.p0 < hi && pt.p1 > lo && turn_allowed(&x, &x.left) &&
                !add_piece(&x, next, ed, &pt, lo, hi, &x.left.at, x.left.root_index, x.left.g)) {
                return false;
            }
        }
    }
    return true;
}

/* ---------------------------------------------------------------------------
 * The search
 */

static void clear_result(wf_path_result* out) {
    if (out != NULL) {
        out->count = 0;
        out->flags = 0;
        out->cost = 0.0f;
    }
}

static wf_vec3 clamp_into(const wf_mesh* mesh, wf_poly_ref ref, wf_vec3 pos) {
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_mesh_resolve_unchecked(mesh, ref, &tile, &poly);
    wf_vec3 out;
    bool inside;
    wf_mesh_closest_point_on_poly(tile, poly, pos, &out, &inside);
    return out;
}

static wf_status check_ground_poly(const wf_mesh* mesh, wf_poly_ref ref) {
    const wf_mesh_tile* tile;
    const wf_tile_poly* poly;
    wf_status s = wf_mesh_resolve(mesh, ref, &tile, &poly);
    if (s == WF_OK && wf_poly_type(poly) != WF_POLY_TYPE_GROUND) {
        s = WF_ERR_INVALID_ARG; // exact mode walks the surface only
    }
    return s;
}

wf_status wf_exact_begin_path(wf_query* query, wf_poly_ref start_ref, wf_poly_ref end_ref,
                              wf_vec3 start_pos, wf_vec3 end_pos, const wf_query_filter* filter) {
    WF_CHECK_ARG(query != NULL && filter != NULL);
    WF_CHECK_ARG(filter->path_mode == WF_PATH_MODE_EXACT);
    WF_CHECK_ARG(!wf_poly_ref_is_null(start_ref) && !wf_poly_ref_is_null(end_ref));
    WF_CHECK_ARG(wf_v3_is_finite(start_pos) && wf_v3_is_finite(end_pos));
    WF_CHECK_ARG(wf_exact_filter_is_valid(filter));
    if (query->exact.capacity == 0) {
        return WF_ERR_CAPACITY; // created with WF_QUERY_NO_EXACT
    }
    wf_status st = check_ground_poly(query->mesh, start_ref);
    if (st == WF_OK) {
        st = check_ground_poly(query->mesh, end_ref);
    }
    if (st != WF_OK) {
        return st;
    }
    // This search replaces any sliced search of either mode.
    memset(&query->sliced, 0, sizeof query->sliced);
    query->sliced.best_node = WF_NO_NODE;
    wf_exact_search* s = &query->exact;
    s->active = true;
    s->status = WF_IN_PROGRESS;
    s->start_ref = start_ref;
    s->end_ref = end_ref;
    s->start_pos = clamp_into(query->mesh, start_ref, start_pos);
    s->end_pos = clamp_into(query->mesh, end_ref, end_pos);
    s->filter = *filter;
    wf_exact_landmark_goal_begin(&s->landmarks, query->exact_landmarks, query->mesh, end_ref,
                                 s->end_pos);
    s->goal_tile = wf_poly_ref_tile(end_ref);
    s->goal_number = wf_mesh_pocket_number(query->mesh, end_ref);
    s->node_count = 0;
    s->step_count = 0;
    s->search_salt = mix64(s->search_salt + 0x9e3779b97f4a7c15u);
    s->free_node = NO_INDEX;
    s->new_nodes = NO_INDEX;
    s->new_count = 0;
    open_clear(s);
    s->goal_node = NO_INDEX;
    s->out_of_nodes = false;
    s->walks_tried = 0;
    s->walks_joined = 0;
    s->mesh_stamp = query->mesh->change_count;
    for (uint32_t i = 0; i < s->root_count; ++i) {
        s->root_buckets[s->roots[i].bucket] = NO_INDEX;
    }
    s->root_count = 0;
    xp sp = xp_v3(s->start_pos);
    double key[3];
    xp_store(sp, key);
    sp = xp_from(key);
    uint32_t root_index = root_get(s, key);
    (void)root_admit(s, root_index, 0.0);
    // Capacity is at least WF_EXACT_NODES_PER_MAX_NODE: the start fits.
    if (start_ref.bits == end_ref.bits) {
        xp ep = xp_v3(s->end_pos);
        (void)add_node(s, NO_INDEX, start_ref, &sp, root_index, 0.0, &ep, &ep,
                       EXACT_NODE_GOAL | EXACT_NODE_START);
    } else {
        (void)add_node(s, NO_INDEX, start_ref, &sp, root_index, 0.0, &sp, &sp, EXACT_NODE_START);
    }
    open_push(s, 0);
    return WF_OK;
}

/// Frees node slot i (its node expanded or pruned).
static void free_node(wf_exact_search* s, uint32_t i) {
    s->nodes[i].flags = EXACT_NODE_FREE;
    s->nodes[i].link = s->free_node;
    s->free_node = i;
}

/// Keeps what is left of a node about to be expanded as a step; NO_INDEX
/// when storage ran out.
static uint32_t keep_step(wf_exact_search* s, const wf_exact_node* n) {
    if (pool_used(s) + sizeof(wf_exact_step) > pool_bytes(s)) {
        s->out_of_nodes = true;
        return NO_INDEX;
    }
    uint32_t j = s->step_count++;
    wf_exact_step* step = step_at(s, j);
    step->poly = n->poly;
    step->parent = n->parent;
    step->u.g = (float)n->g;
    step->root[0] = (float)n->root[0];
    step->root[1] = (float)n->root[2];
    step->right[0] = (float)n->right[0];
    step->right[1] = (float)n->right[2];
    step->left[0] = (float)n->left[0];
    step->left[1] = (float)n->left[2];
    return WF_EXACT_STEP_BIT | j;
}

/// Pushes new node i, or drops it when the same node was pushed before.
static void join_open(wf_exact_search* s, uint32_t i);

static ALWAYS_INLINE inline void push_new(wf_exact_search* s, uint32_t i) {
    if (pushed_before(s, &s->nodes[i])) {
        free_node(s, i);
    } else {
        join_open(s, i);
        open_push(s, i);
    }
}

/// Expands node `index` (its slot freed, a step kept); its successors are
/// left on s->new_nodes. False when storage ran out (the node stays when
/// not even its step fitted).
static ALWAYS_INLINE inline bool
expand_in_place(wf_query* q, uint32_t index, const wf_mesh_tile* tile, const wf_tile_poly* poly) {
    wf_exact_search* s = &q->exact;
    s->new_nodes = NO_INDEX;
    s->new_count = 0;
    uint32_t self = keep_step(s, &s->nodes[index]);
    if (self == NO_INDEX) {
        return false;
    }
    bool ok = expand(q, &s->nodes[index], self, tile, poly);
    free_node(s, index);
    return ok;
}

/* Joining split cones. Where a cone's inside meets a polygon vertex v,
 * the expansion cuts it in two (one successor each side of v), and each
 * half would be cut again at every later vertex: on meshes of small
 * triangles one root's cone falls into as many intervals as it passes
 * vertices (about five expansions per polygon and root on the generated
 * city). Polyanya keeps them apart. Here a new node looks up the open
 * node last seen in its polygon with the same root and g; when their
 * intervals meet end to end the two become one node (the ray along which
 * they were cut is inside the joined cone, and a turn at v was already
 * offered by the expansions that reached it). */

/// Joins half a (right of v, v its left end) and half b (left of v, v its
/// right end), both in one polygon, into node `into` (a or b; the caller
/// frees or drops the other): its f the lower of the halves' (each a lower
/// bound for its part), its parent a join of theirs. False when the join
/// record does not fit (nothing changed).
static bool join_halves(wf_exact_search* s, uint32_t a, uint32_t b, uint32_t into) {
    if (pool_used(s) + sizeof(wf_exact_step) > pool_bytes(s)) {
        s->out_of_nodes = true;
        return false;
    }
    const wf_exact_node* na = &s->nodes[a];
    const wf_exact_node* nb = &s->nodes[b];
    xp t = xp_v3(s->end_pos), r = xp_from(na->root);
    double fa = (na->flags & (EXACT_NODE_F_KNOWN | EXACT_NODE_OPEN)) != 0
                    ? na->f
                    : na->g + heuristic(r, xp_from(na->right), xp_from(na->left), t);
    double fb = (nb->flags & (EXACT_NODE_F_KNOWN | EXACT_NODE_OPEN)) != 0
                    ? nb->f
                    : nb->g + heuristic(r, xp_from(nb->right), xp_from(nb->left), t);
    if (s->landmarks.table != NULL) {
        fa = landmark_f(s, na->root_index, na->g, fa);
        fb = landmark_f(s, nb->root_index, nb->g, fb);
    }
    uint32_t j = s->step_count++;
    wf_exact_step* join = step_at(s, j);
    join->poly = 0;
    join->parent = na->parent;
    join->u.other = nb->parent;
    join->root[0] = (float)na->root[0];
    join->root[1] = (float)na->root[2];
    join->right[0] = (float)na->left[0];
    join->right[1] = (float)na->left[2];
    join->left[0] = join->right[0];
    join->left[1] = join->right[1];
    uint32_t flags =
        (na->flags & EXACT_NODE_RIGHT_END) | (nb->flags & EXACT_NODE_LEFT_END) | EXACT_NODE_F_KNOWN;
    double right[3], left[3];
    memcpy(right, na->right, sizeof right);
    memcpy(left, nb->left, sizeof left);
    wf_exact_node* n = &s->nodes[into];
    memcpy(n->right, right, sizeof right);
    memcpy(n->left, left, sizeof left);
    n->flags = flags;
    n->f = fa < fb ? fa : fb;
    n->parent = WF_EXACT_STEP_BIT | j;
    return true;
}

/// True when right half a and left half b of one root meet (a's left end
/// within SAME_POINT of b's right end) and the cone over both is proper
/// and narrower than a half-turn. A half may be zero-width (an interval
/// on an edge that lies on a line through the root: the city's lattice
/// lines); joined into the proper half beside it, it is no node of its own.
static bool halves_meet(const wf_exact_node* a, const wf_exact_node* b) {
    double dx = a->left[0] - b->right[0], dz = a->left[2] - b->right[2];
    if (dx * dx + dz * dz > SAME_POINT * SAME_POINT) {
        return false;
    }
    xp r = xp_from(a->root), ar = xp_from(a->right), bl = xp_from(b->left);
    return area2(r, ar, xp_from(a->left)) >= 0.0 && area2(r, xp_from(b->right), bl) >= 0.0 &&
           area2(r, ar, bl) > 0.0;
}

/// True when both halves are proper cones (a zero-width half cannot end a
/// walk in a join: no polygon holds a ray along an edge strictly).
static bool halves_proper(const wf_exact_node* a, const wf_exact_node* b) {
    xp r = xp_from(a->root);
    return area2(r, xp_from(a->right), xp_from(a->left)) > 0.0 &&
           area2(r, xp_from(b->right), xp_from(b->left)) > 0.0;
}

/// Slot of (polygon, root, g) in the open-node table: one multiply per
/// word (it runs for every new node; a collision only misses a join).
static uint32_t open_slot(const wf_exact_search* s, const wf_exact_node* n) {
    uint64_t x, z, g;
    memcpy(&x, &n->root[0], sizeof x);
    memcpy(&z, &n->root[2], sizeof z);
    memcpy(&g, &n->g, sizeof g);
    uint64_t h = n->poly * 0x9e3779b97f4a7c15u + x * 0xc2b2ae3d27d4eb4fu + z * 0x165667b19e3779f9u +
                 g * 0xd6e8feb86659fd93u;
    return (uint32_t)(h >> 32) & s->root_mask;
}

static bool same_point(const double* a, const double* b) {
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

/// Joins new node i (not yet expanded or pushed) with the open node last
/// seen in its polygon at the same root and g, when their intervals meet:
/// i becomes the joined node, the other is dropped when popped. Cones that
/// were cut apart by a vertex and went separate ways come together here.
/// Always inlined: it runs for every new node (8room -1.3 %, city -1.8 %).
static ALWAYS_INLINE inline void join_open(wf_exact_search* s, uint32_t i) {
    wf_exact_node* n = &s->nodes[i];
    if ((n->flags & EXACT_NODE_GOAL) != 0) {
        return;
    }
    uint32_t* slot = &s->open_slots[open_slot(s, n)];
    uint32_t m = *slot;
    *slot = i;
    if (m == NO_INDEX || m >= s->node_count || m == i) {
        return;
    }
    wf_exact_node* o = &s->nodes[m];
    uint32_t state = o->flags & (EXACT_NODE_OPEN | EXACT_NODE_DEAD | EXACT_NODE_FREE);
    if (state != EXACT_NODE_OPEN || o->poly != n->poly || o->g != n->g ||
        !same_point(o->root, n->root)) {
        return;
    }
    bool joined = false;
    if (halves_meet(o, n)) {
        joined = join_halves(s, m, i, i);
    } else if (halves_meet(n, o)) {
        joined = join_halves(s, i, m, i);
    }
    if (joined) {
        o->flags |= EXACT_NODE_DEAD;
    }
}

/* Walking split halves round their vertex. A cone cut at an open vertex v
 * goes on as two halves with the same root and g, one each side of v, and
 * they come together again in the polygon beyond v that the ray root -> v
 * runs on into. Left to the open list they rarely meet there (the half on
 * the goal's side has the lower f all the way, so it has gone on before
 * the other is popped: exact11 counted 797 K of the city's 1.04 M repeat
 * expansions as such halves), and each goes on cutting its own copy of the
 * polygons beyond. So when one half is popped it is walked round v up to
 * that polygon, then the other half (taken off the open list) likewise,
 * and the two are joined there. Safe: expanding an open node before its
 * turn only puts its successors on the open list earlier (their f is at
 * least its f, at least the last f popped: the heuristic is consistent),
 * and the search still ends only when the goal is the least f open; the
 * joined cone is the union of the halves (join_halves). */

/// Most polygons a half is walked through round its vertex.
#define HALF_WALK_MAX 16
/// Walks one popped node may go through, vertex after vertex.
#define HALF_WALK_ROUNDS 8u
/// The other half is walked only when its f is at most this times the
/// popped half's (exact13, generated city: 1.001 -> 1,226 M instructions,
/// 1.002 -> 1,236 M, 1.005 -> 1,301 M, no limit -> 1,341 M; exact17, with
/// zero-width halves joined but not marked: 1.001 -> 1,201.9 M, 1.0015 ->
/// 1,194.8 M, 1.002 -> 1,200.7 M).
#define HALF_WALK_F_RATIO 1.0015
/// Walks of a search before it judges whether they pay (push_successors).
#define HALF_WALK_TRIAL 16u

/// True when poly holds the ray root -> v just beyond v (v one of its
/// vertices), or when v is not one of them (the walk stops there).
static bool holds_ray_beyond(const wf_mesh_tile* tile, const wf_tile_poly* poly, const double* root,
                             const double* v) {
    uint32_t n = poly->vert_count;
    for (uint32_t k = 0; k < n; ++k) {
        xp p = xp_v3(wf_tile_vertex(tile, poly->verts[k]));
        if (p.x != v[0] || p.z != v[2]) {
            continue;
        }
        xp prev = xp_v3(wf_tile_vertex(tile, poly->verts[k > 0 ? k - 1u : n - 1u]));
        xp next = xp_v3(wf_tile_vertex(tile, poly->verts[k + 1u < n ? k + 1u : 0u]));
        xp beyond = {2.0 * v[0] - root[0], v[1], 2.0 * v[2] - root[2]};
        double orient = area2(prev, p, next);
        return area2(prev, p, beyond) * orient > 0.0 && area2(p, next, beyond) * orient > 0.0;
    }
    return true;
}

/// Pushes one expansion's new nodes (a list through link), marking the
/// halves of a cone it cut at a vertex (the piece ending at the vertex on
/// one edge, the piece starting there on the next, same root and g) as
/// each other's when both went on the open list. Not where the vertex is
/// known as an obstacle corner: there the halves never meet again; nor
/// where a half is zero-width (its walk cannot end in a join, exact16; it
/// joins on the open list instead: city -1.4 %).
static ALWAYS_INLINE inline void push_successors(wf_exact_search* s, uint32_t first) {
    uint32_t right = NO_INDEX, left = NO_INDEX;
    // On meshes whose vertices are nearly all obstacle corners (grid maps,
    // the arena) the halves hardly ever meet: after HALF_WALK_TRIAL walks,
    // halves are marked only while at least a quarter of them were joined.
    bool mark = s->walks_tried < HALF_WALK_TRIAL || s->walks_joined * 4u >= s->walks_tried;
    for (uint32_t a = mark ? first : NO_INDEX; a != NO_INDEX && right == NO_INDEX;
         a = s->nodes[a].link) {
        const wf_exact_node* na = &s->nodes[a];
        if ((na->flags & (EXACT_NODE_LEFT_END | EXACT_NODE_GOAL)) != EXACT_NODE_LEFT_END) {
            continue;
        }
        for (uint32_t b = first; b != NO_INDEX; b = s->nodes[b].link) {
            const wf_exact_node* nb = &s->nodes[b];
            if (nb->right[0] == na->left[0] && nb->right[2] == na->left[2] &&
                (nb->flags & (EXACT_NODE_RIGHT_END | EXACT_NODE_GOAL)) == EXACT_NODE_RIGHT_END &&
                b != a && nb->g == na->g && nb->poly != na->poly &&
                same_point(nb->root, na->root)) {
                uint32_t r = root_find(s, na->left);
                if ((r == NO_INDEX || s->roots[r].corner != 1u) && halves_proper(na, nb)) {
                    right = a;
                    left = b;
                }
                break;
            }
        }
    }
    // Pushed in any order: the open list's order is total.
    for (uint32_t i = first, next; i != NO_INDEX; i = next) {
        next = s->nodes[i].link;
        push_new(s, i);
    }
    // Marked after the pushes (link is free once a node is open); a half
    // dropped or joined on its push is no longer one.
    if (right != NO_INDEX &&
        (s->nodes[right].flags & (EXACT_NODE_OPEN | EXACT_NODE_F_KNOWN)) == EXACT_NODE_OPEN &&
        (s->nodes[left].flags & (EXACT_NODE_OPEN | EXACT_NODE_F_KNOWN)) == EXACT_NODE_OPEN) {
        s->nodes[right].flags |= EXACT_NODE_HALF_RIGHT;
        s->nodes[right].link = left;
        s->nodes[left].flags |= EXACT_NODE_HALF_LEFT;
        s->nodes[left].link = right;
    }
}

/// Walks node *io (not open) round vertex v (its left end when v_left,
/// else its right end) while its polygon does not hold the ray root -> v
/// beyond v: each step expands it, pushes what leaves the vertex and keeps
/// the successor that still ends at v. 1: *io is at the polygon beyond v;
/// 0: the walk ended before it, *io NO_INDEX or a single successor for the
/// caller to expand on as a chain step (the rest pushed); -1: storage ran
/// out (what was made pushed). *split: the last pushed node cut off the
/// walked half at its other end (same root and g, meeting it there), or
/// NO_INDEX: the two are halves of a cone cut at that vertex too.
static int walk_half(wf_query* q, uint32_t* io, const double* v, bool v_left, uint32_t* split) {
    wf_exact_search* s = &q->exact;
    uint32_t end_flag = v_left ? EXACT_NODE_LEFT_END : EXACT_NODE_RIGHT_END;
    *split = NO_INDEX;
    for (uint32_t walked = 0; walked < HALF_WALK_MAX; ++walked) {
        const wf_exact_node* n = &s->nodes[*io];
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        wf_mesh_resolve_unchecked(q->mesh, wf_poly_ref_from_u64(n->poly), &tile, &poly);
        if (holds_ray_beyond(tile, poly, n->root, v)) {
            return 1;
        }
        double g = n->g, root[3];
        memcpy(root, n->root, sizeof root);
        bool ok = expand_in_place(q, *io, tile, poly);
        if (!ok && s->new_count == 0) {
            *io = NO_INDEX;
            return -1; // the node stays, for the partial result
        }
        uint32_t first = s->new_nodes;
        if (ok && s->new_count == 1 && (s->nodes[first].flags & EXACT_NODE_GOAL) == 0) {
            const double* end = v_left ? s->nodes[first].left : s->nodes[first].right;
            join_open(s, first);
            *io = first;
            if ((s->nodes[first].flags & end_flag) == 0 || end[0] != v[0] || end[2] != v[2] ||
                s->nodes[first].g != g || !same_point(s->nodes[first].root, root)) {
                return 0; // a chain step that has left v
            }
            continue;
        }
        // The successor that still ends at v comes off the list.
        uint32_t kept = NO_INDEX;
        for (uint32_t* at = &s->new_nodes; *at != NO_INDEX; at = &s->nodes[*at].link) {
            const wf_exact_node* c = &s->nodes[*at];
            const double* end = v_left ? c->left : c->right;
            if ((c->flags & (end_flag | EXACT_NODE_GOAL)) == end_flag && end[0] == v[0] &&
                end[2] == v[2] && c->g == g && same_point(c->root, root)) {
                kept = *at;
                *at = c->link;
                break;
            }
        }
        if (kept != NO_INDEX) {
            const wf_exact_node* c = &s->nodes[kept];
            const double* other_end = v_left ? c->right : c->left;
            for (uint32_t d = s->new_nodes; d != NO_INDEX; d = s->nodes[d].link) {
                const wf_exact_node* nd = &s->nodes[d];
                const double* end = v_left ? nd->left : nd->right;
                if (end[0] == other_end[0] && end[2] == other_end[2] && nd->g == g &&
                    same_point(nd->root, root)) {
                    *split = d;
                    break;
                }
            }
        }
        push_successors(s, s->new_nodes);
        *io = NO_INDEX;
        if (kept == NO_INDEX) {
            return ok ? 0 : -1;
        }
        if (!ok || pushed_before(s, &s->nodes[kept])) {
            if (ok) {
                free_node(s, kept);
            } else {
                join_open(s, kept);
                open_push(s, kept);
            }
            return ok ? 0 : -1;
        }
        // As a chain step: joined with an open node in its polygon that
        // meets it. Joined across v, it is no half any more: pushed.
        join_open(s, kept);
        const double* end = v_left ? s->nodes[kept].left : s->nodes[kept].right;
        if (end[0] != v[0] || end[2] != v[2]) {
            open_push(s, kept);
            return 0;
        }
        *io = kept;
    }
    join_open(s, *io);
    open_push(s, *io);
    *io = NO_INDEX;
    return 0;
}

/// The open other half of popped half n (slot i when popped), taken off
/// the open list (a copy in a new slot; the open one is dropped when
/// popped), or NO_INDEX. Only looked up (not taken) unless take.
static uint32_t take_other_half(wf_exact_search* s, uint32_t i, const wf_exact_node* n, bool take) {
    uint32_t m = n->link;
    if (m >= s->node_count) {
        return NO_INDEX;
    }
    const wf_exact_node* o = &s->nodes[m];
    bool right = (n->flags & EXACT_NODE_HALF_RIGHT) != 0;
    uint32_t want = EXACT_NODE_OPEN | (right ? EXACT_NODE_HALF_LEFT : EXACT_NODE_HALF_RIGHT);
    const double* v = right ? n->left : n->right;
    const double* ov = right ? o->right : o->left;
    // A slot used again since is another node: it must match in full.
    if ((o->flags & (want | EXACT_NODE_DEAD | EXACT_NODE_FREE)) != want || o->link != i ||
        o->g != n->g || ov[0] != v[0] || ov[2] != v[2] || !same_point(o->root, n->root)) {
        return NO_INDEX;
    }
    if (!take) {
        return m;
    }
    uint32_t c = take_slot(s);
    if (c == NO_INDEX) {
        return NO_INDEX; // not walked: it stays open
    }
    s->nodes[c] = s->nodes[m];
    s->nodes[c].flags &= ~(EXACT_NODE_OPEN | EXACT_NODE_HALF_RIGHT | EXACT_NODE_HALF_LEFT);
    s->nodes[m].flags |= EXACT_NODE_DEAD;
    return c;
}

/// Marks a (right of vertex w, w its left end) and b (left of w, w its
/// right end) as halves of one cone cut at w, when one of them is about to
/// be expanded and the other is open (and no half or join yet): the
/// expanded one is then walked round w as a popped half. A walk cuts its
/// half at the vertices of the polygons round v; left alone, each such
/// cut would go on as two cones (exact13: a third of the city's
/// expansions were such cuts' repeats).
static bool mark_halves(wf_exact_search* s, uint32_t a, uint32_t b) {
    if (a == NO_INDEX || b == NO_INDEX || a >= s->node_count || b >= s->node_count) {
        return false;
    }
    wf_exact_node* na = &s->nodes[a];
    wf_exact_node* nb = &s->nodes[b];
    uint32_t busy = EXACT_NODE_FREE | EXACT_NODE_DEAD | EXACT_NODE_GOAL | EXACT_NODE_HALF_RIGHT |
                    EXACT_NODE_HALF_LEFT;
    uint32_t open_a = na->flags & EXACT_NODE_OPEN, open_b = nb->flags & EXACT_NODE_OPEN;
    wf_exact_node* open = open_a != 0 ? na : nb;
    if ((open_a != 0) == (open_b != 0) || ((na->flags | nb->flags) & busy) != 0 ||
        (open->flags & EXACT_NODE_F_KNOWN) != 0 || (na->flags & EXACT_NODE_LEFT_END) == 0 ||
        (nb->flags & EXACT_NODE_RIGHT_END) == 0 || na->g != nb->g || na->poly == nb->poly ||
        na->left[0] != nb->right[0] || na->left[2] != nb->right[2] ||
        !same_point(na->root, nb->root) || !halves_meet(na, nb)) {
        return false;
    }
    na->flags |= EXACT_NODE_HALF_RIGHT;
    na->link = b;
    nb->flags |= EXACT_NODE_HALF_LEFT;
    nb->link = a;
    return true;
}

/// Expands popped half i: walks it round its vertex, then its other half
/// if that is still open, and joins them beyond the vertex. *next: the
/// node to expand on (the popped half's, joined or not), or NO_INDEX; a
/// half again (marked) when a walk cut it at a vertex of its other end.
static bool expand_half(wf_query* q, uint32_t i, uint32_t* next) {
    wf_exact_search* s = &q->exact;
    uint32_t popped_index = i;
    wf_exact_node* half = &s->nodes[i];
    uint32_t half_flags = half->flags;
    bool right = (half_flags & EXACT_NODE_HALF_RIGHT) != 0;
    *next = i;
    // Without its other half open, the popped half is expanded as any
    // node (its successors may still be joined on the open list).
    uint32_t open_other = take_other_half(s, popped_index, half, false);
    half->flags &= ~(EXACT_NODE_HALF_RIGHT | EXACT_NODE_HALF_LEFT);
    if (open_other == NO_INDEX) {
        return true;
    }
    // Only with a half about as promising as the popped one: one whose f
    // is higher is often never popped, and walking it is wasted work.
    if (s->nodes[open_other].f > half->f * HALF_WALK_F_RATIO) {
        return true;
    }
    // A copy, half mark and all, from here on (the walk frees the slot);
    // made only now: about half the popped halves stop above.
    wf_exact_node popped = *half;
    popped.flags = half_flags;
    const double* v = right ? popped.left : popped.right;
    // The popped half first: where v is an obstacle corner on its side its
    // walk ends at once (an expansion it was due anyway), and the other
    // half is left alone on the open list.
    s->walks_tried++;
    uint32_t split = NO_INDEX, other_split = NO_INDEX;
    int walked = walk_half(q, &i, v, right, &split);
    *next = i;
    if (walked <= 0) {
        return walked == 0;
    }
    uint32_t other = take_other_half(s, popped_index, &popped, true);
    walked = other != NO_INDEX ? walk_half(q, &other, v, !right, &other_split) : 0;
    if (walked == 1 && s->nodes[i].poly == s->nodes[other].poly) {
        uint32_t a = right ? i : other, b = right ? other : i;
        if (halves_meet(&s->nodes[a], &s->nodes[b]) && join_halves(s, a, b, i)) {
            free_node(s, other);
            other = NO_INDEX;
            s->walks_joined++;
            if (pushed_before(s, &s->nodes[i])) {
                free_node(s, i);
                i = NO_INDEX;
            }
        }
    }
    if (other != NO_INDEX) {
        open_push(s, other); // join_open was done in the walk or when first pushed
    }
    // The node to go on with meets a cut piece at its popped side's other
    // end, or (joined) at the other half's: a half again.
    if (i != NO_INDEX && walked >= 0) {
        bool marked = right ? mark_halves(s, split, i) : mark_halves(s, i, split);
        if (!marked && other == NO_INDEX && other_split != NO_INDEX) {
            (void)(right ? mark_halves(s, i, other_split) : mark_halves(s, other_split, i));
        }
    }
    *next = i;
    return walked >= 0;
}

/// Expands popped node `index`; while an expansion yields a single
/// successor that is not the goal, expands that one at once instead of
/// pushing it (Polyanya's intermediate pruning: corridors cost no heap
/// traffic). Every expanded node leaves a step and frees its slot: only
/// the open list's nodes take node storage.
static bool expand_chain(wf_query* q, uint32_t index, const wf_mesh_tile* tile,
                         const wf_tile_poly* poly) {
    wf_exact_search* s = &q->exact;
    for (;;) {
        bool ok = expand_in_place(q, index, tile, poly);
        if (!ok && s->new_count == 0) {
            return false; // the node stays, for the partial result
        }
        uint32_t first = s->new_nodes;
        if (ok && s->new_count == 1 && (s->nodes[first].flags & EXACT_NODE_GOAL) == 0) {
            join_open(s, first);
            index = first;
            wf_mesh_resolve_unchecked(q->mesh, wf_poly_ref_from_u64(s->nodes[index].poly), &tile,
                                      &poly);
            continue;
        }
        push_successors(s, first);
        return ok;
    }
}

wf_status wf_exact_update_path(wf_query* query, uint32_t max_iterations, uint32_t* out_iterations) {
    wf_exact_search* s = &query->exact;
    uint32_t iterations = 0;
    // Every node's polygon was live when it was made: only a tile added or
    // removed since begin_path can leave a stale one (checked then).
    bool mesh_unchanged = query->mesh->change_count == s->mesh_stamp;
    while (s->status == WF_IN_PROGRESS && iterations < max_iterations) {
        if (s->open_count == 0) {
            s->status = WF_PARTIAL; // unreachable
            break;
        }
        uint32_t i = open_pop(s);
        iterations++;
        const wf_mesh_tile* tile;
        const wf_tile_poly* poly;
        wf_poly_ref ref = wf_poly_ref_from_u64(s->nodes[i].poly);
        if (mesh_unchanged) {
            wf_mesh_resolve_unchecked(query->mesh, ref, &tile, &poly);
        } else if (wf_mesh_resolve(query->mesh, ref, &tile, &poly) != WF_OK) {
            s->status = WF_ERR_STALE_REF; // a tile went away between updates
            break;
        }
        if ((s->nodes[i].flags & EXACT_NODE_DEAD) != 0) {
            free_node(s, i); // joined into another node
            continue;
        }
        s->nodes[i].flags &= ~EXACT_NODE_OPEN;
        if ((s->nodes[i].flags & EXACT_NODE_GOAL) != 0) {
            s->goal_node = i;
            s->status = WF_OK;
            break;
        }
        if (root_is_beaten(s, &s->nodes[i])) {
            free_node(s, i);
            continue;
        }
        bool ok = true;
        // A walk can leave its node a half again (cut at its other end):
        // walked on round that vertex too, a few times at most.
        bool walked = false;
        for (uint32_t round = 0;
             ok && i != NO_INDEX && round < HALF_WALK_ROUNDS &&
             (s->nodes[i].flags & (EXACT_NODE_HALF_RIGHT | EXACT_NODE_HALF_LEFT)) != 0;
             ++round) {
            uint32_t next;
            ok = expand_half(query, i, &next);
            // The slot may be used again by another polygon's node.
            i = next;
            walked = true;
        }
        if (walked) {
            if (i != NO_INDEX) {
                s->nodes[i].flags &= ~(EXACT_NODE_HALF_RIGHT | EXACT_NODE_HALF_LEFT);
                wf_mesh_resolve_unchecked(query->mesh, wf_poly_ref_from_u64(s->nodes[i].poly),
                                          &tile, &poly);
            }
        }
        if (ok && i != NO_INDEX && !expand_chain(query, i, tile, poly)) {
            ok = false;
        }
        if (!ok) {
            s->status = WF_PARTIAL; // out of nodes
        }
    }
    if (out_iterations != NULL) {
        *out_iterations = iterations;
    }
    return s->status;
}

/// For partial results: the node or step whose interval came nearest the
/// goal (ties: the shorter way in, then nodes before steps, then the lower
/// index); goal nodes are at distance 0.
static uint32_t best_reached_node(const wf_exact_search* s) {
    xp t = xp_v3(s->end_pos);
    uint32_t best = 0;
    double best_distance = INFINITY, best_reach = INFINITY;
    for (uint32_t i = 0; i < s->node_count; ++i) {
        const wf_exact_node* n = &s->nodes[i];
        if ((n->flags & EXACT_NODE_FREE) != 0) {
            continue;
        }
        double d = (n->flags & EXACT_NODE_GOAL) != 0
                       ? 0.0
                       : dist_point_segment(t, xp_from(n->right), xp_from(n->left), NULL);
        double reach = node_reach(n);
        if (d < best_distance || (d == best_distance && reach < best_reach)) {
            best = i;
            best_distance = d;
            best_reach = reach;
        }
    }
    for (uint32_t j = 0; j < s->step_count; ++j) {
        const wf_exact_step* step = step_at(s, j);
        if (step->poly == 0) {
            continue; // a join
        }
        double d = step_goal_distance(s, step), reach = step_reach(step);
        if (d < best_distance || (d == best_distance && reach < best_reach)) {
            best = WF_EXACT_STEP_BIT | j;
            best_distance = d;
            best_reach = reach;
        }
    }
    return best;
}

/// Where a walk back along a parent chain stands: the root of the
/// latest node or step seen and the point the path goes on to from it
/// (XZ, in floats as steps keep them), to choose a join's side.
typedef struct chain_walk {
    float root[2];
    float toward[2];
} chain_walk;

static void chain_walk_root(chain_walk* w, const float* root) {
    if (root[0] != w->root[0] || root[1] != w->root[1]) {
        w->toward[0] = w->root[0]; // the path turned there
        w->toward[1] = w->root[1];
        w->root[0] = root[0];
        w->root[1] = root[1];
    }
}

/// The parent of node or step id, through any joins: the side of the
/// split vertex the path passes.
static uint32_t chain_parent(const wf_exact_search* s, uint32_t id, chain_walk* w) {
    uint32_t p = id_parent(s, id);
    for (const wf_exact_step* join = id_join(s, p); join != NULL; join = id_join(s, p)) {
        xp r = step_point(join->root), v = step_point(join->right);
        xp t = step_point(w->toward);
        p = area2(r, v, t) < 0.0 ? join->parent : join->u.other;
    }
    if (p != NO_INDEX) {
        if ((p & WF_EXACT_STEP_BIT) != 0) {
            chain_walk_root(w, step_at(s, p & ~WF_EXACT_STEP_BIT)->root);
        } else {
            const float root[2] = {(float)s->nodes[p].root[0], (float)s->nodes[p].root[2]};
            chain_walk_root(w, root);
        }
    }
    return p;
}

/// Where a walk back from target starts: at the target's root, the path
/// going on to the goal (a goal node) or to the point of the target's
/// polygon nearest the goal (where callers take a partial path).
static chain_walk chain_walk_start(const wf_query* query, uint32_t target) {
    const wf_exact_search* s = &query->exact;
    chain_walk w;
    if ((target & WF_EXACT_STEP_BIT) != 0) {
        const wf_exact_step* step = step_at(s, target & ~WF_EXACT_STEP_BIT);
        w.root[0] = step->root[0];
        w.root[1] = step->root[1];
    } else {
        w.root[0] = (float)s->nodes[target].root[0];
        w.root[1] = (float)s->nodes[target].root[2];
    }
    wf_vec3 toward = s->end_pos;
    if ((target & WF_EXACT_STEP_BIT) != 0 || (s->nodes[target].flags & EXACT_NODE_GOAL) == 0) {
        toward = clamp_into(query->mesh, wf_poly_ref_from_u64(id_poly(s, target)), s->end_pos);
    }
    w.toward[0] = toward.x;
    w.toward[1] = toward.z;
    return w;
}

/// The open node first in the open list's order that was not joined into
/// another; NO_INDEX when there is none.
static uint32_t best_open_node(const wf_exact_search* s) {
    const wf_exact_open* best = NULL;
    for (uint32_t b = 0; b < WF_EXACT_OPEN_BUCKETS; ++b) {
        for (uint32_t k = s->open_bucket[b]; k != NO_INDEX; k = s->open[k].next) {
            const wf_exact_open* e = &s->open[k];
            if ((s->nodes[e->node].flags & (EXACT_NODE_DEAD | EXACT_NODE_FREE)) == 0 &&
                (best == NULL || open_less(s, e, best))) {
                best = e;
            }
        }
    }
    return best != NULL ? best->node : NO_INDEX;
}

/// Writes the polygons of target's parent chain, start first, keeping the
/// start part when it does not fit. out->flags holds the search's flags.
static wf_status write_chain(wf_query* query, uint32_t target, double cost, wf_poly_ref* path,
                             uint32_t max_path, wf_path_result* out) {
    const wf_exact_search* s = &query->exact;
    chain_walk start = chain_walk_start(query, target);
    if ((target & WF_EXACT_STEP_BIT) == 0 && (s->nodes[target].flags & EXACT_NODE_GOAL) != 0 &&
        s->nodes[target].parent != NO_INDEX) {
        target = chain_parent(s, target, &start); // same polygon as its parent
    }
    uint32_t length = 0, most = s->node_count + s->step_count;
    chain_walk w = start;
    for (uint32_t i = target; i != NO_INDEX && length <= most; i = chain_parent(s, i, &w)) {
        length++;
    }
    uint32_t keep = length < max_path ? length : max_path;
    uint32_t last = target;
    w = start;
    for (uint32_t k = keep; k < length; ++k) {
        last = chain_parent(s, last, &w);
    }
    uint32_t i = last;
    for (uint32_t n = keep; n > 0; --n) {
        wf_poly_ref ref = wf_poly_ref_from_u64(id_poly(s, i));
        if (wf_mesh_check_poly(query->mesh, ref) != WF_OK) {
            clear_result(out);
            return WF_ERR_STALE_REF; // the mesh changed after the search
        }
        path[n - 1] = ref;
        i = chain_parent(s, i, &w);
    }
    if (keep < length) {
        out->flags |= WF_PATH_BUFFER_FULL;
        cost = id_reach(s, last);
    }
    out->count = keep;
    out->cost = (float)cost;
    return out->flags == 0 ? WF_OK : WF_PARTIAL;
}

wf_status wf_exact_finish_path(wf_query* query, const wf_poly_ref* existing,
                               uint32_t existing_count, wf_poly_ref* path, uint32_t max_path,
                               wf_path_result* out) {
    wf_exact_search* s = &query->exact;
    wf_status status = s->status;
    s->active = false;
    clear_result(out);
    if (status < 0) {
        return status;
    }
    uint32_t target = NO_INDEX;
    double cost = 0.0;
    // Replanning: the furthest polygon of the old corridor the search
    // reached (the cheapest node into it).
    for (uint32_t e = existing_count; e-- > 0 && target == NO_INDEX;) {
        for (uint32_t i = 0; i < s->node_count; ++i) {
            const wf_exact_node* n = &s->nodes[i];
            if (n->poly == existing[e].bits &&
                (n->flags & (EXACT_NODE_GOAL | EXACT_NODE_FREE)) == 0 &&
                (target == NO_INDEX || node_reach(n) < cost)) {
                target = i;
                cost = node_reach(n);
            }
        }
        for (uint32_t j = 0; j < s->step_count; ++j) {
            const wf_exact_step* step = step_at(s, j);
            if (step->poly != 0 && step->poly == existing[e].bits &&
                (target == NO_INDEX || step_reach(step) < cost)) {
                target = WF_EXACT_STEP_BIT | j;
                cost = step_reach(step);
            }
        }
    }
    if (target == NO_INDEX) {
        if (status == WF_OK) {
            target = s->goal_node;
            cost = s->nodes[target].f;
        } else {
            // Cut short (a quick slice): the open list's best node, the
            // likeliest start of the rest; else the nearest to the goal.
            target = status == WF_IN_PROGRESS ? best_open_node(s) : NO_INDEX;
            target = target != NO_INDEX ? target : best_reached_node(s);
            out->flags = WF_PATH_PARTIAL | (s->out_of_nodes ? WF_PATH_OUT_OF_NODES : 0u);
            cost =
                (target & WF_EXACT_STEP_BIT) == 0 && (s->nodes[target].flags & EXACT_NODE_GOAL) != 0
                    ? s->nodes[target].f
                    : id_reach(s, target);
        }
    }
    return write_chain(query, target, cost, path, max_path, out);
}
