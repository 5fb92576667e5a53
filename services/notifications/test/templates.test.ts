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

describe('account e-mails', () => {
  const base = 'https://cartable.ga';

  it('password reset links to /reset-password with token and e-mail', () => {
    const mail = render(
      {
        template: 'password-reset',
        to: 'a@b.ga',
        data: { name: 'Awa', email: 'a@b.ga', token: 'tok', expiresAt: '2026-06-01T10:00:00Z' },
      },
      base,
    );
    expect(mail.subject).toBe('Réinitialisation de votre mot de passe – Cartable');
    expect(mail.text).toContain('https://cartable.ga/reset-password?token=tok&email=a%40b.ga');
  });

  it.each([
    ['login', 'Votre code de connexion : 123456 – Cartable'],
    ['enable', 'Activez la vérification en deux étapes : 123456 – Cartable'],
    ['disable', 'Désactivez la vérification en deux étapes : 123456 – Cartable'],
  ] as const)('two-factor code for %s', (purpose, subject) => {
    const mail = render(
      {
        template: 'two-factor-code',
        to: 'a@b.ga',
        data: { name: 'Awa', code: '123456', purpose, expiresAt: '2026-06-01T10:00:00Z' },
      },
      base,
    );
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain('123456');
    expect(mail.html).toContain('>123456<');
  });

  it('password changed and account deleted are French and say what happened', () => {
    const changed = render(
      {
        template: 'password-changed',
        to: 'a@b.ga',
        data: { name: 'Awa', email: 'a@b.ga', changedAt: '2026-06-01T10:00:00Z' },
      },
      base,
    );
    expect(changed.text).toContain('a été modifié le 1 juin 2026');
    const deleted = render(
      { template: 'account-deleted', to: 'a@b.ga', data: { name: 'Awa', deletedAt: '2026-06-01T10:00:00Z' } },
      base,
    );
    expect(deleted.subject).toBe('Votre compte Cartable a été supprimé');
  });
});
