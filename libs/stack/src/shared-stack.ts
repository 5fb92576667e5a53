import { inject } from 'vitest';
import { attachTestStack, type StackAddresses, type TestStack } from './test-stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The stacks vitest's global setup started, one per worker (e2e/shared-stacks.ts). */
    sharedStacks: StackAddresses[];
  }
}

/**
 * The stack of this test file's worker. Vitest runs at most one file at a time in a worker
 * (VITEST_POOL_ID, from 1), and each worker has a stack of its own, so two files never use one
 * stack at the same moment; they do find what earlier files left in it. A file that uses it
 * creates its own members and listings and looks for those, never for « the only one ».
 */
export function sharedStack(): TestStack {
  const stacks = inject('sharedStacks');
  if (!stacks?.length)
    throw new Error('aucune pile partagée : ce fichier doit être lancé par le projet « e2e » de vitest');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const addresses = stacks[(Math.max(worker, 1) - 1) % stacks.length];
  if (!addresses) throw new Error(`aucune pile pour le worker ${worker}`);
  return attachTestStack(addresses);
}
