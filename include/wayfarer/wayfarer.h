// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Umbrella header: everything public in Wayfarer.
#ifndef WAYFARER_H
#define WAYFARER_H

#include "wayfarer/base.h"
#include "wayfarer/crowd.h"
#include "wayfarer/jobs.h"
#include "wayfarer/mesh_check.h"
#include "wayfarer/navmesh.h"
#include "wayfarer/query.h"
#include "wayfarer/rng.h"
#include "wayfarer/tilecache.h"
#include "wayfarer/vec3.h"
#include "wayfarer/version.h"
#include "wayfarer/world.h"

#endif // WAYFARER_H
