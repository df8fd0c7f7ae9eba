// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The replay's last recorded frame as one SVG picture (replay.h): the mesh
// by layer, the obstacles standing, the agents coloured by state as in the
// HTML viewer.
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

static const char* state_colour(uint8_t s) {
    // Same palette as the page (viewer_template.h).
    uint32_t mode = s >> 4, target = s & 15u;
    if (mode == WF_AGENT_LOST) {
        return "#ff8800";
    }
    if (mode == WF_AGENT_OFFMESH) {
        return "#ff00ff";
    }
    switch (target) {
    case WF_TARGET_REQUESTED:
        return "#ffd400";
    case WF_TARGET_ARRIVED:
        return "#00e060";
    case WF_TARGET_BLOCKED:
    case WF_TARGET_FAILED:
        return "#ff2a2a";
    default:
        return "#00c8ff";
    }
}

int replay_write_svg(const replay* r, const char* path) {
    if (r == NULL || path == NULL) {
        return -1;
    }
    FILE* f = fopen(path, "wb");
    if (f == NULL) {
        return -1;
    }
    double u = r->unit;
    double ox = r->origin[0], oy = r->origin[1], oz = r->origin[2];
    double x0 = r->bmin[0] - 1.0, z0 = r->bmin[2] - 1.0;
    double w = (double)r->bmax[0] - (double)r->bmin[0] + 2.0;
    double h = (double)r->bmax[2] - (double)r->bmin[2] + 2.0;
    double px = w > h ? 1024.0 : 1024.0 * w / h, py = w > h ? 1024.0 * h / w : 1024.0;
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"%.2f %.2f %.2f %.2f\" "
            "width=\"%.0f\" height=\"%.0f\">\n",
            x0, z0, w, h, px, py);
    fputs("<title>", f);
    replay_write_html_text(f, r->title);
    fputs("</title>\n", f);
    fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#15181c\"/>\n",
            x0, z0, w, h);
    fprintf(f, "<g stroke=\"#ffffff\" stroke-opacity=\"0.25\" stroke-width=\"%.3f\">\n",
            w / 1500.0);
    double ymin = r->bmin[1];
    // Lower polygons first so upper floors lie on top, as in the page.
    uint64_t* order = malloc(sizeof *order * (r->poly_count + 1u));
    if (order == NULL) {
        fclose(f);
        return -1;
    }
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
                "stroke-width=\"%.3f\" stroke-dasharray=\"%.3f\"/>\n",
                ox + o->a[0] * u, oz + o->a[1] * u, ox + o->b[0] * u, oz + o->b[1] * u, w / 800.0,
                w / 300.0);
    }
    if (r->frame_count > 0) {
        uint32_t last = r->frame_count - 1u;
        if (r->set_count > 0) {
            // Walk the set's shapes as the page does.
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
                const char* fill = (kind & 2u) ? "#c87828" : "#8b5a2b";
                const char* opacity = (kind & 2u) ? "0.55" : "0.9";
                if ((kind & 1u) == 0) {
                    int16_t c[3];
                    for (int k = 0; k < 3; ++k, p += 2) {
                        c[k] = (int16_t)(uint16_t)(p[0] | (p[1] << 8));
                    }
                    fprintf(f,
                            "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\" "
                            "fill-opacity=\"%s\" stroke=\"#3a2410\" stroke-width=\"%.3f\"/>\n",
                            ox + c[0] * u, oz + c[1] * u, c[2] * u, fill, opacity, w / 1000.0);
                } else {
                    uint32_t m = *p++;
                    fprintf(f,
                            "<polygon fill=\"%s\" fill-opacity=\"%s\" stroke=\"#3a2410\" "
                            "stroke-width=\"%.3f\" points=\"",
                            fill, opacity, w / 1000.0);
                    for (uint32_t k = 0; k < m; ++k, p += 4) {
                        int16_t x = (int16_t)(uint16_t)(p[0] | (p[1] << 8));
                        int16_t zq = (int16_t)(uint16_t)(p[2] | (p[3] << 8));
                        fprintf(f, "%s%.2f,%.2f", k > 0 ? " " : "", ox + x * u, oz + zq * u);
                    }
                    fputs("\"/>\n", f);
                }
            }
        }
        size_t row = (size_t)last * r->desc.max_agents;
        // Standing: on its way but not 10 cm from where it was a second ago.
        uint32_t back = (uint32_t)lroundf(1.0f / (r->desc.dt * (float)r->desc.frame_stride));
        back = back > 0 ? back : 1u;
        size_t before = last >= back ? (size_t)(last - back) * r->desc.max_agents : row;
        fputs("<g stroke=\"#000000\" stroke-opacity=\"0.6\" stroke-width=\"0.04\">\n", f);
        for (uint32_t c = 0; c < r->col_count; ++c) {
            uint8_t s = r->state[row + c];
            if (s == STATE_ABSENT) {
                continue;
            }
            const int16_t* q = &r->pos[(row + c) * 3u];
            const int16_t* q0 = &r->pos[(before + c) * 3u];
            uint32_t target = s & 15u;
            bool on_way = (s >> 4) == WF_AGENT_WALKING &&
                          (target == WF_TARGET_REQUESTED || target == WF_TARGET_VALID);
            bool stands = on_way && before != row && r->state[before + c] != STATE_ABSENT &&
                          hypot((double)(q[0] - q0[0]) * u, (double)(q[2] - q0[2]) * u) < 0.1;
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\"/>\n", ox + q[0] * u,
                    oz + q[2] * u, r->col_radius[c] * u, stands ? "#ffffff" : state_colour(s));
        }
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
    int bad = ferror(f);
    return (fclose(f) != 0 || bad) ? -1 : 0;
}
