// The part of autocannon's API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  /** One entry of `requests`: each connection's request, `setupRequest` making each one afresh (e.g. its body). */
  export interface CannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: CannonRequest) => CannonRequest;
  }

  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    method?: string;
    headers?: Record<string, string>;
    timeout?: number;
    requests?: CannonRequest[];
  }

  /** Latency in milliseconds (2xx responses only); keys are percentiles, p97_5 is 97.5 %. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total?: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
  }

  export interface Result {
    latency: Histogram;
    requests: Histogram & { total: number; sent: number };
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    mismatches: number;
    statusCodeStats: Record<string, { count: number }>;
    '2xx': number;
    start: Date;
    finish: Date;
  }

  export interface Instance extends EventEmitter, PromiseLike<Result> {
    stop(): void;
  }

  function autocannon(options: Options): Instance;
  export default autocannon;
}
