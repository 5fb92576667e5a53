import { messages } from '@cartable/contracts';
import { unprocessable } from '@cartable/service-kit';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * Passwords everybody tries first are refused on top of the spec's rules: the 49,000 most
 * common ones (zxcvbn-ts's list), and French favourites with whatever digits or signs follow
 * them (Azerty123, Motdepasse1, Bonjour1!…), which the list alone misses.
 */
const FRENCH_BASES = new Set(
  [
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
  ].filter(Boolean),
);

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  const lower = password.toLowerCase();
  if (common.has(lower)) return true;
  const base = lower
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^a-z]+$/, '')
    .replace(/^[^a-z]+/, '');
  return FRENCH_BASES.has(base);
}

/** 422 on the password field, as the other password rules answer. */
export function refuseCommonPassword(password: string, field = 'password') {
  if (isCommonPassword(password))
    throw unprocessable({ [field]: [messages.auth.passwordTooCommon] }, messages.auth.passwordTooCommon);
}
