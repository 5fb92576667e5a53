// moderation's own tables arrive with its features; the event tables are there from the start.
export { outbox, processedEvents } from '@cartable/service-kit';
