/**
 * What a router reads of each replica's load before it picks one. The counts a router keeps of what it sent
 * (outstanding tokens and requests) are live; the engine's own metrics (waiting queue, KV in use) are live too,
 * unless the router scrapes them (Router.metricsRefreshS): then they are as of its last scrape (the engine's
 * metrics-scrape event fills `ScrapedMetrics` from each replica's `reported` figures).
 */
import type { Replica } from './replica';
import type { ReplicaLoad } from './router';

/** The replicas' metrics as a router's last scrape read them, by fleet replica index. */
export interface ScrapedMetrics {
  waiting: Float64Array;
  kvInUse: Float64Array;
}

/**
 * Fill `out[i]` with the load of replica `first + i`. `withKv`: also the KV shares (an occupancy read per
 * replica, skipped for routers that read neither).
 */
export function readLoads(
  replicas: readonly Replica[],
  first: number,
  out: ReplicaLoad[],
  scraped: ScrapedMetrics | null,
  withKv: boolean,
): ReplicaLoad[] {
  for (let i = 0; i < out.length; i++) {
    const k = first + i;
    const rep = replicas[k];
    const l = out[i];
    l.outstandingTokens = rep.outstandingTokens;
    l.outstandingRequests = rep.outstandingRequests;
    l.waitingRequests = scraped ? scraped.waiting[k] : rep.waiting.length;
    if (withKv) {
      const o = rep.cache.occupancy()[0];
      l.kvUsage = o.usedBlocks / Math.max(1, o.capacityBlocks);
      l.kvInUse = scraped ? scraped.kvInUse[k] : rep.cache.hbmPinnedShare;
    }
  }
  return out;
}
