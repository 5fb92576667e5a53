import type autocannon from 'autocannon';

/** One load run as the benchmarks print it: a JSON line per run. */
export interface Line {
  title: string;
  'req/s': number;
  'p50 ms': number;
  'p99 ms': number;
  errors: number;
  /** CPU milliseconds each process spent per request (bench/support/cpu.ts), where measured. */
  'cpu ms/req'?: Record<string, number>;
}

/** The figures of an autocannon run (and what it cost each process), printed as one JSON line and returned. */
export function printLine(title: string, result: autocannon.Result, cpu?: Record<string, number>): Line {
  const line: Line = {
    title,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    errors: result.errors + result.non2xx,
    ...(cpu ? { 'cpu ms/req': cpu } : {}),
  };
  console.log(JSON.stringify(line));
  return line;
}
