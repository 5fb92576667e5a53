import { type ClassListChange, type ClassListRef, classListRefLabel, classListRefPath } from '@cartable/contracts';
import { alertUnsubscribe, escapeHtml, layout, type RenderedMail } from './layout.ts';

/** A saved list changed: what the family is told. */
export interface ClassListChangedMail {
  name: string;
  list: ClassListRef;
  changes: ClassListChange[];
  unsubscribeToken?: string;
}

/** A listing's book left a list: what its seller is told. */
export interface ClassListWithdrawnMail {
  name: string;
  list: ClassListRef;
  bookId: number;
  bookTitle: string;
  unsubscribeToken?: string;
}

/** « Retiré : « A ». Ajouté : « B ». Remplacé : « C » par « D ». », one sentence per kind. */
export function changesSentence(changes: ClassListChange[]) {
  const titles = (kind: ClassListChange['kind']) => changes.filter((c) => c.kind === kind);
  const quoted = (cs: ClassListChange[]) => cs.map((c) => `« ${c.item.title} »`).join(', ');
  const parts: string[] = [];
  const withdrawn = titles('withdrawn');
  const added = titles('added');
  const replaced = titles('replaced');
  if (withdrawn.length) parts.push(`${withdrawn.length > 1 ? 'Retirés' : 'Retiré'} : ${quoted(withdrawn)}.`);
  if (replaced.length)
    parts.push(
      `${replaced.length > 1 ? 'Remplacés' : 'Remplacé'} : ${replaced
        .map((c) => `« ${c.previous?.title ?? '?'} » par « ${c.item.title} »`)
        .join(', ')}.`,
    );
  if (added.length) parts.push(`${added.length > 1 ? 'Ajoutés' : 'Ajouté'} : ${quoted(added)}.`);
  return parts.join(' ');
}

/** The notice's title and sentence, and the mail's subject: one wording for both. */
export function classListChangedText(list: ClassListRef, changes: ClassListChange[]) {
  return {
    title: `La liste de ${classListRefLabel(list)} a changé`,
    sentence: `${changesSentence(changes)} « Ma liste » suit la nouvelle version.`,
  };
}

export function classListWithdrawnText(list: ClassListRef, bookTitle: string) {
  return {
    title: `Votre annonce n’est plus sur la liste de ${classListRefLabel(list)}`,
    sentence: `Votre annonce « ${bookTitle} » n’est plus sur la liste de ${classListRefLabel(list)} : le manuel en a été retiré. Elle reste en ligne, mais les familles de cette classe ne le chercheront plus.`,
  };
}

const unsubscribeOf = (publicUrl: string, token?: string) =>
  token ? alertUnsubscribe(publicUrl, token, 'class_list') : null;

function mail(
  publicUrl: string,
  args: { name: string; title: string; sentence: string; path: string; action: string; reason: string; token?: string },
): RenderedMail {
  const url = new URL(args.path, publicUrl).toString();
  const unsubscribe = unsubscribeOf(publicUrl, args.token);
  const stop = unsubscribe?.page ?? new URL('/profile', publicUrl).toString();
  return {
    subject: `${args.title} – Cartable`,
    ...(unsubscribe ? { headers: unsubscribe.headers } : {}),
    html: layout({
      title: `Bonjour ${args.name},`,
      body: `<p>${escapeHtml(args.sentence)}</p>
<p style="font-size:13px;color:#555">Ne plus recevoir ces alertes : <a href="${escapeHtml(stop)}" style="color:#3A75C4">${unsubscribe ? 'arrêter les alertes de « Ma liste » par e-mail' : 'paramètres de votre profil'}</a>.</p>`,
      action: { label: args.action, url },
      reason: args.reason,
    }),
    text: `Bonjour ${args.name},

${args.sentence}

${url}

Ne plus recevoir ces alertes : ${stop}

L'équipe Cartable`,
  };
}

export function renderClassListChangedMail(publicUrl: string, m: ClassListChangedMail): RenderedMail {
  const { title, sentence } = classListChangedText(m.list, m.changes);
  return mail(publicUrl, {
    name: m.name,
    title,
    sentence,
    path: classListRefPath(m.list),
    action: 'Ouvrir Ma liste',
    reason: 'Vous recevez cet email parce que vous avez enregistré cette liste de manuels sur Cartable.',
    ...(m.unsubscribeToken ? { token: m.unsubscribeToken } : {}),
  });
}

export function renderClassListWithdrawnMail(publicUrl: string, m: ClassListWithdrawnMail): RenderedMail {
  const { title, sentence } = classListWithdrawnText(m.list, m.bookTitle);
  return mail(publicUrl, {
    name: m.name,
    title,
    sentence,
    path: `/books/${m.bookId}`,
    action: 'Voir mon annonce',
    reason: 'Vous recevez cet email parce que vous vendez ce manuel sur Cartable.',
    ...(m.unsubscribeToken ? { token: m.unsubscribeToken } : {}),
  });
}
