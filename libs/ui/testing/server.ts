import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';

/** `/api` + path, as the client asks for it (any origin: jsdom's page is http://localhost:3000). */
export const apiPath = (path: string) => `*/api${path}`;

/**
 * The API as the component tests see it: handlers added per test with `server.use(...)`. The one
 * question every grid of books asks (which listings a class list withdrew) answers « none » unless
 * a test says otherwise.
 */
export const server = setupServer(
  http.get(apiPath('/class-lists/withdrawn-books'), () => HttpResponse.json({ data: [] })),
);

export { HttpResponse, http };

/** A French error answer as the services send it: `{ message, errors? }` with a status. */
export function errorAnswer(status: number, message: string, errors?: Record<string, string[]>) {
  return HttpResponse.json(errors ? { message, errors } : { message }, { status });
}
