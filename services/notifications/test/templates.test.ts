import { describe, expect, it } from 'vitest';
import { render } from '../src/queue/mail-queue.ts';

describe('verification e-mail', () => {
  const job = {
    template: 'verification' as const,
    to: 'awa@example.ga',
    data: { name: 'Awa <script>', email: 'awa+1@example.ga', token: 'tok_123', expiresAt: '2026-06-01T10:00:00Z' },
  };

  it('is French, links to /verify-email on PUBLIC_URL with token and e-mail, in HTML and text', () => {
    const mail = render(job, 'https://cartable.ga');
    expect(mail.subject).toBe('Confirmez votre adresse email – Cartable');
    const link = 'https://cartable.ga/verify-email?token=tok_123&email=awa%2B1%40example.ga';
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.text).toContain('1 juin 2026 à 11:00');
  });

  it('escapes what the user typed', () => {
    const mail = render(job, 'https://cartable.ga');
    expect(mail.html).toContain('Awa &lt;script&gt;');
    expect(mail.html).not.toContain('<script>');
  });
});
