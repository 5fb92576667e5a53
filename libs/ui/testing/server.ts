import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

/** The API as the component tests see it: handlers added per test with `server.use(...)`. */
export const server = setupServer();

/** `/api` + path, as the client asks for it (any origin: jsdom's page is http://localhost:3000). */
export const apiPath = (path: string) => `*/api${path}`;

export { HttpResponse, http };

/** A French error answer as the services send it: `{ message, errors? }` with a status. */
export function errorAnswer(status: number, message: string, errors?: Record<string, string[]>) {
  return HttpResponse.json(errors ? { message, errors } : { message }, { status });
}
