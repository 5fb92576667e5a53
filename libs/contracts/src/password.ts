/**
 * Password strength of the register and reset forms (SPEC.md section 5): +25 for 8+ characters,
 * +10 for 12+, +15 each for a lowercase, an uppercase and a digit, +20 for a special character, at
 * most 100. A module without zod (`@cartable/contracts/password`): the forms draw their meter
 * before their schemas are loaded.
 */
export function passwordStrength(password: string): { score: number; label: 'Faible' | 'Moyen' | 'Bon' | 'Excellent' } {
  let score = 0;
  if (password.length >= 8) score += 25;
  if (password.length >= 12) score += 10;
  if (/[a-z]/.test(password)) score += 15;
  if (/[A-Z]/.test(password)) score += 15;
  if (/\d/.test(password)) score += 15;
  if (/[^A-Za-z0-9]/.test(password)) score += 20;
  score = Math.min(score, 100);
  const label = score < 30 ? 'Faible' : score < 60 ? 'Moyen' : score < 80 ? 'Bon' : 'Excellent';
  return { score, label };
}
export const MIN_PASSWORD_SCORE = 30;

/**
 * French and Gabonese favourites that people dress with digits or signs (Azerty123, Motdepasse1,
 * Libreville2026!): guessed in a few tries whatever their score. The server refuses them and the
 * forms' meter says so while the member types.
 */
const FAMILIAR_BASES = new Set([
  'azerty',
  'azertyuiop',
  'motdepasse',
  'mdp',
  'bonjour',
  'bonsoir',
  'salut',
  'coucou',
  'soleil',
  'doudou',
  'chouchou',
  'loulou',
  'nounours',
  'jetaime',
  'amour',
  'monamour',
  'bisous',
  'cheri',
  'cherie',
  'princesse',
  'tresor',
  'chocolat',
  'bebe',
  'maman',
  'papa',
  'famille',
  'marseille',
  'paris',
  'lyon',
  'france',
  'gabon',
  'libreville',
  'portgentil',
  'franceville',
  'afrique',
  'football',
  'camille',
  'nicolas',
  'julien',
  'thomas',
  'motdepass',
  'password',
  'secret',
  'bienvenue',
  'liberte',
  'dieu',
  'jesus',
  'merci',
  'vacances',
  'ordinateur',
  'qwerty',
]);

/** True for a favourite word with only digits or signs around it. */
export function isFamiliarPassword(password: string): boolean {
  const base = password
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^a-z]+$/, '')
    .replace(/^[^a-z]+/, '');
  return FAMILIAR_BASES.has(base);
}
