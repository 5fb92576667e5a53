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
