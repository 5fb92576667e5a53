import { CloseIcon, ShieldIcon } from '@cartable/ui';
import { useState } from 'react';

/** Conversations whose tips the member closed, in this browser (the newest 200). */
const DISMISSED_KEY = 'safetyTipsDismissed';
const MAX_REMEMBERED = 200;

function dismissedKeys(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

function remember(key: string) {
  try {
    const keys = [key, ...dismissedKeys().filter((k) => k !== key)].slice(0, MAX_REMEMBERED);
    localStorage.setItem(DISMISSED_KEY, JSON.stringify(keys));
  } catch {
    // storage disabled: closed for this visit only
  }
}

/**
 * Safety tips at the top of a conversation (the product only connects parties: meeting and
 * payment happen outside it), until the member closes them; remembered per conversation.
 */
export function SafetyTips({ conversationKey }: { conversationKey: string }) {
  const [open, setOpen] = useState(() => !dismissedKeys().includes(conversationKey));
  if (!open) return null;
  return (
    <aside
      aria-labelledby="conseils-securite"
      className="relative mb-4 rounded-xl border border-accent-300 bg-accent-50 p-3 pr-11 text-sm text-slate-800"
      data-testid="safety-tips"
    >
      <h2 id="conseils-securite" className="flex items-center gap-2 font-semibold text-slate-900">
        <ShieldIcon size={18} className="shrink-0 text-accent-700" />
        Conseils de sécurité
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>Rencontrez-vous dans un lieu public, par exemple devant l’école ou le lycée.</li>
        <li>Vérifiez l’état du manuel avant de payer.</li>
        <li>N’envoyez jamais d’argent par mobile money à l’avance à quelqu’un que vous n’avez pas rencontré.</li>
      </ul>
      <button
        type="button"
        onClick={() => {
          remember(conversationKey);
          setOpen(false);
        }}
        className="absolute top-2 right-2 flex h-9 w-9 items-center justify-center rounded-full text-slate-600 hover:bg-accent-100 hover:text-slate-900"
        aria-label="Masquer les conseils de sécurité pour cette conversation"
      >
        <CloseIcon size={18} />
      </button>
    </aside>
  );
}
