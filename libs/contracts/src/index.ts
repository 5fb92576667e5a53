export * from './auth.ts';
export * from './catalog.ts';
export * from './common.ts';
export * from './demo.ts';
export * from './events.ts';
export * from './locations.ts';
export * from './messages.ts';
