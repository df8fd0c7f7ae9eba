// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The replay's last recorded frame as one SVG picture (replay.h): a title,
// the mesh by layer centred in the map box, the obstacles standing (carved
// solid, painted hatched), the agents coloured by state as in the HTML
// viewer, a legend with the count of each state, and a scale bar.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/replay_internal.h"

/// Layer colours, muted like the page's (fill per layer, lighter higher up).
static void layer_colour(uint32_t layer, double band, char out[32]) {
    static const int hues[6] = {210, 35, 140, 280, 0, 180};
    double light = 52.0 + 6.0 * fmod(band, 5.0);
    snprintf(out, 32, "hsl(%d,22%%,%.0f%%)", hues[layer % 6u], light);
}

static int compare_u64(const void* a, const void* b) {
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return (x > y) - (x < y);
}

/// The page's state classes (viewer_template.h), in its legend's order.
enum { CLASS_COUNT = 7, CLASS_STANDING = 6 };
static const char* const class_names[CLASS_COUNT] = {"walking",
                                                     "requested",
                                                     "arrived",
                                                     "blocked",
                                                     "offmesh",
                                                     "lost",
                                                     "standing (not moved for 1 s)"};
/// The page's speed classes (m/s), counted in the legend.
enum { SPEED_COUNT = 5 };
static const double speed_limits[SPEED_COUNT - 1] = {0.1, 0.5, 1.0, 1.5};
static const char* const speed_names[SPEED_COUNT] = {"stopped (under 0.1 m/s)", "0.1 to 0.5 m/s",
                                                     "0.5 to 1 m/s", "1 to 1.5 m/s",
                                                     "1.5 m/s and faster"};
static const char* const class_colours[CLASS_COUNT] = {"#00c8ff", "#ffd400", "#00e060", "#ff2a2a",
                                                       "#ff00ff", "#ff8800", "#ffffff"};

static uint32_t state_class(uint8_t s) {
    uint32_t mode = s >> 4, target = s & 15u;
    if (mode == WF_AGENT_LOST) {
        return 5;
    }
    if (mode == WF_AGENT_OFFMESH) {
        return 4;
    }
    switch (target) {
    case WF_TARGET_REQUESTED:
        return 1;
    case WF_TARGET_ARRIVED:
        return 2;
    case WF_TARGET_BLOCKED:
    case WF_TARGET_FAILED:
        return 3;
    default:
        return 0;
    }
}

/// Carved obstacles cut the mesh (solid, dark); painted ones mark an area
/// (see-through blue, hatched, dashed): as in the page.
#define CARVED_FILL "#5a3518"
#define CARVED_EDGE "#e0a060"
#define PAINT_FILL "#3c64e6"
#define PAINT_EDGE "#8fb0ff"

/// Picture layout in pixels: a title bar, the map box, the legend panel on
/// its right, the scale bar under the map.
#define MAP_W 1024.0
#define PANEL_W 280.0
#define TITLE_H 44.0
#define FOOT_H 44.0
#define MAP_PAD 16.0

/// A round length (1, 2 or 5 x 10^k metres) drawn 80 to 200 px long.
static double scale_length(double px_per_m) {
    double target = 160.0 / px_per_m;
    double base = pow(10.0, floor(log10(target)));
    double best = base;
    static const double steps[4] = {1.0, 2.0, 5.0, 10.0};
    for (int i = 0; i < 4; ++i) {
        if (fabs(log(steps[i] * base / target)) < fabs(log(best / target))) {
            best = steps[i] * base;
        }
    }
    return best;
}

static void legend_row(FILE* f, double y, const char* swatch, const char* text, const char* count) {
    fprintf(f, "%s<text x=\"%.0f\" y=\"%.1f\">", swatch, MAP_W + 40.0, y + 12.0);
    replay_write_html_text(f, text);
    fputs("</text>", f);
    if (count != NULL) {
        fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                MAP_W + PANEL_W - 12.0, y + 12.0, count);
    }
    fputc('\n', f);
}

int replay_write_svg(const replay* r, const char* path) {
    if (r == NULL || path == NULL) {
        return -1;
    }
    FILE* f = fopen(path, "wb");
    uint64_t* order = malloc(sizeof *order * (r->poly_count + 1u));
    if (f == NULL || order == NULL) {
        free(order);
        if (f != NULL) {
            fclose(f);
        }
        return -1;
    }
    double u = r->unit;
    double ox = r->origin[0], oy = r->origin[1], oz = r->origin[2];
    // The polygons' extent (tiles reach past the level) centred in the box.
    int16_t lo[2], hi[2];
    replay_poly_extent(r, lo, hi);
    double ex0 = ox + lo[0] * u, ez0 = oz + lo[1] * u;
    double ew = (hi[0] - lo[0]) * u, eh = (hi[1] - lo[1]) * u;
    ew = ew > 1.0 ? ew : 1.0;
    eh = eh > 1.0 ? eh : 1.0;
    double map_h = MAP_W * eh / ew;
    map_h = map_h < 560.0 ? 560.0 : (map_h > MAP_W ? MAP_W : map_h);
    double s = fmin((MAP_W - 2.0 * MAP_PAD) / ew, (map_h - 2.0 * MAP_PAD) / eh);
    double tx = MAP_W / 2.0 - s * (ex0 + ew / 2.0);
    double ty = TITLE_H + map_h / 2.0 - s * (ez0 + eh / 2.0);
    double total_w = MAP_W + PANEL_W, total_h = TITLE_H + map_h + FOOT_H;
    double px = 1.0 / s; // one pixel in metres
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
            "width=\"%.0f\" height=\"%.0f\" font-family=\"sans-serif\" font-size=\"13\">\n",
            total_w, total_h, total_w, total_h);
    fputs("<title>", f);
    replay_write_html_text(f, r->title);
    fputs("</title>\n", f);
    fprintf(f,
            "<defs><pattern id=\"paint\" patternUnits=\"userSpaceOnUse\" width=\"%.4f\" "
            "height=\"%.4f\" patternTransform=\"rotate(45)\"><rect width=\"%.4f\" height=\"%.4f\" "
            "fill=\"" PAINT_FILL "\" fill-opacity=\"0.3\"/><rect width=\"%.4f\" height=\"%.4f\" "
            "fill=\"" PAINT_EDGE "\"/></pattern></defs>\n",
            6.0 * px, 6.0 * px, 6.0 * px, 6.0 * px, 1.5 * px, 6.0 * px);
    fprintf(f, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#0f1114\"/>\n", total_w, total_h);
    fprintf(f,
            "<rect id=\"map-box\" x=\"0\" y=\"%.0f\" width=\"%.0f\" height=\"%.2f\" "
            "fill=\"#15181c\"/>\n",
            TITLE_H, MAP_W, map_h);
    // The state of the last frame, counted for the legend.
    uint32_t last = r->frame_count > 0 ? r->frame_count - 1u : 0u;
    size_t row = (size_t)last * r->desc.max_agents;
    uint32_t counts[CLASS_COUNT] = {0}, speeds[SPEED_COUNT] = {0};
    uint32_t shown = 0;
    fputs("<text id=\"title\" x=\"12\" y=\"28\" fill=\"#e8ecf0\" font-size=\"18\" "
          "font-weight=\"600\">",
          f);
    replay_write_html_text(f, r->title);
    if (r->frame_count > 0) {
        fprintf(f, " \xe2\x80\x94 frame %llu, %.2f s",
                (unsigned long long)last * r->desc.frame_stride + 1u,
                (double)last * r->desc.frame_stride * r->desc.dt);
    }
    fputs("</text>\n", f);
    fprintf(f, "<g id=\"map\" transform=\"matrix(%.6f 0 0 %.6f %.4f %.4f)\">\n", s, s, tx, ty);
    fprintf(f, "<g id=\"mesh\" stroke=\"#ffffff\" stroke-opacity=\"0.25\" stroke-width=\"%.4f\">\n",
            px);
    double ymin = r->bmin[1];
    // Lower polygons first so upper floors lie on top, as in the page.
    for (uint32_t i = 0; i < r->poly_count; ++i) {
        order[i] = (uint64_t)((uint32_t)r->polys[i].y + 32768u) << 32 | i;
    }
    qsort(order, r->poly_count, sizeof *order, compare_u64);
    for (uint32_t j = 0; j < r->poly_count; ++j) {
        const mesh_poly* p = &r->polys[(uint32_t)order[j]];
        char colour[32];
        double band = floor((oy + p->y * u - ymin) / 2.0);
        layer_colour(p->layer, band < 0.0 ? 0.0 : band, colour);
        fprintf(f, "<polygon fill=\"%s\" points=\"", colour);
        for (uint32_t k = 0; k < p->vert_count; ++k) {
            fprintf(f, "%s%.2f,%.2f", k > 0 ? " " : "", ox + p->xz[k][0] * u, oz + p->xz[k][1] * u);
        }
        fputs("\"/>\n", f);
    }
    free(order);
    fputs("</g>\n", f);
    for (uint32_t i = 0; i < r->offmesh_count; ++i) {
        const offmesh_rec* o = &r->offmesh[i];
        fprintf(f,
                "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#b0a0ff\" "
                "stroke-width=\"%.4f\" stroke-dasharray=\"%.4f\"/>\n",
                ox + o->a[0] * u, oz + o->a[1] * u, ox + o->b[0] * u, oz + o->b[1] * u, 1.5 * px,
                4.0 * px);
    }
    if (r->frame_count > 0) {
        if (r->set_count > 0) {
            // Walk the set's shapes as the page does.
            fputs("<g id=\"obstacles\">\n", f);
            uint32_t set = r->obstacle_set[last];
            const uint8_t* p = r->obstacle_bytes + r->set_offsets[set];
            uint32_t n = 0, shift = 0;
            for (;;) {
                uint8_t byte = *p++;
                n |= (uint32_t)(byte & 0x7fu) << shift;
                shift += 7;
                if ((byte & 0x80u) == 0) {
                    break;
                }
            }
            for (uint32_t i = 0; i < n; ++i) {
                uint8_t kind = *p++;
                char look[160];
                if (kind & 2u) {
                    snprintf(look, sizeof look,
                             "class=\"painted\" fill=\"url(#paint)\" stroke=\"" PAINT_EDGE
                             "\" stroke-width=\"%.4f\" stroke-dasharray=\"%.4f %.4f\"",
                             1.5 * px, 5.0 * px, 3.0 * px);
                } else {
                    snprintf(look, sizeof look,
                             "class=\"carved\" fill=\"" CARVED_FILL "\" stroke=\"" CARVED_EDGE
                             "\" stroke-width=\"%.4f\"",
                             2.0 * px);
                }
                if ((kind & 1u) == 0) {
                    int16_t c[3];
                    for (int k = 0; k < 3; ++k, p += 2) {
                        c[k] = (int16_t)(uint16_t)(p[0] | (p[1] << 8));
                    }
                    fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" %s/>\n", ox + c[0] * u,
                            oz + c[1] * u, c[2] * u, look);
                } else {
                    uint32_t m = *p++;
                    fprintf(f, "<polygon %s points=\"", look);
                    for (uint32_t k = 0; k < m; ++k, p += 4) {
                        int16_t x = (int16_t)(uint16_t)(p[0] | (p[1] << 8));
                        int16_t zq = (int16_t)(uint16_t)(p[2] | (p[3] << 8));
                        fprintf(f, "%s%.2f,%.2f", k > 0 ? " " : "", ox + x * u, oz + zq * u);
                    }
                    fputs("\"/>\n", f);
                }
            }
            fputs("</g>\n", f);
        }
        // Standing: on its way but not 10 cm from where it was a second ago.
        uint32_t back = (uint32_t)lroundf(1.0f / (r->desc.dt * (float)r->desc.frame_stride));
        back = back > 0 ? back : 1u;
        size_t before = last >= back ? (size_t)(last - back) * r->desc.max_agents : row;
        fprintf(f,
                "<g id=\"agents\" stroke=\"#000000\" stroke-opacity=\"0.6\" "
                "stroke-width=\"%.4f\">\n",
                px);
        for (uint32_t c = 0; c < r->col_count; ++c) {
            uint8_t st = r->state[row + c];
            if (st == STATE_ABSENT) {
                continue;
            }
            const int16_t* q = &r->pos[(row + c) * 3u];
            const int16_t* q0 = &r->pos[(before + c) * 3u];
            uint32_t target = st & 15u;
            bool on_way = (st >> 4) == WF_AGENT_WALKING &&
                          (target == WF_TARGET_REQUESTED || target == WF_TARGET_VALID);
            bool stands = on_way && before != row && r->state[before + c] != STATE_ABSENT &&
                          hypot((double)(q[0] - q0[0]) * u, (double)(q[2] - q0[2]) * u) < 0.1;
            uint32_t k = stands ? (uint32_t)CLASS_STANDING : state_class(st);
            counts[k]++;
            shown++;
            // Speed over the last kept frame, as the page's speed colours.
            size_t prev = last > 0 ? row - r->desc.max_agents : row;
            double v = 0.0;
            if (prev != row && r->state[prev + c] != STATE_ABSENT) {
                const int16_t* q1 = &r->pos[(prev + c) * 3u];
                v = hypot((double)(q[0] - q1[0]) * u, (double)(q[2] - q1[2]) * u) /
                    ((double)r->desc.dt * r->desc.frame_stride);
            }
            uint32_t b = 0;
            while (b < SPEED_COUNT - 1 && v >= speed_limits[b]) {
                b++;
            }
            speeds[b]++;
            double radius = r->col_radius[c] * u;
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\"/>\n", ox + q[0] * u,
                    oz + q[2] * u, radius > 2.0 * px ? radius : 2.0 * px, class_colours[k]);
        }
        fputs("</g>\n", f);
    }
    fputs("</g>\n", f);
    // The legend: agents by state (counts of this frame), layers, obstacles.
    fputs("<g id=\"legend\" fill=\"#d8dde3\">\n", f);
    double y = TITLE_H + 12.0;
    char text[64], swatch[256];
    snprintf(text, sizeof text, "%u", shown);
    legend_row(f, y, "", "Agents", text);
    y += 22.0;
    for (uint32_t k = 0; k < CLASS_COUNT; ++k, y += 20.0) {
        snprintf(
            swatch, sizeof swatch,
            "<rect class=\"state\" x=\"%.0f\" y=\"%.1f\" width=\"13\" height=\"13\" rx=\"6.5\" "
            "fill=\"%s\" stroke=\"#000000\"/>",
            MAP_W + 16.0, y + 1.0, class_colours[k]);
        snprintf(text, sizeof text, "%u", counts[k]);
        legend_row(f, y, swatch, class_names[k], text);
    }
    y += 12.0;
    legend_row(f, y, "", "Agents by speed", NULL);
    y += 22.0;
    for (uint32_t k = 0; k < SPEED_COUNT; ++k, y += 20.0) {
        snprintf(text, sizeof text, "%u", speeds[k]);
        legend_row(f, y, "<g class=\"speed\"/>", speed_names[k], text);
    }
    y += 12.0;
    legend_row(f, y, "", "Navmesh and obstacles", NULL);
    y += 22.0;
    bool used[256];
    replay_layers(r, used);
    for (uint32_t l = 0; l < 256u; ++l) {
        if (!used[l]) {
            continue;
        }
        char colour[32], name[32];
        layer_colour(l, 0.0, colour);
        snprintf(swatch, sizeof swatch,
                 "<rect class=\"layer\" x=\"%.0f\" y=\"%.1f\" width=\"13\" height=\"13\" "
                 "fill=\"%s\"/>",
                 MAP_W + 16.0, y + 1.0, colour);
        snprintf(name, sizeof name, "layer %u", l);
        legend_row(f, y, swatch, name, NULL);
        y += 20.0;
    }
    snprintf(swatch, sizeof swatch,
             "<rect x=\"%.0f\" y=\"%.1f\" width=\"13\" height=\"13\" fill=\"" CARVED_FILL
             "\" stroke=\"" CARVED_EDGE "\" stroke-width=\"2\"/>",
             MAP_W + 16.0, y + 1.0);
    legend_row(f, y, swatch, "obstacle (carved)", NULL);
    y += 20.0;
    snprintf(swatch, sizeof swatch,
             "<rect x=\"%.0f\" y=\"%.1f\" width=\"13\" height=\"13\" fill=\"" PAINT_FILL
             "\" fill-opacity=\"0.5\" stroke=\"" PAINT_EDGE "\" stroke-dasharray=\"3 2\"/>",
             MAP_W + 16.0, y + 1.0);
    legend_row(f, y, swatch, "obstacle (painted area)", NULL);
    y += 20.0;
    snprintf(swatch, sizeof swatch,
             "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#b0a0ff\" "
             "stroke-width=\"2\" stroke-dasharray=\"4 3\"/>",
             MAP_W + 16.0, y + 7.5, MAP_W + 29.0, y + 7.5);
    legend_row(f, y, swatch, "off-mesh link", NULL);
    fputs("</g>\n", f);
    // The scale bar under the map's left corner.
    double metres = scale_length(s), bar = metres * s;
    double by = TITLE_H + map_h + 24.0;
    fprintf(f,
            "<g id=\"scale\" stroke=\"#d8dde3\" stroke-width=\"2\" data-metres=\"%g\" "
            "data-pixels=\"%.3f\">"
            "<line x1=\"16\" y1=\"%.1f\" x2=\"%.3f\" y2=\"%.1f\"/>"
            "<line x1=\"16\" y1=\"%.1f\" x2=\"16\" y2=\"%.1f\"/>"
            "<line x1=\"%.3f\" y1=\"%.1f\" x2=\"%.3f\" y2=\"%.1f\"/>"
            "<text x=\"%.3f\" y=\"%.1f\" stroke=\"none\" fill=\"#d8dde3\">%g m</text></g>\n",
            metres, bar, by, 16.0 + bar, by, by - 6.0, by + 6.0, 16.0 + bar, by - 6.0, 16.0 + bar,
            by + 6.0, 24.0 + bar, by + 5.0, metres);
    fputs("</svg>\n", f);
    int bad = ferror(f);
    return (fclose(f) != 0 || bad) ? -1 : 0;
}
