import { apiPath, errorAnswer, HttpResponse, http, member, renderScreen, server } from '@cartable/ui/testing';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { AlertChannelsCard } from '../src/features/account/profile/AlertChannelsCard';

/**
 * « Alertes par SMS » in the profile: a number verified by a code sent by SMS, then SMS chosen per
 * kind of alert; the server's French refusals land on their field.
 */
const off = { email: true, sms: false, in_app: true };
const settings = (phone: Record<string, unknown>, channels: Record<string, unknown> = {}) => ({
  channels: {
    saved_searches: off,
    class_list: off,
    messages: off,
    deals: off,
    payments: off,
    school_year: off,
    ...channels,
  },
  phone: { number: null, display: null, verified_at: null, stopped: false, pending: null, ...phone },
  sms_per_day: 5,
  quiet_hours: { from: '21:00', to: '07:00' },
});

describe('alerts by SMS in the profile', () => {
  it('adds a number: code sent, a wrong code refused on its field, the right one verifies, then SMS can be chosen', async () => {
    const sent: unknown[] = [];
    const saved: unknown[] = [];
    let phone: Record<string, unknown> = {};
    server.use(
      http.get(apiPath('/notifications/channels'), () => HttpResponse.json(settings(phone))),
      http.post(apiPath('/notifications/phone'), async ({ request }) => {
        sent.push(await request.json());
        phone = { pending: '+241 77 12 34 56' };
        return HttpResponse.json({
          message: 'Un code à 6 chiffres vous a été envoyé par SMS.',
          phone: settings(phone).phone,
        });
      }),
      http.post(apiPath('/notifications/phone/verify'), async ({ request }) => {
        const { code } = (await request.json()) as { code: string };
        if (code !== '246810') return errorAnswer(422, 'Code incorrect.', { code: ['Code incorrect.'] });
        phone = { number: '+24177123456', display: '+241 77 12 34 56', verified_at: '2026-12-07T10:00:00Z' };
        return HttpResponse.json({
          message: 'Votre numéro est vérifié : vous pouvez recevoir des alertes par SMS.',
          phone: settings(phone).phone,
        });
      }),
      http.put(apiPath('/notifications/channels'), async ({ request }) => {
        saved.push(await request.json());
        return HttpResponse.json({
          message: 'Canaux d’alerte enregistrés',
          ...settings(phone, { class_list: { ...off, sms: true } }),
        });
      }),
    );
    renderScreen(<AlertChannelsCard />, { as: member() });
    await screen.findByText('Aucun numéro : les alertes arrivent par e-mail et dans Cartable.');
    // Without a verified number SMS cannot be ticked.
    const list = screen.getByRole('group', { name: '« Ma liste »' });
    expect((within(list).getByRole('checkbox', { name: 'SMS' }) as HTMLInputElement).disabled).toBe(true);

    // Labelled controls, groups with their legend: nothing serious for axe (colours aside: jsdom has none).
    const audit = await axe.run(document.body, {
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    });
    expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
      [],
    );

    await userEvent.click(screen.getByRole('button', { name: 'Ajouter un numéro' }));
    await userEvent.click(screen.getByRole('button', { name: 'Recevoir un code par SMS' }));
    expect(await screen.findByText('Saisissez votre numéro de mobile.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Numéro de mobile'), '077 12 34 56');
    await userEvent.click(screen.getByRole('button', { name: 'Recevoir un code par SMS' }));
    expect(await screen.findByText(/Code envoyé au/)).toBeTruthy();
    expect(sent).toEqual([{ number: '077 12 34 56' }]);

    await userEvent.type(screen.getByLabelText('Code de vérification'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Code incorrect.')).toBeTruthy();
    const input = screen.getByLabelText('Code de vérification');
    await userEvent.clear(input);
    await userEvent.type(input, '246810');
    await userEvent.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('+241 77 12 34 56')).toBeTruthy();
    expect(screen.getByText('Vérifié')).toBeTruthy();

    const sms = within(screen.getByRole('group', { name: '« Ma liste »' })).getByRole('checkbox', { name: 'SMS' });
    await userEvent.click(sms);
    expect(saved).toEqual([{ class_list: { sms: true } }]);
    expect(
      (
        (await within(screen.getByRole('group', { name: '« Ma liste »' })).findByRole('checkbox', {
          name: 'SMS',
        })) as HTMLInputElement
      ).checked,
    ).toBe(true);
  });

  it('says a number stopped by « STOP » and a refused number in French, and offers to try again when loading fails', async () => {
    server.use(
      http.get(apiPath('/notifications/channels'), () => errorAnswer(503, 'Service momentanément indisponible.')),
    );
    renderScreen(<AlertChannelsCard />, { as: member() });
    expect(await screen.findByText('Impossible de charger vos alertes par SMS.')).toBeTruthy();

    server.use(
      http.get(apiPath('/notifications/channels'), () =>
        HttpResponse.json(
          settings({
            number: '+24177123456',
            display: '+241 77 12 34 56',
            verified_at: '2026-12-07T10:00:00Z',
            stopped: true,
          }),
        ),
      ),
      http.post(apiPath('/notifications/phone'), () =>
        errorAnswer(429, 'Trop de codes envoyés à ce numéro aujourd’hui : réessayez demain.'),
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: /Réessayer/ }));
    expect(await screen.findByText('SMS arrêtés (STOP)')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Réactiver ou changer' }));
    await userEvent.type(screen.getByLabelText('Numéro de mobile'), '077 12 34 56{Enter}');
    expect(await screen.findByText('Trop de codes envoyés à ce numéro aujourd’hui : réessayez demain.')).toBeTruthy();
  });
});
