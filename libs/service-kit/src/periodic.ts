import type { Logger } from 'pino';

/**
 * Runs `run` every `intervalMs`, never two rounds at once (a slow round skips the ticks it
 * overlaps); a round's result goes to `report`, its failure to the log as `failure`. Returns the
 * stop function. The timer does not keep the process alive.
 */
export function startPeriodic<T>(
  run: () => Promise<T>,
  options: {
    intervalMs: number;
    log: Pick<Logger, 'warn'>;
    failure: string;
    report?: (result: T) => void;
  },
) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    run()
      .then((result) => options.report?.(result))
      .catch((err) => options.log.warn({ err }, options.failure))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
