#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Wayfarer authors
# SPDX-License-Identifier: MIT
#
# The 2-worker structure of a no-budget tile cache update, from instruction
# counts instead of a shared machine's wall clock (docs/benchmarks.md, "Cache
# build stages and the 2-worker update"). Make the dumps with
#   valgrind --tool=callgrind --callgrind-out-file=DIR/d.out \
#     --dump-before=build_fn --dump-after=build_fn --toggle-collect=wf_tilecache_update \
#     bench_peer_wayfarer obstacles OBJ POINTS 1 1
# then: bench/update_schedule.py DIR [SLOTS]. Each build's instructions and
# the caller's serial work after it (its commit) are replayed on a caller
# and one FIFO worker under the old batch-per-window policy and the
# streaming one; the ratio to one thread is printed for the last round.
import glob, re, sys
# Per-build and between-build instruction costs from callgrind dumps (--dump-before/after=build_fn)
files = glob.glob(sys.argv[1] + '/d.out.*')
def num(f): return int(f.rsplit('.',1)[1].split('-')[0])
seq = []
for f in sorted(files, key=num):
    t = open(f).read()
    trig = re.search(r'desc: Trigger: (.*)', t).group(1)
    cost = int(re.search(r'summary: (\d+)', t).group(1))
    seq.append((trig, cost))
builds = [c for t, c in seq if 'dump-after' in t]
betweens = [c for t, c in seq if 'dump-before' in t]
n = len(builds)
# The last round: add + remove phases (the last half); commit cost of build k ~ the gap after it.
half = n // 2
B = builds[half:]
C = (betweens[half + 1:] + [betweens[-1]])[:len(B)]
W = int(sys.argv[2]) if len(sys.argv) > 2 else 4
phases = [(B[:len(B)//2], C[:len(C)//2]), (B[len(B)//2:], C[len(C)//2:])]

def old_policy(b, c):
    t = 0.0  # caller time; worker free at time p
    p = 0.0
    i = 0
    while i < len(b):
        win = list(range(i, min(i + W, len(b))))
        queue = list(win)           # FIFO; worker takes from front when free
        done = {}
        # worker takes tasks from the front starting at max(p, t)
        p = max(p, t)
        # simulate: caller waits in slot order
        for k in win:
            # let worker take queued tasks that it can start before caller reaches k
            while queue and queue[0] != k and p <= t:
                j = queue.pop(0); p += b[j]; done[j] = p
            if k in done:
                t = max(t, done[k])
            elif queue and queue[0] == k and p <= t:
                j = queue.pop(0); p += b[j]; done[j] = p; t = max(t, p)
            else:
                # caller runs k itself if still queued
                queue.remove(k); t += b[k]; done[k] = t
                # worker keeps taking tasks while caller busy
                while queue and p <= t:
                    j = queue.pop(0); p += b[j]; done[j] = p
        for k in win:
            t += c[k]
        p = max(p, t) if not queue else p
        i += W
    return max(t, p)

def new_policy(b, c):
    # streaming window
    t = 0.0; p = 0.0
    n = len(b)
    fill = 0; head = 0
    queue = []; state = {}  # k -> 'q' | ('run', end) | 'done'
    endt = {}
    inwin = 0
    def worker_advance(until):
        nonlocal p
        # worker takes queued tasks FIFO whenever free, up to time `until`
        while queue and p <= until:
            j = queue.pop(0); start = p; p = start + b[j]; endt[j] = p; state[j] = 'run'
    while head < n:
        while inwin < W and fill < n:
            queue.append(fill); state[fill] = 'q'; fill += 1; inwin += 1
        if p < t: p = t if not queue else p
        worker_advance(t)
        while not (head in endt and endt[head] <= t):
            if head in endt:  # running on the worker
                # caller runs newest queued, if any
                if queue:
                    k = queue.pop(); t += b[k]; endt[k] = t; state[k] = 'done'
                    worker_advance(t)
                else:
                    t = endt[head]
            else:
                # head still queued: newest queued one (may be head itself)
                k = queue.pop(); t += b[k]; endt[k] = t
                worker_advance(t)
        t += c[head]; head += 1; inwin -= 1
        worker_advance(t)
    return max(t, max(endt.values()))

for name, (b, c) in zip(['add', 'remove'], phases):
    one = sum(b) + sum(c)
    o = old_policy(b, c); nw = new_policy(b, c)
    print(f"{name}: layers {len(b)}, builds {sum(b)/1e6:.2f} M, commits+rest {sum(c)/1e6:.2f} M (serial {sum(c)/one*100:.1f}%); "
          f"2 workers: old {one/o:.2f}x, new {one/nw:.2f}x (slots {W})")
