// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
/*
 * Wayfarer base layer: status codes, export macros, allocator, logger and
 * assert hooks, and the object id layout shared by every module.
 *
 * Units everywhere in Wayfarer: metres, seconds, radians; Y is up.
 *
 * Every fallible call returns a wf_status: 0 is success, positive values are
 * success that needs more (WF_IN_PROGRESS, WF_PARTIAL), negative values are
 * failures. A failed call leaves the object it was given untouched.
 *
 * Memory: every object takes a wf_allocator in its desc (zeroed = malloc).
 * Logging: every object takes a wf_logger in its desc (zeroed = errors and
 * warnings to stderr).
 * Misuse (NULL where a pointer is required, NaN parameters, ...) calls the
 * assert hook in debug builds and still returns WF_ERR_INVALID_ARG, so a hook
 * that returns lets the program carry on. Runtime conditions (a full queue, a
 * stale id, corrupt data) never assert: they are statuses.
 *
 * Threads: everything here may be called from any thread. The assert hook is
 * the library's only global; set it once at start-up before other threads run.
 */
#ifndef WAYFARER_BASE_H
#define WAYFARER_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(WF_BUILDING_SHARED)
#define WF_API __declspec(dllexport)
#elif defined(_WIN32) && defined(WF_USING_SHARED)
#define WF_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define WF_API __attribute__((visibility("default")))
#else
#define WF_API
#endif

/// Marks a call whose result must be looked at (every wf_status return).
#if defined(__GNUC__) || defined(__clang__)
#define WF_NODISCARD __attribute__((warn_unused_result))
#else
#define WF_NODISCARD
#endif

/// Result of every fallible call. Detail goes in result structs, not here.
typedef enum wf_status {
    WF_OK = 0,
    WF_IN_PROGRESS = 1,        ///< work started, call again to continue
    WF_PARTIAL = 2,            ///< finished with a usable but partial result
    WF_ERR_INVALID_ARG = -1,   ///< misuse: NULL, NaN, zero size, bad enum
    WF_ERR_OUT_OF_MEMORY = -2, ///< the allocator returned NULL
    WF_ERR_CAPACITY = -3,      ///< a fixed capacity from the desc is full
    WF_ERR_STALE_REF = -4,     ///< the id or ref was freed or replaced
    WF_ERR_NOT_FOUND = -5,     ///< nothing matched the query
    WF_ERR_BAD_DATA = -6,      ///< malformed, truncated or corrupt input
    WF_ERR_VERSION = -7,       ///< data written by an incompatible version
    WF_ERR_BUSY = -8,          ///< object is inside its own update
    WF_ERR_WRONG_KIND = -9,    ///< id of another kind (agent id as obstacle)
    WF_ERR_THREAD = -10,       ///< the OS refused a thread or sync primitive
    WF_ERR_IO = -11,           ///< a file could not be read or written
} wf_status;

/// Short fixed English name of a status, e.g. "WF_ERR_STALE_REF: ...".
/// Never NULL; unknown values give "unknown status".
WF_API const char* wf_status_string(wf_status status);

/// Version of the library actually linked, e.g. "0.1.0" (compare with
/// WF_VERSION_STRING from wayfarer/version.h to catch header/library skew).
WF_API const char* wf_version_string(void);

/// True for WF_OK and the positive "success, but" statuses.
static inline bool wf_succeeded(wf_status status) { return status >= 0; }

/// Allocator hooks. alloc returns memory aligned to `align` (a power of two,
/// at most 4096) or NULL; free receives the size and alignment that alloc was
/// given. Both NULL = the C library (malloc/aligned_alloc/free). Calls may
/// come from any worker thread, so a custom allocator must be thread-safe.
typedef struct wf_allocator {
    void* (*alloc)(size_t size, size_t align, void* user);
    void (*free)(void* ptr, size_t size, size_t align, void* user);
    void* user;
} wf_allocator;

typedef enum wf_log_level {
    WF_LOG_ERROR = 0,
    WF_LOG_WARN = 1,
    WF_LOG_INFO = 2,
    WF_LOG_DEBUG = 3,
} wf_log_level;

/// Logger hook. message is a NUL-terminated line without the newline and is
/// valid only during the call. log NULL = errors and warnings to stderr.
/// Set quiet to drop everything instead (tests, shipping builds).
typedef struct wf_logger {
    void (*log)(wf_log_level level, const char* message, void* user);
    void* user;
    bool quiet;
} wf_logger;

/// Called when a debug build detects misuse. If it returns, the call that
/// failed returns WF_ERR_INVALID_ARG. The default prints and aborts.
typedef void wf_assert_fn(const char* expression, const char* file, int line);

/// Installs the assert hook (NULL restores the default). Returns the previous
/// one. The library's only mutable global: set it before starting threads.
WF_API wf_assert_fn* wf_set_assert_hook(wf_assert_fn* hook);

/*
 * Object ids (obstacles, agents, movement requests, ...): one 64-bit value,
 * passed by value inside a one-field struct per kind.
 *   bits  0..31  slot index
 *   bits 32..55  generation, never 0 for a live id; bumped when freed
 *   bits 56..63  kind tag (wf_id_kind), so an agent id is not an obstacle id
 * The all-zero id is null. Ids are plain data: save them as integers, and
 * they stay valid after the owning object is restored from a save.
 */
typedef enum wf_id_kind {
    WF_ID_KIND_NONE = 0,
    WF_ID_KIND_OBSTACLE = 1,
    WF_ID_KIND_AGENT = 2,
    WF_ID_KIND_MOVE_REQUEST = 3,
    WF_ID_KIND_TEST = 255, ///< reserved for the library's own tests
} wf_id_kind;

#define WF_ID_INDEX_BITS 32
#define WF_ID_GENERATION_BITS 24
#define WF_ID_GENERATION_MASK ((1u << WF_ID_GENERATION_BITS) - 1u)

static inline uint64_t wf_id_make(uint32_t index, uint32_t generation, uint8_t kind) {
    return (uint64_t)index | ((uint64_t)(generation & WF_ID_GENERATION_MASK) << 32) |
           ((uint64_t)kind << 56);
}
static inline uint32_t wf_id_index(uint64_t id) { return (uint32_t)id; }
static inline uint32_t wf_id_generation(uint64_t id) {
    return (uint32_t)(id >> 32) & WF_ID_GENERATION_MASK;
}
static inline uint8_t wf_id_kind_of(uint64_t id) { return (uint8_t)(id >> 56); }

#ifdef __cplusplus
}
#endif

#endif // WAYFARER_BASE_H
