import { apiPath, errorAnswer, HttpResponse, http, renderScreen, server } from '@cartable/ui/testing';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AlertUnsubscribePage from '../src/features/alerts/AlertUnsubscribePage';

/**
 * The link of a « Ma liste » or favourites alert mail: it says what it stops and asks before it
 * acts (mail scanners open links), then confirms; a wrong link says so and stops nothing.
 */
const TOKEN = 'k'.repeat(43);

function open(query: string) {
  return renderScreen(<AlertUnsubscribePage />, {
    at: `/alertes/desabonnement?${query}`,
    path: '/alertes/desabonnement',
  });
}

describe('stopping alert e-mails from their link', () => {
  it('asks first, then stops « Ma liste »’s e-mails and points to the profile’s switches', async () => {
    const posted: string[] = [];
    server.use(
      http.get(apiPath('/notifications/unsubscribe'), () =>
        HttpResponse.json({ kind: 'class_list', kind_label: 'Alertes de « Ma liste »', active: true }),
      ),
      http.post(apiPath('/notifications/unsubscribe'), ({ request }) => {
        posted.push(new URL(request.url).search);
        return HttpResponse.json({
          kind: 'class_list',
          kind_label: 'Alertes de « Ma liste »',
          active: false,
          message: 'C’est fait : vous ne recevrez plus ces alertes par e-mail.',
        });
      }),
    );
    open(`token=${TOKEN}&kind=class_list`);
    expect(await screen.findByRole('heading', { name: 'Alertes de « Ma liste »' })).toBeTruthy();
    expect(screen.getByText(/un manuel qui manque à votre liste/)).toBeTruthy();
    expect(posted).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Ne plus recevoir ces e-mails' }));
    expect(await screen.findByText('C’est fait : vous ne recevrez plus ces alertes par e-mail.')).toBeTruthy();
    expect(posted).toEqual([`?token=${TOKEN}&kind=class_list`]);
    expect(screen.getByRole('link', { name: 'Mes notifications' }).getAttribute('href')).toBe('/profile');
  });

  it('says a wrong or cut link is not valid', async () => {
    server.use(
      http.get(apiPath('/notifications/unsubscribe'), () =>
        errorAnswer(404, 'Ce lien de désabonnement n’est pas valide.'),
      ),
    );
    open(`token=${TOKEN}&kind=favourites`);
    expect(await screen.findByText('Ce lien de désabonnement n’est pas valide.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ne plus recevoir ces e-mails' })).toBeNull();
  });
});
