// SPDX-FileCopyrightText: 2026 The Wayfarer authors
// SPDX-License-Identifier: MIT
// Names of status codes, for logs and test messages.
#include "wayfarer/base.h"

const char* wf_status_string(wf_status status) {
    switch (status) {
    case WF_OK:
        return "WF_OK: success";
    case WF_IN_PROGRESS:
        return "WF_IN_PROGRESS: work started, call again to continue";
    case WF_PARTIAL:
        return "WF_PARTIAL: finished with a partial result";
    case WF_ERR_INVALID_ARG:
        return "WF_ERR_INVALID_ARG: invalid argument";
    case WF_ERR_OUT_OF_MEMORY:
        return "WF_ERR_OUT_OF_MEMORY: allocation failed";
    case WF_ERR_CAPACITY:
        return "WF_ERR_CAPACITY: capacity exhausted";
    case WF_ERR_STALE_REF:
        return "WF_ERR_STALE_REF: id or reference is stale";
    case WF_ERR_NOT_FOUND:
        return "WF_ERR_NOT_FOUND: not found";
    case WF_ERR_BAD_DATA:
        return "WF_ERR_BAD_DATA: malformed or corrupt data";
    case WF_ERR_VERSION:
        return "WF_ERR_VERSION: incompatible data version";
    case WF_ERR_BUSY:
        return "WF_ERR_BUSY: object is busy";
    case WF_ERR_WRONG_KIND:
        return "WF_ERR_WRONG_KIND: id of another kind";
    case WF_ERR_THREAD:
        return "WF_ERR_THREAD: thread or synchronisation failure";
    case WF_ERR_IO:
        return "WF_ERR_IO: input/output error";
    }
    return "unknown status";
}
