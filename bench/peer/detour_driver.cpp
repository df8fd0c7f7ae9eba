// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The recastnavigation half of the side-by-side comparison: the same
// commands, files and JSON as bench/peer/wayfarer_driver.c, done with
// Recast, Detour, DetourTileCache and DetourCrowd as RecastDemo's "temp
// obstacles" sample sets them up (FastLZ layers, tile 48, cell 0.3 / 0.2,
// agent 0.6 / 2 / 0.9 / 45 degrees, edge 12 / 1.3, 6 verts per polygon).
// Our own code; it is compiled only by bench/peer_compare.sh against a
// local recastnavigation checkout and is never part of the meson build.
//
//   filter OBJ IN OUT [NODES]      keep the pairs complete on Detour
//   paths OBJ PAIRS ROUNDS [NODES] findPath + findStraightPath per pair
//   tiles OBJ PASSES               cache build; each layer built once a
//                                  pass without the navmesh commit
//   obstacles OBJ POINTS RUNS      50 cylinders (r 1, h 2), update until
//                                  up to date, then removed the same way
//   crowd OBJ POINTS AGENTS FRAMES RecastDemo's crowd settings ("high"
//                                  avoidance); memory of the crowd
//   scene OBJ POINTS AGENTS FRAMES OUT
//                                  agents start at points[i] and walk to
//                                  points[AGENTS + i] only; OUT gets "i
//                                  frame" a line: the first frame within
//                                  0.6 m of the target (-1: never)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "DetourAlloc.h"
#include "DetourCommon.h"
#include "DetourCrowd.h"
#include "DetourNavMesh.h"
#include "DetourNavMeshBuilder.h"
#include "DetourNavMeshQuery.h"
#include "DetourTileCache.h"
#include "DetourTileCacheBuilder.h"
#include "Recast.h"
#include "fastlz.h"

namespace {

constexpr float kCell = 0.3f, kCellHeight = 0.2f, kAgentHeight = 2.0f, kAgentRadius = 0.6f,
                kAgentClimb = 0.9f, kMaxSlope = 45.0f, kEdgeError = 1.3f;
constexpr int kTileSize = 48, kMaxLayers = 32, kMaxPath = 256, kMaxCorners = 256, kObstacles = 50,
              kWarmupFrames = 30;
constexpr float kHalf[3] = {2.0f, 4.0f, 2.0f};

/// Wall time, or with WF_PEER_CLOCK=cpu this thread's CPU time (as our side).
double now_s() {
    static int cpu = -1;
    if (cpu < 0) {
        const char* c = std::getenv("WF_PEER_CLOCK");
        cpu = c != nullptr && std::strcmp(c, "cpu") == 0;
    }
    if (cpu) {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v) {
    if (v.empty()) {
        return 0.0;
    }
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Live bytes from Detour's allocator (a size word before each block), for
 * the crowd's memory. */
size_t g_live_bytes = 0;

void* counting_alloc(size_t size, dtAllocHint) {
    auto* p = static_cast<unsigned char*>(std::malloc(size + 16));
    if (p == nullptr) {
        return nullptr;
    }
    std::memcpy(p, &size, sizeof size);
    g_live_bytes += size;
    return p + 16;
}

void counting_free(void* ptr) {
    if (ptr == nullptr) {
        return;
    }
    auto* p = static_cast<unsigned char*>(ptr) - 16;
    size_t size;
    std::memcpy(&size, p, sizeof size);
    g_live_bytes -= size;
    std::free(p);
}

struct Mesh {
    std::vector<float> verts;
    std::vector<int> tris;
    float bmin[3], bmax[3];
};

/// v and f lines; faces fanned into triangles; indices may be negative or carry /vt/vn.
bool load_obj(const char* path, Mesh& m) {
    FILE* f = std::fopen(path, "r");
    if (f == nullptr) {
        std::fprintf(stderr, "%s: cannot read\n", path);
        return false;
    }
    char line[4096];
    while (std::fgets(line, sizeof line, f) != nullptr) {
        if (line[0] == 'v' && line[1] == ' ') {
            float x, y, z;
            if (std::sscanf(line + 2, "%f %f %f", &x, &y, &z) == 3) {
                m.verts.insert(m.verts.end(), {x, y, z});
            }
        } else if (line[0] == 'f' && line[1] == ' ') {
            std::vector<int> face;
            char* s = line + 2;
            for (;;) {
                while (*s == ' ' || *s == '\t') {
                    ++s;
                }
                if (*s == '\0' || *s == '\n' || *s == '\r') {
                    break;
                }
                int idx = std::atoi(s);
                int nv = static_cast<int>(m.verts.size() / 3);
                face.push_back(idx < 0 ? nv + idx : idx - 1);
                while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
                    ++s;
                }
            }
            for (size_t k = 2; k < face.size(); ++k) {
                m.tris.insert(m.tris.end(), {face[0], face[k - 1], face[k]});
            }
        }
    }
    std::fclose(f);
    if (m.verts.empty()) {
        return false;
    }
    rcCalcBounds(m.verts.data(), static_cast<int>(m.verts.size() / 3), m.bmin, m.bmax);
    return true;
}

struct FastLZ : dtTileCacheCompressor {
    int maxCompressedSize(const int bufferSize) override {
        return static_cast<int>(bufferSize * 1.05f) + 16;
    }
    dtStatus compress(const unsigned char* buffer, const int bufferSize, unsigned char* compressed,
                      const int, int* compressedSize) override {
        *compressedSize = fastlz_compress(buffer, bufferSize, compressed);
        return DT_SUCCESS;
    }
    dtStatus decompress(const unsigned char* compressed, const int compressedSize,
                        unsigned char* buffer, const int maxBufferSize, int* bufferSize) override {
        *bufferSize = fastlz_decompress(compressed, compressedSize, buffer, maxBufferSize);
        return *bufferSize < 0 ? DT_FAILURE : DT_SUCCESS;
    }
};

/// A bump allocator reset before each layer build (as the demo's).
struct Bump : dtTileCacheAlloc {
    std::vector<unsigned char> buf = std::vector<unsigned char>(1 << 20);
    size_t top = 0;
    void reset() override { top = 0; }
    void* alloc(const size_t size) override {
        size_t aligned = (size + 15) & ~size_t(15);
        if (top + aligned > buf.size()) {
            return nullptr;
        }
        void* p = buf.data() + top;
        top += aligned;
        return p;
    }
    void free(void*) override {}
};

/// Walkable polygons get flag 1, so the default filter passes them.
struct FlagWalkable : dtTileCacheMeshProcess {
    void process(dtNavMeshCreateParams* params, unsigned char* areas,
                 unsigned short* flags) override {
        for (int i = 0; i < params->polyCount; ++i) {
            if (areas[i] == DT_TILECACHE_WALKABLE_AREA) {
                areas[i] = 0;
            }
            flags[i] = 1;
        }
    }
};

struct Level {
    Mesh mesh;
    rcConfig cfg{};
    int tw = 0, th = 0;
    FastLZ comp;
    Bump talloc;
    FlagWalkable proc;
    dtTileCache* tc = nullptr;
    dtNavMesh* nav = nullptr;
    dtNavMeshQuery* q = nullptr;
    double layers_ms = 0.0, navmesh_ms = 0.0, bin_ms = 0.0;
    size_t compressed_bytes = 0;
    int layer_count = 0;

    ~Level() {
        dtFreeNavMeshQuery(q);
        dtFreeNavMesh(nav);
        dtFreeTileCache(tc);
    }
};

void make_config(Level& lv) {
    rcConfig& c = lv.cfg;
    c.cs = kCell;
    c.ch = kCellHeight;
    c.walkableSlopeAngle = kMaxSlope;
    c.walkableHeight = static_cast<int>(std::ceil(kAgentHeight / c.ch));
    c.walkableClimb = static_cast<int>(std::floor(kAgentClimb / c.ch));
    c.walkableRadius = static_cast<int>(std::ceil(kAgentRadius / c.cs));
    c.maxEdgeLen = static_cast<int>(12.0f / kCell);
    c.maxSimplificationError = kEdgeError;
    c.minRegionArea = 8 * 8;
    c.mergeRegionArea = 20 * 20;
    c.maxVertsPerPoly = 6;
    c.tileSize = kTileSize;
    c.borderSize = c.walkableRadius + 3;
    c.width = c.tileSize + 2 * c.borderSize;
    c.height = c.tileSize + 2 * c.borderSize;
    rcVcopy(c.bmin, lv.mesh.bmin);
    rcVcopy(c.bmax, lv.mesh.bmax);
    int gw = 0, gh = 0;
    rcCalcGridSize(c.bmin, c.bmax, c.cs, &gw, &gh);
    lv.tw = (gw + kTileSize - 1) / kTileSize;
    lv.th = (gh + kTileSize - 1) / kTileSize;
}

/// Triangles overlapping each tile's bordered square (RecastDemo keeps a
/// chunky tree built at load time for this).
std::vector<std::vector<int>> bin_triangles(const Level& lv) {
    std::vector<std::vector<int>> bins(static_cast<size_t>(lv.tw * lv.th));
    const float tcs = kTileSize * kCell, border = lv.cfg.borderSize * kCell;
    const float* v = lv.mesh.verts.data();
    for (size_t t = 0; t < lv.mesh.tris.size() / 3; ++t) {
        float lo[2] = {1e30f, 1e30f}, hi[2] = {-1e30f, -1e30f};
        for (int k = 0; k < 3; ++k) {
            const float* p = &v[3 * lv.mesh.tris[3 * t + k]];
            lo[0] = std::min(lo[0], p[0]);
            hi[0] = std::max(hi[0], p[0]);
            lo[1] = std::min(lo[1], p[2]);
            hi[1] = std::max(hi[1], p[2]);
        }
        int x0 = static_cast<int>(std::floor((lo[0] - border - lv.cfg.bmin[0]) / tcs));
        int x1 = static_cast<int>(std::floor((hi[0] + border - lv.cfg.bmin[0]) / tcs));
        int z0 = static_cast<int>(std::floor((lo[1] - border - lv.cfg.bmin[2]) / tcs));
        int z1 = static_cast<int>(std::floor((hi[1] + border - lv.cfg.bmin[2]) / tcs));
        for (int z = std::max(z0, 0); z <= std::min(z1, lv.th - 1); ++z) {
            for (int x = std::max(x0, 0); x <= std::min(x1, lv.tw - 1); ++x) {
                bins[static_cast<size_t>(z * lv.tw + x)].push_back(static_cast<int>(t));
            }
        }
    }
    return bins;
}

/// One tile's layers, as RecastDemo's rasterizeTileLayers builds them.
/// Not inlined: bench/peer_compare.sh --callgrind counts inside it.
__attribute__((noinline)) bool rasterize_tile(Level& lv, int tx, int ty,
                                              const std::vector<int>& tri_ids,
                                              std::vector<std::pair<unsigned char*, int>>& out) {
    rcContext ctx(false);
    rcConfig c = lv.cfg;
    const float tcs = kTileSize * kCell;
    c.bmin[0] = lv.cfg.bmin[0] + tx * tcs - c.borderSize * c.cs;
    c.bmin[2] = lv.cfg.bmin[2] + ty * tcs - c.borderSize * c.cs;
    c.bmax[0] = lv.cfg.bmin[0] + (tx + 1) * tcs + c.borderSize * c.cs;
    c.bmax[2] = lv.cfg.bmin[2] + (ty + 1) * tcs + c.borderSize * c.cs;
    rcHeightfield* hf = rcAllocHeightfield();
    rcCompactHeightfield* chf = nullptr;
    rcHeightfieldLayerSet* lset = nullptr;
    bool ok = hf != nullptr &&
              rcCreateHeightfield(&ctx, *hf, c.width, c.height, c.bmin, c.bmax, c.cs, c.ch);
    const int nv = static_cast<int>(lv.mesh.verts.size() / 3);
    std::vector<int> tris;
    tris.reserve(tri_ids.size() * 3);
    for (int t : tri_ids) {
        tris.insert(tris.end(), &lv.mesh.tris[3 * t], &lv.mesh.tris[3 * t] + 3);
    }
    const int nt = static_cast<int>(tri_ids.size());
    std::vector<unsigned char> areas(static_cast<size_t>(nt) + 1, 0);
    if (ok && nt > 0) {
        rcMarkWalkableTriangles(&ctx, c.walkableSlopeAngle, lv.mesh.verts.data(), nv, tris.data(),
                                nt, areas.data());
        ok = rcRasterizeTriangles(&ctx, lv.mesh.verts.data(), nv, tris.data(), areas.data(), nt,
                                  *hf, c.walkableClimb);
    }
    if (ok) {
        rcFilterLowHangingWalkableObstacles(&ctx, c.walkableClimb, *hf);
        rcFilterLedgeSpans(&ctx, c.walkableHeight, c.walkableClimb, *hf);
        rcFilterWalkableLowHeightSpans(&ctx, c.walkableHeight, *hf);
        chf = rcAllocCompactHeightfield();
        ok = chf != nullptr &&
             rcBuildCompactHeightfield(&ctx, c.walkableHeight, c.walkableClimb, *hf, *chf) &&
             rcErodeWalkableArea(&ctx, c.walkableRadius, *chf);
    }
    if (ok) {
        lset = rcAllocHeightfieldLayerSet();
        ok = lset != nullptr &&
             rcBuildHeightfieldLayers(&ctx, *chf, c.borderSize, c.walkableHeight, *lset);
    }
    for (int i = 0; ok && i < std::min(lset->nlayers, kMaxLayers); ++i) {
        const rcHeightfieldLayer* layer = &lset->layers[i];
        dtTileCacheLayerHeader h{};
        h.magic = DT_TILECACHE_MAGIC;
        h.version = DT_TILECACHE_VERSION;
        h.tx = tx;
        h.ty = ty;
        h.tlayer = i;
        dtVcopy(h.bmin, layer->bmin);
        dtVcopy(h.bmax, layer->bmax);
        h.width = static_cast<unsigned char>(layer->width);
        h.height = static_cast<unsigned char>(layer->height);
        h.minx = static_cast<unsigned char>(layer->minx);
        h.maxx = static_cast<unsigned char>(layer->maxx);
        h.miny = static_cast<unsigned char>(layer->miny);
        h.maxy = static_cast<unsigned char>(layer->maxy);
        h.hmin = static_cast<unsigned short>(layer->hmin);
        h.hmax = static_cast<unsigned short>(layer->hmax);
        unsigned char* data = nullptr;
        int size = 0;
        ok = dtStatusSucceed(dtBuildTileCacheLayer(&lv.comp, &h, layer->heights, layer->areas,
                                                   layer->cons, &data, &size));
        if (ok) {
            out.emplace_back(data, size);
        }
    }
    rcFreeHeightfieldLayerSet(lset);
    rcFreeCompactHeightfield(chf);
    rcFreeHeightField(hf);
    return ok;
}

/// The cache (layers), then the navmesh from it; nodes for the query.
bool level_make(const char* obj, int nodes, Level& lv, bool with_navmesh = true) {
    if (!load_obj(obj, lv.mesh)) {
        return false;
    }
    make_config(lv);
    dtTileCacheParams tp{};
    rcVcopy(tp.orig, lv.mesh.bmin);
    tp.cs = kCell;
    tp.ch = kCellHeight;
    tp.width = kTileSize;
    tp.height = kTileSize;
    tp.walkableHeight = kAgentHeight;
    tp.walkableRadius = kAgentRadius;
    tp.walkableClimb = kAgentClimb;
    tp.maxSimplificationError = kEdgeError;
    tp.maxTiles = lv.tw * lv.th * 4;
    tp.maxObstacles = 128;
    lv.tc = dtAllocTileCache();
    if (lv.tc == nullptr || dtStatusFailed(lv.tc->init(&tp, &lv.talloc, &lv.comp, &lv.proc))) {
        return false;
    }
    double t0 = now_s();
    std::vector<std::vector<int>> bins = bin_triangles(lv);
    double t1 = now_s();
    for (int y = 0; y < lv.th; ++y) {
        for (int x = 0; x < lv.tw; ++x) {
            std::vector<std::pair<unsigned char*, int>> layers;
            if (!rasterize_tile(lv, x, y, bins[static_cast<size_t>(y * lv.tw + x)], layers)) {
                return false;
            }
            for (auto& l : layers) {
                if (dtStatusFailed(
                        lv.tc->addTile(l.first, l.second, DT_COMPRESSEDTILE_FREE_DATA, nullptr))) {
                    dtFree(l.first);
                    continue;
                }
                lv.compressed_bytes += static_cast<size_t>(l.second);
                ++lv.layer_count;
            }
        }
    }
    double t2 = now_s();
    lv.bin_ms = (t1 - t0) * 1e3;
    lv.layers_ms = (t2 - t1) * 1e3;
    if (!with_navmesh) {
        return true;
    }
    int tile_bits = std::min(static_cast<int>(dtIlog2(dtNextPow2(lv.tw * lv.th * 4))), 14);
    dtNavMeshParams np{};
    rcVcopy(np.orig, lv.mesh.bmin);
    np.tileWidth = kTileSize * kCell;
    np.tileHeight = kTileSize * kCell;
    np.maxTiles = 1 << tile_bits;
    np.maxPolys = 1 << (22 - tile_bits);
    lv.nav = dtAllocNavMesh();
    if (lv.nav == nullptr || dtStatusFailed(lv.nav->init(&np))) {
        return false;
    }
    t0 = now_s();
    for (int y = 0; y < lv.th; ++y) {
        for (int x = 0; x < lv.tw; ++x) {
            if (dtStatusFailed(lv.tc->buildNavMeshTilesAt(x, y, lv.nav))) {
                return false;
            }
        }
    }
    lv.navmesh_ms = (now_s() - t0) * 1e3;
    lv.q = dtAllocNavMeshQuery();
    return lv.q != nullptr && dtStatusSucceed(lv.q->init(lv.nav, nodes > 0 ? nodes : 2048));
}

std::vector<float> read_floats(const char* path, int per_line) {
    std::vector<float> v;
    FILE* f = std::fopen(path, "r");
    float x;
    while (f != nullptr && std::fscanf(f, "%f", &x) == 1) {
        v.push_back(x);
    }
    if (f != nullptr) {
        std::fclose(f);
    }
    v.resize(v.size() / static_cast<size_t>(per_line) * static_cast<size_t>(per_line));
    return v;
}

struct Snapped {
    dtPolyRef ref[2];
    float pt[6];
};

bool snap(Level& lv, const float* pair, Snapped& s) {
    dtQueryFilter filter;
    for (int k = 0; k < 2; ++k) {
        if (dtStatusFailed(
                lv.q->findNearestPoly(&pair[3 * k], kHalf, &filter, &s.ref[k], &s.pt[3 * k])) ||
            s.ref[k] == 0) {
            return false;
        }
    }
    return true;
}

bool complete_path(Level& lv, const Snapped& s) {
    dtQueryFilter filter;
    dtPolyRef path[kMaxPath];
    int n = 0;
    dtStatus st =
        lv.q->findPath(s.ref[0], s.ref[1], &s.pt[0], &s.pt[3], &filter, path, &n, kMaxPath);
    return dtStatusSucceed(st) && !dtStatusDetail(st, DT_PARTIAL_RESULT) && n > 0 &&
           path[n - 1] == s.ref[1];
}

int cmd_filter(const char* obj, const char* in, const char* out_path, int nodes) {
    Level lv;
    if (!level_make(obj, nodes, lv)) {
        return 1;
    }
    std::vector<float> pairs = read_floats(in, 6);
    FILE* out = std::fopen(out_path, "w");
    int kept = 0, n = static_cast<int>(pairs.size() / 6);
    for (int i = 0; i < n && out != nullptr; ++i) {
        const float* p = &pairs[6 * static_cast<size_t>(i)];
        Snapped s;
        if (snap(lv, p, s) && complete_path(lv, s)) {
            std::fprintf(out, "%.9g %.9g %.9g %.9g %.9g %.9g\n", p[0], p[1], p[2], p[3], p[4],
                         p[5]);
            ++kept;
        }
    }
    if (out != nullptr) {
        std::fclose(out);
    }
    std::printf("{\"side\":\"detour\",\"cmd\":\"filter\",\"in\":%d,\"kept\":%d}\n", n, kept);
    return out == nullptr;
}

int cmd_paths(const char* obj, const char* pairs_path, int rounds, int nodes) {
    Level lv;
    if (!level_make(obj, nodes, lv)) {
        return 1;
    }
    std::vector<float> pairs = read_floats(pairs_path, 6);
    const int n = static_cast<int>(pairs.size() / 6);
    std::vector<Snapped> snapped(static_cast<size_t>(n));
    int incomplete = 0;
    for (int i = 0; i < n; ++i) {
        bool ok = snap(lv, &pairs[6 * static_cast<size_t>(i)], snapped[static_cast<size_t>(i)]);
        incomplete += !ok || !complete_path(lv, snapped[static_cast<size_t>(i)]);
    }
    dtQueryFilter filter;
    dtPolyRef path[kMaxPath], corner_refs[kMaxCorners];
    float corners[3 * kMaxCorners];
    unsigned char corner_flags[kMaxCorners];
    std::vector<double> us;
    double corridor = 0.0, corner_sum = 0.0;
    int failed = 0;
    rounds = std::max(rounds, 1);
    for (int r = 0; r < rounds; ++r) {
        double t0 = now_s();
        for (const Snapped& s : snapped) {
            int np = 0, nc = 0;
            dtStatus a = lv.q->findPath(s.ref[0], s.ref[1], &s.pt[0], &s.pt[3], &filter, path, &np,
                                        kMaxPath);
            dtStatus b = lv.q->findStraightPath(&s.pt[0], &s.pt[3], path, np, corners, corner_flags,
                                                corner_refs, &nc, kMaxCorners, 0);
            failed |= dtStatusFailed(a) || dtStatusFailed(b);
            if (r == 0) {
                corridor += np;
                corner_sum += nc;
            }
        }
        us.push_back((now_s() - t0) * 1e6 / std::max(n, 1));
    }
    std::printf("{\"side\":\"detour\",\"cmd\":\"paths\",\"pairs\":%d,\"incomplete\":%d,"
                "\"corridor_mean\":%.2f,\"corners_mean\":%.2f,\"us_rounds\":[",
                n, incomplete, corridor / std::max(n, 1), corner_sum / std::max(n, 1));
    for (size_t r = 0; r < us.size(); ++r) {
        std::printf("%s%.4f", r ? "," : "", us[r]);
    }
    std::printf("],\"us_best\":%.4f,\"us_median\":%.4f}\n", *std::min_element(us.begin(), us.end()),
                median(us));
    return failed;
}

/// A layer's navmesh tile as dtTileCache::buildNavMeshTile makes it
/// (decompress, regions, contours, polygons, tile data), without the
/// obstacles (there are none) and without adding it to the navmesh.
__attribute__((noinline)) bool build_layer_no_commit(Level& lv, const dtCompressedTile* tile) {
    const dtTileCacheParams* p = lv.tc->getParams();
    const int climb = static_cast<int>(p->walkableClimb / p->ch);
    lv.talloc.reset();
    dtTileCacheLayer* layer = nullptr;
    if (dtStatusFailed(
            dtDecompressTileCacheLayer(&lv.talloc, &lv.comp, tile->data, tile->dataSize, &layer)) ||
        dtStatusFailed(dtBuildTileCacheRegions(&lv.talloc, *layer, climb))) {
        return false;
    }
    dtTileCacheContourSet* lcset = dtAllocTileCacheContourSet(&lv.talloc);
    dtTileCachePolyMesh* lmesh = dtAllocTileCachePolyMesh(&lv.talloc);
    bool ok = lcset != nullptr && lmesh != nullptr &&
              dtStatusSucceed(dtBuildTileCacheContours(&lv.talloc, *layer, climb,
                                                       p->maxSimplificationError, *lcset)) &&
              dtStatusSucceed(dtBuildTileCachePolyMesh(&lv.talloc, *lcset, *lmesh));
    if (ok && lmesh->npolys > 0) {
        dtNavMeshCreateParams params{};
        params.verts = lmesh->verts;
        params.vertCount = lmesh->nverts;
        params.polys = lmesh->polys;
        params.polyAreas = lmesh->areas;
        params.polyFlags = lmesh->flags;
        params.polyCount = lmesh->npolys;
        params.nvp = DT_VERTS_PER_POLYGON;
        params.walkableHeight = p->walkableHeight;
        params.walkableRadius = p->walkableRadius;
        params.walkableClimb = p->walkableClimb;
        params.tileX = tile->header->tx;
        params.tileY = tile->header->ty;
        params.tileLayer = tile->header->tlayer;
        params.cs = p->cs;
        params.ch = p->ch;
        params.buildBvTree = false;
        dtVcopy(params.bmin, tile->header->bmin);
        dtVcopy(params.bmax, tile->header->bmax);
        lv.proc.process(&params, lmesh->areas, lmesh->flags);
        unsigned char* data = nullptr;
        int size = 0;
        ok = dtCreateNavMeshData(&params, &data, &size);
        dtFree(data);
    }
    dtFreeTileCacheLayer(&lv.talloc, layer);
    return ok;
}

int cmd_tiles(const char* obj, int passes) {
    passes = std::max(passes, 1);
    std::vector<double> layers_ms, navmesh_ms, bin_ms;
    Level* keep = nullptr;
    for (int r = 0; r < passes; ++r) {
        auto* lv = new Level;
        if (!level_make(obj, 0, *lv)) {
            delete lv;
            delete keep;
            return 1;
        }
        layers_ms.push_back(lv->layers_ms);
        navmesh_ms.push_back(lv->navmesh_ms);
        bin_ms.push_back(lv->bin_ms);
        delete keep;
        keep = lv;
    }
    Level& lv = *keep;
    std::vector<const dtCompressedTile*> tiles;
    for (int i = 0; i < lv.tc->getTileCount(); ++i) {
        const dtCompressedTile* t = lv.tc->getTile(i);
        if (t->header != nullptr && t->data != nullptr) {
            tiles.push_back(t);
        }
    }
    const size_t n = tiles.size();
    std::vector<std::vector<double>> samples(n);
    bool ok = true;
    // One pass builds every layer once, one after the other.
    for (int r = 0; r < passes && ok; ++r) {
        for (size_t i = 0; i < n; ++i) {
            double t0 = now_s();
            ok &= build_layer_no_commit(lv, tiles[i]);
            samples[i].push_back((now_s() - t0) * 1e6);
        }
    }
    std::vector<double> per_layer;
    double mean = 0.0, best_pass = 1e30;
    for (size_t i = 0; i < n; ++i) {
        per_layer.push_back(median(samples[i]));
        mean += per_layer.back() / static_cast<double>(n);
    }
    for (int r = 0; r < passes; ++r) {
        double m = 0.0;
        for (size_t i = 0; i < n; ++i) {
            m += samples[i][static_cast<size_t>(r)] / static_cast<double>(n);
        }
        best_pass = std::min(best_pass, m);
    }
    std::sort(per_layer.begin(), per_layer.end());
    double p95 = n ? per_layer[static_cast<size_t>(std::ceil(0.95 * n)) - 1] : 0.0;
    std::printf("{\"side\":\"detour\",\"cmd\":\"tiles\",\"tiles\":%d,\"layers\":%d,"
                "\"compressed_bytes\":%zu,\"cache_build_ms_median\":%.3f,"
                "\"cache_build_ms_best\":%.3f,\"triangle_binning_ms_median\":%.3f,"
                "\"navmesh_from_cache_ms_median\":%.3f,\"tile_us_mean\":%.3f,"
                "\"tile_us_p95\":%.3f,\"tile_us_best_pass_mean\":%.3f}\n",
                lv.tw * lv.th, lv.layer_count, lv.compressed_bytes, median(layers_ms),
                *std::min_element(layers_ms.begin(), layers_ms.end()), median(bin_ms),
                median(navmesh_ms), mean, p95, best_pass);
    delete keep;
    return !ok;
}

/// Queues the adds (or removes), then updates until up to date.
bool obstacle_phase(Level& lv, const std::vector<float>& pts, dtObstacleRef* refs, bool removing,
                    int& calls, double& us) {
    for (int i = 0; i < kObstacles; ++i) {
        dtStatus s =
            removing ? lv.tc->removeObstacle(refs[i])
                     : lv.tc->addObstacle(&pts[3 * static_cast<size_t>(i)], 1.0f, 2.0f, &refs[i]);
        if (dtStatusFailed(s)) {
            return false;
        }
    }
    calls = 0;
    us = 0.0;
    bool up_to_date = false;
    while (!up_to_date && calls < 100000) {
        double t0 = now_s();
        if (dtStatusFailed(lv.tc->update(0.0f, lv.nav, &up_to_date))) {
            return false;
        }
        us += (now_s() - t0) * 1e6;
        ++calls;
    }
    return up_to_date;
}

int cmd_obstacles(const char* obj, const char* points_path, int runs) {
    std::vector<float> pts = read_floats(points_path, 3);
    Level lv;
    if (pts.size() < 3 * static_cast<size_t>(kObstacles) || !level_make(obj, 0, lv)) {
        return 1;
    }
    runs = std::max(runs, 1);
    dtObstacleRef refs[kObstacles];
    std::vector<double> add_us, remove_us;
    int add_calls = 0, remove_calls = 0;
    for (int r = -1; r < runs; ++r) { // one warm-up round, as on our side
        double a = 0.0, b = 0.0;
        if (!obstacle_phase(lv, pts, refs, false, add_calls, a) ||
            !obstacle_phase(lv, pts, refs, true, remove_calls, b)) {
            return 1;
        }
        if (r >= 0) {
            add_us.push_back(a);
            remove_us.push_back(b);
        }
    }
    std::printf("{\"side\":\"detour\",\"cmd\":\"obstacles\",\"workers\":1,\"add_calls\":%d,"
                "\"add_ms_median\":%.4f,\"remove_calls\":%d,\"remove_ms_median\":%.4f}\n",
                add_calls, median(add_us) / 1e3, remove_calls, median(remove_us) / 1e3);
    return 0;
}

/// The crowd with RecastDemo's settings ("high" avoidance), `agents` capacity.
dtCrowd* crowd_make(Level& lv, int agents, dtCrowdAgentParams& p) {
    dtCrowd* crowd = dtAllocCrowd();
    if (crowd == nullptr || !crowd->init(agents, kAgentRadius, lv.nav)) {
        dtFreeCrowd(crowd);
        return nullptr;
    }
    dtObstacleAvoidanceParams ap = *crowd->getObstacleAvoidanceParams(0);
    const unsigned char presets[4][3] = {{5, 2, 1}, {5, 2, 2}, {7, 2, 3}, {7, 3, 3}};
    for (int i = 0; i < 4; ++i) {
        ap.velBias = 0.5f;
        ap.adaptiveDivs = presets[i][0];
        ap.adaptiveRings = presets[i][1];
        ap.adaptiveDepth = presets[i][2];
        crowd->setObstacleAvoidanceParams(i, &ap);
    }
    p = dtCrowdAgentParams{};
    p.radius = kAgentRadius;
    p.height = kAgentHeight;
    p.maxAcceleration = 8.0f;
    p.maxSpeed = 3.5f;
    p.collisionQueryRange = p.radius * 12.0f;
    p.pathOptimizationRange = p.radius * 30.0f;
    p.separationWeight = 2.0f;
    p.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO |
                    DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION;
    p.obstacleAvoidanceType = 3;
    return crowd;
}

int cmd_crowd(const char* obj, const char* points_path, int agents, int frames) {
    dtAllocSetCustom(counting_alloc, counting_free);
    std::vector<float> pts = read_floats(points_path, 3);
    const int n = static_cast<int>(pts.size() / 3);
    Level lv;
    if (n < 2 * agents + 1 || !level_make(obj, 2048, lv)) {
        std::fprintf(stderr, "crowd: needs %d points and the level\n", 2 * agents + 1);
        return 1;
    }
    size_t before = g_live_bytes;
    dtCrowdAgentParams p;
    dtCrowd* crowd = crowd_make(lv, agents, p);
    if (crowd == nullptr) {
        return 1;
    }
    size_t crowd_bytes = g_live_bytes - before;
    dtQueryFilter filter;
    const float* ext = crowd->getQueryHalfExtents();
    int next = agents;
    auto target = [&](int idx) {
        const float* t = &pts[3 * static_cast<size_t>(next)];
        next = next + 1 < n ? next + 1 : 0;
        dtPolyRef ref = 0;
        float at[3];
        lv.q->findNearestPoly(t, ext, &filter, &ref, at);
        if (ref != 0) {
            crowd->requestMoveTarget(idx, ref, at);
        }
    };
    for (int i = 0; i < agents; ++i) {
        int idx = crowd->addAgent(&pts[3 * static_cast<size_t>(i)], &p);
        if (idx < 0) {
            return 1;
        }
        target(idx);
    }
    std::vector<double> ms;
    int arrivals = 0;
    for (int f = 0; f < kWarmupFrames + frames; ++f) {
        double t0 = now_s();
        crowd->update(1.0f / 30.0f, nullptr);
        if (f >= kWarmupFrames) {
            ms.push_back((now_s() - t0) * 1e3);
        }
        // Detour has no arrival event: an agent within a quarter radius of
        // its corridor's end (the target, or the end of a partial path), or
        // whose request failed, takes the next point.
        for (int i = 0; i < crowd->getAgentCount(); ++i) {
            const dtCrowdAgent* ag = crowd->getAgent(i);
            if (!ag->active) {
                continue;
            }
            bool failed = ag->targetState == DT_CROWDAGENT_TARGET_FAILED;
            bool at_end =
                ag->targetState == DT_CROWDAGENT_TARGET_VALID && ag->ncorners > 0 &&
                (ag->cornerFlags[ag->ncorners - 1] & DT_STRAIGHTPATH_END) &&
                dtVdist2D(ag->npos, &ag->cornerVerts[3 * (ag->ncorners - 1)]) < 0.25f * p.radius;
            if (failed || at_end) {
                arrivals +=
                    at_end && f >= kWarmupFrames &&
                    dtVdist2D(ag->targetPos, &ag->cornerVerts[3 * (ag->ncorners - 1)]) < 0.01f;
                target(i);
            }
        }
    }
    double sum = 0.0;
    for (double v : ms) {
        sum += v;
    }
    std::printf("{\"side\":\"detour\",\"cmd\":\"crowd\",\"agents\":%d,\"workers\":1,"
                "\"frames\":%d,\"us_per_agent_frame\":%.4f,\"arrivals\":%d,"
                "\"crowd_bytes\":%zu,\"bytes_per_agent\":%.1f}\n",
                agents, frames, sum / frames * 1e3 / agents, arrivals, crowd_bytes,
                static_cast<double>(crowd_bytes) / agents);
    dtFreeCrowd(crowd);
    return 0;
}

int cmd_scene(const char* obj, const char* points_path, int agents, int frames, const char* out) {
    if (agents <= 0) {
        std::fprintf(stderr, "scene: agents must be at least 1\n");
        return 2;
    }
    std::vector<float> pts = read_floats(points_path, 3);
    Level lv;
    if (static_cast<int>(pts.size() / 3) < 2 * agents || !level_make(obj, 2048, lv)) {
        std::fprintf(stderr, "scene: needs %d points and the level\n", 2 * agents);
        return 1;
    }
    dtCrowdAgentParams p;
    dtCrowd* crowd = crowd_make(lv, agents, p);
    if (crowd == nullptr) {
        return 1;
    }
    dtQueryFilter filter;
    const float* ext = crowd->getQueryHalfExtents();
    std::vector<int> idx(static_cast<size_t>(agents), -1),
        arrived_at(static_cast<size_t>(agents), -1);
    for (int i = 0; i < agents; ++i) {
        idx[i] = crowd->addAgent(&pts[3 * static_cast<size_t>(i)], &p);
        const float* t = &pts[3 * static_cast<size_t>(agents + i)];
        dtPolyRef ref = 0;
        float snapped[3];
        lv.q->findNearestPoly(t, ext, &filter, &ref, snapped);
        if (idx[i] < 0 || ref == 0 || !crowd->requestMoveTarget(idx[i], ref, snapped)) {
            std::fprintf(stderr, "scene: agent %d not placed\n", i);
            dtFreeCrowd(crowd);
            return 1;
        }
    }
    const float storey = 2.0f, arrive = 0.6f;
    float worst = 0.0f;
    long deep = 0;
    int arrived = 0;
    for (int f = 1; f <= frames; ++f) {
        crowd->update(1.0f / 30.0f, nullptr);
        for (int i = 0; i < agents; ++i) {
            const float* a = crowd->getAgent(idx[i])->npos;
            const float* t = &pts[3 * static_cast<size_t>(agents + i)];
            float dx = a[0] - t[0], dz = a[2] - t[2];
            if (arrived_at[i] < 0 && std::fabs(a[1] - t[1]) < storey &&
                dx * dx + dz * dz <= arrive * arrive) {
                arrived_at[i] = f;
                ++arrived;
            }
        }
        if (static_cast<float>(f) / 30.0f <= 2.0f) {
            continue;
        }
        for (int i = 0; i < agents; ++i) {
            const float* a = crowd->getAgent(idx[i])->npos;
            for (int j = i + 1; j < agents; ++j) {
                const float* b = crowd->getAgent(idx[j])->npos;
                float dx = a[0] - b[0], dz = a[2] - b[2];
                if (std::fabs(a[1] - b[1]) >= storey ||
                    dx * dx + dz * dz >= 4.0f * kAgentRadius * kAgentRadius) {
                    continue;
                }
                float depth = 2.0f * kAgentRadius - std::sqrt(dx * dx + dz * dz);
                worst = std::max(worst, depth);
                deep += depth > 0.1f;
            }
        }
    }
    FILE* o = std::fopen(out, "w");
    if (o == nullptr) {
        std::fprintf(stderr, "scene: cannot write %s\n", out);
        dtFreeCrowd(crowd);
        return 1;
    }
    for (int i = 0; i < agents; ++i) {
        std::fprintf(o, "%d %d\n", i, arrived_at[i]);
    }
    std::fclose(o);
    std::printf("{\"side\":\"detour\",\"cmd\":\"scene\",\"agents\":%d,\"frames\":%d,"
                "\"arrived\":%d,\"worst_overlap_after_2s\":%.3f,"
                "\"pair_frames_over_0.1_after_2s\":%ld}\n",
                agents, frames, arrived, worst, deep);
    dtFreeCrowd(crowd);
    return 0;
}

int usage() {
    std::fprintf(stderr, "usage: see the comment at the top of bench/peer/detour_driver.cpp\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "filter" && (argc == 5 || argc == 6)) {
        return cmd_filter(argv[2], argv[3], argv[4], argc == 6 ? std::atoi(argv[5]) : 0);
    }
    if (cmd == "paths" && (argc == 5 || argc == 6)) {
        return cmd_paths(argv[2], argv[3], std::atoi(argv[4]), argc == 6 ? std::atoi(argv[5]) : 0);
    }
    if (cmd == "tiles" && argc == 4) {
        return cmd_tiles(argv[2], std::atoi(argv[3]));
    }
    if (cmd == "obstacles" && argc == 5) {
        return cmd_obstacles(argv[2], argv[3], std::atoi(argv[4]));
    }
    if (cmd == "crowd" && argc == 6) {
        return cmd_crowd(argv[2], argv[3], std::atoi(argv[4]), std::atoi(argv[5]));
    }
    if (cmd == "scene" && argc == 7) {
        return cmd_scene(argv[2], argv[3], std::atoi(argv[4]), std::atoi(argv[5]), argv[6]);
    }
    return usage();
}
