import { MemoryRouter, Route, Routes } from '@cartable/ui/router';
import { apiPath, HttpResponse, http, server } from '@cartable/ui/testing';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import RegisterSuccessPage from '../src/features/auth/pages/RegisterSuccessPage';

/**
 * /register-success waits for the address to be verified: it asks with the proof the sign-up gave
 * (`verification_check`), without which the server answers false for any address.
 */
function open(state: object) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[{ pathname: '/register-success', state }]}>
        <Routes>
          <Route path="/register-success" element={<RegisterSuccessPage />} />
          <Route path="/login" element={<p>Page de connexion</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('register-success', () => {
  it('asks whether the address is verified with the sign-up’s proof, and goes to login once it is', async () => {
    const asked: unknown[] = [];
    server.use(
      http.post(apiPath('/check-email-verification'), async ({ request }) => {
        const body = await request.json();
        asked.push(body);
        return HttpResponse.json({ verified: true });
      }),
    );
    open({ email: 'awa@exemple.ga', verificationCheck: 'preuve-signee' });
    expect(await screen.findByText('Page de connexion')).toBeTruthy();
    expect(asked[0]).toEqual({ email: 'awa@exemple.ga', verification_check: 'preuve-signee' });
  });
});
