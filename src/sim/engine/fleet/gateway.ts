/**
 * The gateway in front of the fleet and its concurrency limit: at most `maxInFlight` requests pass it at once
 * (from the send to the last byte of the answer); one more is turned away at once, an HTTP 503 to its client,
 * counted as `rejected` (a failure, never dropped silently). Nothing waits at the gateway: that is the difference
 * from the clients' own bound (clients.ts), behind which a request waits its turn.
 *
 * Why a gateway rejects rather than queues, and why 1,024:
 *  - Envoy, the proxy under the Kubernetes inference gateway (kgateway, Istio, GKE's gateway, Envoy AI Gateway),
 *    trips a cluster's circuit breaker when its requests in flight reach `max_requests`, default 1,024
 *    (envoy `api/envoy/config/cluster/v3/circuit_breaker.proto`, Thresholds.max_requests: "If not specified, the
 *    default is 1024", quoted in envoyproxy/envoy issue 16610; `max_connections` and `max_pending_requests` default
 *    to 1,024 too, as Envoy Gateway's `api/v1alpha1/circuitbreaker_types.go` states). A request over the
 *    threshold is answered 503 "upstream connect error or disconnect/reset before headers. reset reason:
 *    overflow" without waiting, HTTP/1.1 upstreams included (envoyproxy/envoy issue 16610: with max_requests 3,
 *    six parallel requests gave three 200s and three 503s).
 *  - With an inference pool each request also holds a gRPC stream to the endpoint picker's ext_proc cluster for
 *    its whole life, and that cluster keeps Envoy's default of 1,024 (envoyproxy/ai-gateway PR 1884, "Envoy's
 *    built-in default of 1024 concurrent requests is too low for this hop ... overflow errors under
 *    concurrency", which raises it).
 *  - llm-d's scheduling benchmark (validation/rows/llmd.ts) shows it: in every stage of 1,500 requests, for all
 *    four routers, only ≈ 970 requests' output was counted (docs/validation.md, "llm-d scheduling benchmark").
 * The lab's own scenarios have no gateway limit unless they ask for one (`"gateway": {"maxInFlight": 1024}` or
 * the preset `"envoy-default"`).
 */
import { isObj, type SchemaValidator } from './schemaValidator';

/** Envoy's default circuit-breaker threshold for a cluster's requests in flight (circuit_breaker.proto). */
export const ENVOY_DEFAULT_MAX_REQUESTS = 1024;

export const GATEWAY_PRESETS = { 'envoy-default': ENVOY_DEFAULT_MAX_REQUESTS } as const;

export interface GatewayConfig {
  /** Requests through the gateway at most; one more is rejected. A number or a preset. Absent: unbounded. */
  maxInFlight?: number | keyof typeof GATEWAY_PRESETS;
}

export function validateGateway(v: SchemaValidator, x: unknown): void {
  if (x === undefined) return;
  if (!isObj(x)) return v.err('gateway', 'must be an object {maxInFlight?}');
  v.known(x, 'gateway', ['maxInFlight']);
  const m = x.maxInFlight;
  if (
    m !== undefined &&
    !(typeof m === 'number' && Number.isInteger(m) && m >= 1) &&
    !(typeof m === 'string' && m in GATEWAY_PRESETS)
  )
    v.err(
      'gateway.maxInFlight',
      `must be a whole number ≥ 1 or one of ${Object.keys(GATEWAY_PRESETS)
        .map((k) => `"${k}"`)
        .join(', ')} (got ${JSON.stringify(m)})`,
    );
}

/** The resolved bound (Infinity: none). */
export function gatewayMaxInFlight(g: GatewayConfig | undefined): number {
  const m = g?.maxInFlight;
  if (m === undefined) return Infinity;
  return typeof m === 'string' ? GATEWAY_PRESETS[m] : m;
}

/** Counts the requests through the gateway; `admit` is false (and nothing is counted) when it is full. */
export class GatewayLimit {
  inFlight = 0;
  /** Requests turned away. */
  rejected = 0;

  constructor(readonly maxInFlight: number) {}

  admit(): boolean {
    if (this.inFlight >= this.maxInFlight) {
      this.rejected++;
      return false;
    }
    this.inFlight++;
    return true;
  }

  /** An admitted request ended (answered or failed). */
  leave(): void {
    if (this.inFlight <= 0) throw new Error('gateway: a request left that never passed');
    this.inFlight--;
  }
}
