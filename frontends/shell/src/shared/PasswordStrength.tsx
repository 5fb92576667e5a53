import { messages } from '@cartable/contracts/messages';
import { passwordStrength } from '@cartable/contracts/password';
import { cn } from '@cartable/ui';
import { useCommonPassword } from './api/password-check';

const TONES = {
  Faible: { bar: 'bg-red-500', text: 'text-red-700' },
  Moyen: { bar: 'bg-accent-500', text: 'text-accent-800' },
  Bon: { bar: 'bg-ocean-500', text: 'text-ocean-700' },
  Excellent: { bar: 'bg-primary-600', text: 'text-primary-800' },
} as const;

export const PASSWORD_TIPS = [
  'Au moins 8 caractères (12 ou plus, c’est encore mieux)',
  'Une lettre minuscule et une lettre majuscule',
  'Au moins un chiffre',
  'Un caractère spécial (!, ?, @, #…) pour un mot de passe excellent',
];

/** Strength meter of the register and reset forms (SPEC section 5): score from the shared contracts. */
export function PasswordStrength({ password, showTips = true }: { password: string; showTips?: boolean }) {
  const strength = passwordStrength(password);
  const common = useCommonPassword(password);
  // A password the server refuses as too common never reads « Excellent ».
  const { score, label } = common ? { score: Math.min(strength.score, 20), label: 'Faible' as const } : strength;
  const tone = TONES[label];
  const checks = [
    password.length >= 8,
    /[a-z]/.test(password) && /[A-Z]/.test(password),
    /\d/.test(password),
    /[^A-Za-z0-9]/.test(password),
  ];
  return (
    <div className="space-y-2" data-testid="password-strength">
      <div className="flex items-center justify-between text-xs">
        <span className="text-slate-600">Force du mot de passe</span>
        <span className={cn('font-semibold', password ? tone.text : 'text-slate-400')} aria-live="polite">
          {password ? (common ? 'Trop courant' : label) : '—'}
          {password ? <span className="sr-only"> ({score} sur 100)</span> : null}
        </span>
      </div>
      <div aria-hidden="true" className="h-2 overflow-hidden rounded-full bg-slate-200">
        <div
          className={cn('h-full rounded-full transition-[width] duration-300', tone.bar)}
          style={{ width: `${score}%` }}
        />
      </div>
      {common ? (
        <p className="text-xs font-medium text-red-700" data-testid="password-common">
          {messages.auth.passwordTooCommon}
        </p>
      ) : null}
      {showTips ? (
        <ul className="space-y-1 pt-1 text-xs text-slate-600">
          {PASSWORD_TIPS.map((tip, index) => (
            <li key={tip} className={cn('flex items-start gap-2', checks[index] && 'text-primary-800')}>
              <span aria-hidden="true" className="mt-px font-bold">
                {checks[index] ? '✓' : '•'}
              </span>
              <span>
                {tip}
                <span className="sr-only">{checks[index] ? ' : respecté' : ' : à faire'}</span>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
