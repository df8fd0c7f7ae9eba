// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// The crowd's tuning constants in one place: what each does and why it has
// its value. Changing one changes behaviour (and the determinism goldens),
// except the parallel block sizes, which only change how work is split.
#ifndef WF_CROWD_TUNING_H
#define WF_CROWD_TUNING_H

/* ---------------------------------------------------------------------------
 * Distances in agent radii (crowd_motion.c, crowd_update.c)
 */

/// Off-mesh links trigger within this many radii of their start (Detour's
/// value: near enough that the agent is at the link, far enough to catch it
/// at walking speed in one update).
#define WF_CROWD_OFFMESH_TRIGGER_RADII 2.25f
/// A path's end is reached within this many radii of its target: the dead
/// zone an arrived agent holds its spot in without stepping back.
#define WF_CROWD_ARRIVAL_RADII 0.25f
/// Agents slow down within this many radii of the path's end (Detour's
/// value), so they stop on the target instead of overshooting it.
#define WF_CROWD_SLOW_DOWN_RADII 2.0f
/// An arrived agent pushed this many radii from its path's end may arrive
/// (and report it) again: a follower shoved it away.
#define WF_CROWD_REARRIVE_RADII 2.0f
/// An arrived agent further than this many radii from its spot walks back
/// to it; stuck on the way for stuck_time, it is let through (it counts as
/// on its way until it is back within the arrival radius).
#define WF_CROWD_RETURN_RADII 1.0f
/// An agent on its way stuck this long (s) within WF_CROWD_SQUEEZE_DIST (m)
/// of its target sees neighbours holding their spots at
/// WF_CROWD_SQUEEZE_SHARE of their radius in avoidance (crowd_motion.c).
#define WF_CROWD_SQUEEZE_STUCK 1.0f
#define WF_CROWD_SQUEEZE_DIST 8.0f
#define WF_CROWD_SQUEEZE_SHARE 0.5f
/// Two walkers passing head-on (knot17, docs/benchmarks.md): avoidance
/// sees the other at this share of its radius, so the two may brush
/// shoulders (up to 0.3 m between agents of 0.6 m) instead of both
/// refusing every closing velocity and standing face to face; the
/// collision pass keeps the bodies apart (crowd_motion.c).
#define WF_CROWD_KNOT_PASS_SHARE 0.5f
/// Such a passer is seen shifted square to the pair's common way by this
/// share of the radius sum, to the side it already stands on (agreed by
/// both: the side each slides past on), unless it is more than
/// WF_CROWD_KNOT_SIDE_BEHIND radius sums behind or near a target; within
/// WF_CROWD_KNOT_SIDE_TIE of them of one line both keep right (knot19,
/// docs/benchmarks.md).
#define WF_CROWD_KNOT_SIDE_SHIFT 0.35f
#define WF_CROWD_KNOT_SIDE_BEHIND 1.0f
#define WF_CROWD_KNOT_SIDE_TIE 0.1f
/// Deeper than this (m) into such a passer's real body, it is seen there
/// as well as aside (a contact: no closing on it further; knot20).
#define WF_CROWD_KNOT_SIDE_DEPTH 0.07f
/// At most this many such passers a walker keeps from running into
/// (crowd_motion.c no_run_into_passers): the nearest of its neighbours.
#define WF_CROWD_PASSER_CLAMPS 4u
/// Not within this distance (m) of either agent's target: there they
/// settle onto their spots rather than pass.
#define WF_CROWD_KNOT_SIDE_TARGET_DIST 6.0f
/// Lanes by direction (flow_cost, crowding.c): a polygon's oncoming flow
/// is priced in full up to this area (m^2, about two bodies side by side
/// over a stride), beyond it by this share of its area: on wide floor
/// walkers pass each other without taking another way (circle128's held
/// share kept, docs/benchmarks.md, knot18).
#define WF_CROWD_FLOW_AREA 3.0f
/// Below this area (m^2, about a body's square) a polygon is no lane of
/// its own and its flow is not priced: on a grid of 1 m cells every cell
/// held one walker and re-searches zigzagged inside one lane.
#define WF_CROWD_FLOW_MIN_AREA 1.5f
/// A walker's share of the flow table when it walks at the speed it
/// wants; held up, it counts in full (1 - speed / wished speed between).
/// Priced in full, circle128's free inbound streams sent its late walkers
/// round them onto the rim sideways, over their neighbours' spots
/// (docs/benchmarks.md, flow22, flow28b).
#define WF_CROWD_FLOW_FREE_SHARE 0.25f
/// flow_cost when the desc leaves it 0 (crowd.c). 16 since flow28b (6 in
/// flow28, 3 before): with free walkers counted at a quarter, nav_test500's
/// two-way knots untie more often and circle128 keeps its holding
/// (docs/benchmarks.md).
#define WF_CROWD_FLOW_COST_DEFAULT 16.0f
/// An agent on its way stuck less than this (s) takes the whole avoidance
/// against an agent holding its spot (crowd_motion.c, passes_holder).
#define WF_CROWD_PASS_STUCK 1.0f
/// ... while further than this many of its radii from its own target:
/// nearer, it settles among the holders there (a ring of spots too tight,
/// crowd_crowded_spots, held 21 of 24 without the limit). A holder in the
/// lane of an agent with the right of way that far from its target steps
/// aside, not ahead of it (crowd_motion.c, step_aside_not_ahead).
#define WF_CROWD_PASS_SPOT_RADII 4.0f
/// A holder stepping out of a walker's lane (crowd_motion.c,
/// step_aside_not_ahead) does not step towards a neighbour closer than this
/// many times the two radii (summed) from touching.
#define WF_CROWD_ASIDE_CLEAR_RADII 0.45f
/// An arrived agent within WF_CROWD_RETURN_RADII of its spot stays where it
/// was pushed while a neighbour is nearer the spot than this share of the
/// two radii's sum (crowd_motion.c, spot_taken).
#define WF_CROWD_SPOT_TAKEN_SHARE 1.0f
/// A free spot (free_spot.c) is sought this share of the two radii's sum
/// from each neighbour: clear of them by a little, so that their jostling
/// does not take it at once.
#define WF_CROWD_FREE_SPOT_ROOM 1.05f
/// Two holders whose targets are nearer than this share of the two radii's
/// sum hold points moved apart (shared_spot.c; rings of spots 0.98 m apart
/// for 1.2 m bodies, 0.82 of it, are left out: moved apart, they crowded
/// the ones still coming) ...
#define WF_CROWD_SHARED_SPOT_NEAR 0.75f
/// ... until they are this share of it apart ...
#define WF_CROWD_SHARED_SPOT_ROOM 1.0f
/// ... by at most this many radii from the target (targets 0.1 of the
/// radii's sum apart or more can then both be held side by side) ...
#define WF_CROWD_SHARED_SPOT_MAX_RADII 0.9f
/// ... and a holder stands in the dead zone (WF_CROWD_ARRIVAL_RADII) of
/// such a point only within this many radii of its own target: on the far
/// side of the point it steps in (crowd_motion.c). With the dead zone as
/// the limit instead (0.7 radii plus 0.25), pairs stood on the edge of the
/// goal's radius and the next push took them over (docs/benchmarks.md,
/// hold17).
#define WF_CROWD_SHARED_SPOT_STAND_RADII 0.95f
/// Two holders' spots moved apart by sharing no longer overlap (for
/// spot_taken, crowd_motion.c) once 0.9 of this many radii further apart
/// than their targets (hold15's limit on the move, kept when hold17 raised
/// that limit: with the new one here, fewer pairs counted as apart).
#define WF_CROWD_SHARED_SPOT_APART_RADII 0.7f
/// A knot's spots (shared_spot.c) are placed together for at most this
/// many agents (the holder and its crowding neighbours) ...
#define WF_CROWD_KNOT_MAX 8u
/// A knot also takes in the arrived neighbours whose targets lie nearer
/// than this share of the two radii's sum (bodies on them would overlap),
/// when at least one pair in it crowds (WF_CROWD_SHARED_SPOT_NEAR).
#define WF_CROWD_KNOT_TOUCH 1.0f
/// ... from their targets moved this share of the way to where the agents
/// stand ...
#define WF_CROWD_KNOT_LEAN 0.25f
/// ... in this many rounds of pushing apart and drawing back.
#define WF_CROWD_KNOT_ROUNDS 12
/// The held point moves only when the shared spot lies further than this
/// many radii from it (less is not worth a walk over the surface).
#define WF_CROWD_SHARED_SPOT_MOVE_RADII 0.1f
/// Moving this many radii from where the stuck timer started counts as
/// progress and restarts it (less is jostling in place).
#define WF_CROWD_PROGRESS_RADII 0.5f

/* ---------------------------------------------------------------------------
 * Right of way and being stuck (crowd_update.c, crowd_motion.c)
 */

/// Ranks above this bit are the class (priority, then on its way or idle,
/// then leading through a single-file passage or not); below it, progress
/// in 1 / WF_CROWD_RANK_STEPS_PER_METRE m: 2^22 steps of 1/64 m order
/// paths of up to 65 km.
#define WF_CROWD_RANK_CLASS_SHIFT 22u
/// Steps per metre of path left in a rank: finer than agents are apart.
#define WF_CROWD_RANK_STEPS_PER_METRE 64.0f
/// Away from single-file passages: seconds stuck before an agent gives way
/// head-on to one further along; an agent not stuck keeps its right of way
/// (docs/crowd.md, right of way).
#define WF_CROWD_HEAD_ON_STUCK 1.0f
/// Near a single-file passage, head-on, the agent walking along this axis
/// (more than the other does) has the way: a fixed rule, so a whole stream
/// keeps it against the other.
#define WF_CROWD_WAY_AXIS_X 0.4472136f
#define WF_CROWD_WAY_AXIS_Z 0.8944272f
/// Near a passage, head-on traffic within this many radii ahead is given way
/// to (crowd_motion.c).
#define WF_CROWD_HEAD_ON_RADII 8.0f
/// ... when it is closer sideways than this share of the two radii's sum.
#define WF_CROWD_LANE_RADII 1.5f
/// ... and waits (goes no further forward) within this share of it.
#define WF_CROWD_WAIT_LANE_RADII 3.0f
/// Sideways speed (share of max speed) of keeping right for oncoming traffic.
#define WF_CROWD_KEEP_RIGHT 0.5f
/// Sideways speed (share of max speed) of an agent making way head-on.
#define WF_CROWD_STEP_ASIDE 0.5f
/// An agent making way head-on stands this many times the two radii's sum
/// ahead of the other, and backs off when it comes nearer...
#define WF_CROWD_WAIT_GAP_RADII 2.0f
/// ... at up to this share of its max speed.
#define WF_CROWD_STEP_BACK 1.0f
/// ... except in a lane wider than single file with another agent less
/// than this many times the two radii's sum behind it (crowd_motion.c,
/// backed_in): backing into its own file stalled two files meeting in a
/// lane a few agents wide (nav22).
#define WF_CROWD_BACK_ROOM_RADII 1.5f
/// The stuck timer runs on through the first stuck replan, so the agent is
/// blocked one more stuck_time after it (2 x stuck_time in all).
#define WF_CROWD_REPLANNED_STUCK_FACTOR 2.0f
/// An agent reported blocked by others is free again (the next blockage
/// is reported anew) after this many steps of progress in a row, each half
/// a radius (WF_CROWD_PROGRESS_RADII) nearer its next corner: 8 radii
/// walked on, more than a jam's shove forward ...
#define WF_CROWD_FREE_STEPS 16u
/// ... each taken within this share of stuck_time: walking on, not
/// shuffling forward in a jam now and then.
#define WF_CROWD_FREE_STEP_STUCK 0.5f

/* ---------------------------------------------------------------------------
 * Single-file passages (bottleneck.c)
 */

/// Walls within this many radii on both sides of an agent's way make a
/// narrow lane (a 3 m corridor for 0.6 m agents), where the passage
/// head-on rule holds too (crowd_motion.c). At 4 radii agents still two
/// metres short of a 3 m door counted as walled in by its jambs, and one
/// stream stood aside for the other in the open (door_2way_3 38 -> 67 %;
/// at 3 radii agents pushed off their spots in a 3 m corridor no longer
/// all got back, tests/crowd/crowd_returning.c).
#define WF_CROWD_WALLED_RADII 3.5f
/// A wall closer than this (squared, m^2) to an agent's centre is one it
/// stands on (pressed to the navmesh's edge), for walled_in.
#define WF_CROWD_WALL_TOUCH_SQ 1e-6f
/// A doorway narrower on the navmesh than this many agent diameters (two
/// abreast, not three) with wider floor right behind it is crossed one
/// direction at a time too (bottleneck.c): two streams met in its mouth
/// and stood (door_2way_3).
#define WF_CROWD_PINCH_ABREAST_DIAMETERS 2.0f
/// ... when it is no deeper than this many radii (a thick wall; a longer
/// lane is a corridor).
#define WF_CROWD_PINCH_DOORWAY_DEPTH_RADII 6.0f
/// Corridor portals looked at for a passage ahead.
#define WF_CROWD_PINCH_SCAN 8u
/// A passage counts while its mouth is within this many radii: far enough
/// that the waiting side stops before it meets the other in the mouth.
#define WF_CROWD_PINCH_REACH_RADII 12.0f
/// Agents waiting for the other side keep clear of the area in front of
/// the mouth, out to this many radii either side of the passage's axis ...
#define WF_CROWD_PINCH_CLEAR_SIDE_RADII 3.0f
/// ... and this many radii back from the mouth (where the jambs begin).
#define WF_CROWD_PINCH_CLEAR_BACK_RADII 3.0f
/// A side that waited this many stuck times gets the way next: the side
/// holding it admits nobody new (short enough that nobody stands long
/// without an event, long enough for a stream to pass in one turn).
#define WF_CROWD_PINCH_TURN_STUCK 1.0f
/// Speed (share of max speed) at which a waiting agent clears that area.
#define WF_CROWD_PINCH_STEP_ASIDE 0.5f
/// Agents waiting beside the lane out of the mouth close up to this many
/// radii from the wall the passage is in.
#define WF_CROWD_PINCH_QUEUE_WALL_RADII 1.5f
/// The admitted agent nearest a passage's mouth leads (ranks above the
/// rest): in one-way traffic within this many radii of the mouth (further
/// out the file is still forming), in two-way traffic wherever it is (its
/// side's stream pushes through the queue beside the lane).
#define WF_CROWD_PINCH_LEAD_RADII 3.5f
/// An admitted agent less than this many radii further from the mouth
/// than its side's first one is abreast of it, not behind it in the file
/// (one straight behind is at least two radii further), and waits. At 1.0
/// an agent at the other jamb of a mouth narrower than a radius (0.5 m
/// for radius 0.6), about 1.2 radii further out than the first at its
/// jamb, walked on, and the two froze there for good
/// (tests/crowd/crowd_bottleneck.c, one way through a narrow mouth: 5 of
/// 9 files through, 8 at 1.5).
#define WF_CROWD_PINCH_ABREAST_RADII 1.5f
/// ... while the first one is held up: stuck (no half radius nearer its
/// corner) for this share of the turn's stuck time.
#define WF_CROWD_PINCH_ABREAST_HELD 0.25f
/// An admitted agent within this many radii of a one-way single-file
/// mouth, not its leader, beside the lane (a radius or more off the
/// passage's axis) and abreast of a leader (not further than
/// WF_CROWD_PINCH_BESIDE_ABREAST_RADII behind it along the axis) moves no
/// nearer the axis (desired and avoided velocity) while the leader goes
/// in: pressing in from the wall beside the mouth, it closed on the leader
/// and slowed its crossing (tests/crowd/crowd_mouth_flow.c, seven runs of
/// 40 agents: 214 through, 250 with this). Behind the leader it may line
/// up in the file.
#define WF_CROWD_PINCH_BESIDE_RADII 2.5f
#define WF_CROWD_PINCH_BESIDE_ABREAST_RADII 1.0f
/// ... and steps back from the axis at this share of its max speed.
#define WF_CROWD_PINCH_BESIDE_BACK 0.1f
/// ... unless the leader has been stuck this long (s): a leader held up
/// lets those beside it close in again (door_1way_1.5: late stragglers
/// stood beside a mouth for 15 s).
#define WF_CROWD_PINCH_BESIDE_LEAD_STUCK 2.0f

/* ---------------------------------------------------------------------------
 * Movement (crowd_motion.c)
 */

/// Two holding agents settle side by side (without dodging) when their spots
/// are at least this share of their radii's sum apart: spots that nearly fit
/// are settled by the collision pass instead of a dance around each other.
#define WF_CROWD_SPOTS_FIT 0.9f
/// Collision pushes resolve this share of an overlap per pass (Detour's
/// value; less than all of it keeps crowds from jittering).
#define WF_CROWD_COLLISION_RESOLVE 0.7f
/// Overlaps deeper than this (m) take back the velocity that walks into
/// them (crowd_motion.c, take_back_velocity); shallower ones are a crowd's
/// ordinary jostling, and taking back every push's velocity cost the doors
/// 2-7 points of arrivals (docs/benchmarks.md, overlap8).
#define WF_CROWD_DEEP_CONTACT 0.1f

/// Collision passes after the ordinary ones (collision_iterations) that
/// move only agents the pass before left in a contact deeper than
/// WF_CROWD_DEEP_PASS_DEPTH (m): several bodies pressed together each
/// resolve a share of their contacts a pass, and the walkers behind drove
/// them deeper again every update (nav_test500's worst overlaps,
/// docs/crowd.md).
#define WF_CROWD_DEEP_PASSES 2u
#define WF_CROWD_DEEP_PASS_DEPTH 0.08f

/// An agent whose centre is within this many metres of a wall's line (or
/// past it) is pinned: a collision push into that wall moves it only along
/// the wall (against two walls of a corner, not at all), and its neighbour
/// takes the part it cannot give.
#define WF_CROWD_WALL_PINNED 0.02f
/// ... in contacts deeper than this (m): shallower ones are how two bodies
/// squeeze past each other between close walls (with every contact, the
/// corridor scene's 1.2 m band lost 4 points of arrivals).
#define WF_CROWD_WALL_PRESS 0.03f
/// Walls further than this (m) from an agent after it moved are not
/// considered by the collision passes (the surface pass keeps it on the mesh).
#define WF_CROWD_WALL_LINE_REACH 0.3f
/// A wall holds in the collision passes with the agent's foot on its line
/// up to this far (m) past a segment's end where it meets another wall in a
/// concave corner: a body at the corner's vertex stands a hair past both
/// (press21, docs/benchmarks.md).
#define WF_CROWD_WALL_END_MARGIN 0.05f
/// Updates between two wall gatherings of an agent that does not move (so
/// walls of doors that opened or closed are seen within a second at 30 Hz).
#define WF_CROWD_WALL_REFRESH_FRAMES 30u

/* ---------------------------------------------------------------------------
 * Paths (crowd_paths.c, crowding.c)
 */

/// Seconds between topology optimizations of one agent (Detour's value:
/// often enough to follow changes, rarely enough to cost little).
#define WF_CROWD_TOPOLOGY_INTERVAL 0.5f
/// A* expansions of one topology optimization (Detour's value: a local
/// re-search, not a new path).
#define WF_CROWD_TOPOLOGY_ITERATIONS 32u
/// A* expansions of the re-search of an agent held up in the open, priced
/// by crowding (stuck_crowding_cost): enough to reach past the knot and
/// back to its corridor on the far side (32 reached only the knot's edge).
/// 128 lost an agent in crowd_open_knot's 4 m lane (re-searches zigzag
/// within one lane of small cells); docs/benchmarks.md, nav21.
#define WF_CROWD_STUCK_TOPOLOGY_ITERATIONS 64u
/// Updates between two counts of the agents per polygon (half a second at
/// 30 Hz: crowds move slowly, and a count restarts running searches).
#define WF_CROWD_CROWDING_FRAMES 15u
/// Seconds without gaining on its next corner before an agent's local
/// re-searches price crowding (stuck_crowding_cost): long enough that agents
/// walking freely across open floor are not priced (the crossing lost a
/// point at 0), short enough to act before a knot sets (0.5 and 1 s gained
/// less on nav_test500; docs/benchmarks.md, topo13).
#define WF_CROWD_STUCK_PRICE_TIME 0.25f
/// An agent's local density counts the neighbours within this many radii:
/// the disc the density is taken over (docs/crowd.md, crowding).
#define WF_CROWD_CROWDING_RADII 3.0f

/* ---------------------------------------------------------------------------
 * Corridor (corridor.c): fixed scratch sizes and tolerances
 */

/// Polygons one frame's move may cross (move_along_surface).
#define WF_CROWD_CORRIDOR_MAX_VISITED 16u
/// Polygons a visibility ray may cross.
#define WF_CROWD_CORRIDOR_MAX_RAY 32u
/// Polygons of a topology re-search's result.
#define WF_CROWD_CORRIDOR_MAX_LOCAL 32u
/// Straight-path points asked for beyond the corners wanted: the start
/// point and corners at pos are dropped, and a full buffer must still hold
/// `max` corners after them.
#define WF_CROWD_CORRIDOR_EXTRA_POINTS 4u
/// Corners nearer than this (XZ) to pos are reached.
#define WF_CROWD_CORRIDOR_MIN_CORNER_DIST 0.01f
/// A visibility ray must get this far (fraction of the ray) to shortcut.
#define WF_CROWD_CORRIDOR_MIN_RAY_T 0.99f
/// A point this near a polygon (XZ) counts as on it (points on edges).
#define WF_CROWD_CORRIDOR_ON_POLY_EPS 1e-4f
/// Corridor polygons after the one a move ended in that are checked for
/// holding the end too (on their shared edge). One: a check per move.
#define WF_CROWD_CORRIDOR_EDGE_LOOKAHEAD 1u

/* ---------------------------------------------------------------------------
 * Parallel phases (crowd_update.c): smallest blocks per task, so a task
 * is worth a hand-off; they do not change results
 */

/// Light per-agent phases (validation, moving along the surface).
#define WF_CROWD_BLOCK_LIGHT 16u
/// Quick path searches: a few A* expansions each, heavy per agent.
#define WF_CROWD_BLOCK_QUICK_PATHS 4u
/// Topology optimizations: a local search each, the heaviest per agent.
#define WF_CROWD_BLOCK_TOPOLOGY 1u
/// Neighbours, corners, steering and avoidance of one agent.
#define WF_CROWD_BLOCK_DECIDE 8u
/// Integration: a few multiplies per agent.
#define WF_CROWD_BLOCK_INTEGRATE 64u
/// One collision pass: a loop over the neighbours per agent.
#define WF_CROWD_BLOCK_COLLIDE 32u

#endif
