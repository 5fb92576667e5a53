/** What the frontends' component tests render with and answer with (see ./setup.ts). */
export { member, renderScreen, type ScreenOptions } from './render';
export { apiPath, errorAnswer, HttpResponse, http, server } from './server';
