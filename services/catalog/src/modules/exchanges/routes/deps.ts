import type { Guards } from '@cartable/service-kit';
import type { ExchangeService } from '../domain/exchanges.ts';

/** What the exchanges routes need: the guards and the module's services. */
export interface ExchangeRouteDeps {
  guards: Guards;
  exchanges: ExchangeService;
}
