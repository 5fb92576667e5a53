// notifications keeps no data of its own yet: only the idempotency table of its consumers.
export { processedEvents } from '@cartable/service-kit';
