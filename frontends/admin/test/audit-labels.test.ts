import type { AuditEntry } from '@cartable/contracts';
import { describe, expect, it } from 'vitest';
import { describeAudit } from '../src/features/users/audit-labels';

/** The administrators' trail reads in French: role names and permission names, never their slugs. */
const entry = (action: string, details: Record<string, unknown>): AuditEntry => ({
  id: '1',
  action,
  actor: null,
  target: null,
  details,
  created_at: '2026-09-01T08:00:00.000Z',
});

describe('the administrators’ trail', () => {
  it('names roles by their names when the reader may list them', () => {
    const names: Record<string, string> = { analyste: 'Analyste', caissier: 'Caissier' };
    expect(
      describeAudit(
        entry('user.roles_set', { before: ['caissier'], after: ['analyste'] }),
        (slug) => names[slug] ?? slug,
      ),
    ).toBe('Rôles modifiés : Caissier → Analyste');
  });

  it('names permissions in French, the class lists’ one included', () => {
    expect(describeAudit(entry('user.permissions_set', { before: [], after: ['lists.manage', 'reports.view'] }))).toBe(
      'Permissions directes modifiées : aucun → Gérer les listes de manuels, Voir les rapports',
    );
  });
});
