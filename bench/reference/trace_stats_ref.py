#!/usr/bin/env python3
"""Reference for the trace-stats bench: the same computation as `sim trace-stats` on a Mooncake trace, written
the straightforward way (json.loads per line, lists, a set for the ideal cache, an OrderedDict per LRU).

usage: python3 bench/reference/trace_stats_ref.py <trace.jsonl> [capacity ...]
Prints JSON: the statistics, the time spent after interpreter start-up (elapsedS) and peak RSS (maxRssKiB).
"""
import json
import resource
import sys
import time
from collections import OrderedDict

BLOCK = 512


def quantile(sorted_values, q):
    n = len(sorted_values)
    pos = q * (n - 1)
    lo = int(pos)
    hi = min(lo + 1, n - 1)
    return sorted_values[lo] + (pos - lo) * (sorted_values[hi] - sorted_values[lo])


def summary(values):
    s = sorted(values)
    return {"mean": sum(s) / len(s), "median": quantile(s, 0.5), "p90": quantile(s, 0.9), "p99": quantile(s, 0.99)}


def block_tokens(k, n):
    return max(0, min(BLOCK, n - k * BLOCK))


def ideal(requests):
    seen = set()
    hit_b = hit_t = tot_b = tot_t = 0
    for _, n, _, ids in requests:
        k = 0
        while k < len(ids) and ids[k] in seen:
            hit_t += block_tokens(k, n)
            k += 1
        hit_b += k
        seen.update(ids)
        tot_b += len(ids)
        tot_t += n
    return {"blocks": hit_b / tot_b, "tokens": hit_t / tot_t}


def lru(requests, capacity):
    cache = OrderedDict()
    hit_b = hit_t = tot_b = tot_t = 0
    for _, n, _, ids in requests:
        k = 0
        while k < len(ids) and ids[k] in cache:
            hit_t += block_tokens(k, n)
            k += 1
        hit_b += k
        tot_b += len(ids)
        tot_t += n
        if capacity == 0:
            continue
        for h in reversed(ids):  # last block first, so the prefix ends most recently used
            if h in cache:
                cache.move_to_end(h)
            else:
                cache[h] = True
                if len(cache) > capacity:
                    cache.popitem(last=False)
    return {"blocks": hit_b / tot_b, "tokens": hit_t / tot_t}


def main():
    path = sys.argv[1]
    capacities = [int(x) for x in sys.argv[2:]]
    t0 = time.perf_counter()
    requests = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            r = json.loads(line)
            requests.append((r["timestamp"] / 1000.0, r["input_length"], r["output_length"], r["hash_ids"]))
    requests.sort(key=lambda r: r[0])  # stable: file order among equal times
    times = [r[0] for r in requests]
    duration = max(times) - min(times)
    out = {
        "requests": len(requests),
        "durationS": duration,
        "arrivalRatePerS": len(requests) / duration if duration > 0 else None,
        "inputTokens": summary([r[1] for r in requests]),
        "outputTokens": summary([r[2] for r in requests]),
        "idealHitRatio": ideal(requests),
        "lru": [{"capacityBlocks": c, "hitRatio": lru(requests, c)} for c in capacities],
    }
    out["elapsedS"] = time.perf_counter() - t0
    out["maxRssKiB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps(out))


if __name__ == "__main__":
    main()
