// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd's per-agent arrays, listed once. The struct (crowd_internal.h),
// allocation and the memory figure (crowd.c), the save layout (crowd_blob.h)
// and the load checks (crowd_restore.c) are all generated from this table,
// so a new field is one line here (plus a save version bump when it is saved).
#ifndef WF_CROWD_AGENT_FIELDS_H
#define WF_CROWD_AGENT_FIELDS_H

/*
 * WF_CROWD_AGENT_FIELDS(X) calls X(name, type, count, keep, check) per array:
 *   name   the wf_crowd member, a `type*`
 *   count  elements in the whole array, an expression of `c` (the crowd) and
 *          `n` (c->max_agents)
 *   keep   SAVED: written raw into a save, in table order, and restored;
 *          REFS: 32-bit poly ids (crowd/ref_codec.h) saved as the 64-bit
 *          refs they stand for (so a save does not depend on the split)
 *          and encoded again on load;
 *          VIEW: rebuilt from saved data on load (the corridor views);
 *          CODE: code or user pointers, never saved, cleared on load;
 *          SCRATCH: derived every update before it is read, never saved
 *   check  what a load asks of element i of a live agent before it is
 *          accepted: NONE, FINITE (every float finite) or NOT_NAN (may be
 *          infinite on purpose); fields whose rules involve other fields
 *          (counts, indices, enums, params) say CUSTOM and are checked by
 *          hand in crowd_restore.c's check_agent
 *
 * Saved arrays keep their order: it is the save format's agents section.
 */
/// Slots of the flow table (crowding.c): the crowding table's when
/// flow_cost prices searches, else one (nothing reads or builds it).
#define FLOW_SLOTS(c) ((c)->flow_cost > 0.0f ? (size_t)(c)->crowding_capacity : (size_t)1)

#define WF_CROWD_AGENT_FIELDS(X)                                                                   \
    X(active, uint8_t, n, SAVED, CUSTOM)                                                           \
    X(params, wf_agent_params, n, SAVED, CUSTOM)                                                   \
    X(mode, uint8_t, n, SAVED, CUSTOM)         /* wf_agent_mode */                                 \
    X(target_state, uint8_t, n, SAVED, CUSTOM) /* wf_target_state */                               \
    X(agent_flags, uint32_t, n, SAVED, CUSTOM) /* AGENT_* */                                       \
    X(pos, wf_vec3, n, SAVED, FINITE)          /* swaps with displaced: saved by role */           \
    X(vel, wf_vec3, n, SAVED, FINITE)                                                              \
    X(desired_vel, wf_vec3, n, SAVED, FINITE) /* steering's wish */                                \
    X(avoid_vel, wf_vec3, n, SAVED, FINITE)   /* avoidance's choice */                             \
    X(displaced, wf_vec3, n, SAVED, FINITE)   /* positions after a collision pass */               \
    X(request_vel, wf_vec3, n, SAVED, FINITE) /* velocity requests */                              \
    X(corridor, wf_corridor, n, VIEW, NONE)   /* views into corridor_ids */                        \
    X(corridor_ids, uint32_t, n * c->max_corridor, REFS, CUSTOM)                                   \
    X(corridor_partial, uint8_t, n, SAVED, NONE)                                                   \
    X(target_pos, wf_vec3, n, SAVED, FINITE) /* the request's target on the mesh */                \
    X(target_ref, wf_poly_ref, n, SAVED, CUSTOM)                                                   \
    X(callbacks, wf_move_callbacks, n, CODE, NONE)                                                 \
    X(callback_user, void*, n, CODE, NONE)                                                         \
    X(request_time, double, n, SAVED, FINITE) /* when the pending search was asked for */          \
    X(result, wf_crowd_result, n, SAVED, CUSTOM)                                                   \
    X(corners, wf_straight_point, n* WF_CROWD_MAX_CORNERS, SAVED, CUSTOM)                          \
    X(corner_count, uint8_t, n, SAVED, CUSTOM)                                                     \
    X(neighbours, uint32_t, n * c->max_neighbours, SAVED, CUSTOM) /* nearest first */              \
    X(neighbour_count, uint8_t, n, SAVED, CUSTOM)                                                  \
    X(walls, wf_vec3, n * c->max_walls * 2u, SAVED, CUSTOM) /* segments: 2 points each */          \
    X(wall_count, uint8_t, n, SAVED, CUSTOM)                                                       \
    X(boundary_center, wf_vec3, n, SAVED, NOT_NAN) /* infinite: walls due */                       \
    X(boundary_polys, uint32_t, n* WF_LOCAL_BOUNDARY_MAX_POLYS, REFS,                              \
      NONE) /* ids, as corridors */                                                                \
    X(boundary_poly_count, uint8_t, n, SAVED, CUSTOM)                                              \
    X(topology_timer, float, n, SAVED, FINITE)                                                     \
    X(stuck_timer, float, n, SAVED, FINITE)                                                        \
    X(stuck_spot, wf_vec3, n, SAVED, FINITE) /* where the stuck timer started */                   \
    X(offmesh, wf_crowd_offmesh, n, SAVED, CUSTOM)                                                 \
    /* This update's events: kinds + 1 in the order sent, 3 bits each (crowd.c). */                \
    X(event_log, uint32_t, n, SCRATCH, NONE)                                                       \
    X(event_link, wf_poly_ref, n, SCRATCH, NONE)       /* the link of its off-mesh events */       \
    X(scratch_agents, uint32_t, n, SCRATCH, NONE)      /* agent lists built per phase */           \
    X(half_height, float, n, SCRATCH, NONE)            /* for the proximity grid */                \
    X(pinch, wf_crowd_pinch, n, SCRATCH, NONE)         /* single-file passage ahead */             \
    X(walled, uint8_t, n, SCRATCH, NONE)               /* walls close on both sides of its way */  \
    X(pinch_found, wf_crowd_passage, n, SCRATCH, NONE) /* on the corridor polygons seen */         \
    X(pinch_seen, uint64_t, n, SCRATCH, NONE)          /* a hash of the corridor polygons seen */  \
    X(pinch_seen_count, uint8_t, n, SCRATCH, NONE)                                                 \
    /* The event list between updates; inside one the passage table, then the steps' inputs. */    \
    X(update_scratch, uint64_t, wf_crowd_scratch_words(c), SCRATCH, NONE)                          \
    X(pinch_slots, uint32_t, c->pinch_capacity, SCRATCH, NONE) /* entry + 1; 0: free */            \
    /* The flow table (crowding.c): built in each update before the topology pass reads it. */     \
    X(flow_keys, uint64_t, FLOW_SLOTS(c), SCRATCH, NONE) /* 0: free slot */                        \
    X(flow_sum, wf_vec3, FLOW_SLOTS(c), SCRATCH, NONE)   /* walkers' unit wishes */                \
    /* The crowding table (crowding.c) is data, not scratch: searches replay over it. */           \
    X(crowding_keys, uint64_t, c->crowding_capacity, SAVED, CUSTOM) /* 0: free slot */             \
    X(crowding_scale, float, c->crowding_capacity, SAVED, CUSTOM)

#endif
