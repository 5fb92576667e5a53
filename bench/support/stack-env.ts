/**
 * The settings every benchmark's stack runs with: quiet logs, and answers written as in
 * production, without the contract check tests run on each of them (libs/service-kit/src/serialization.ts).
 */
export const benchEnv = { LOG_LEVEL: 'warn', CHECK_RESPONSES: 'false' } as const;
