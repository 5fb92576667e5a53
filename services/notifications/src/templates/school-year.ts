import { alertUnsubscribe, escapeHtml, layout, type RenderedMail } from './layout.ts';

/** The two seasons that call for a reminder (« garder », the rest of the year, calls for none). */
export type ReminderSeason = 'vendre' | 'acheter';

export interface SchoolYearReminderMail {
  name: string;
  season: ReminderSeason;
  /** The member's one-click unsubscribe token. */
  unsubscribeToken?: string;
}

const REMINDERS = {
  vendre: {
    title: 'C’est le moment de vendre',
    sentence:
      'C’est le moment de vendre les manuels que votre enfant n’utilisera plus : les familles les cherchent en juin et juillet.',
    /** Plainer and shorter for one SMS with its link. */
    sms: 'C’est le moment de vendre les manuels que votre enfant n’utilisera plus.',
    path: '/ma-liste/vendre',
    action: 'Vendre mes manuels',
  },
  acheter: {
    title: 'La rentrée approche',
    sentence: 'La rentrée approche : complétez la liste de manuels de votre enfant avant septembre.',
    sms: 'La rentrée approche : complétez la liste de manuels de votre enfant avant septembre.',
    path: '/ma-liste',
    action: 'Ouvrir Ma liste',
  },
} as const satisfies Record<ReminderSeason, Record<string, string>>;

/** The notice's, the mail's and the SMS's words for a season: one wording everywhere. */
export const schoolYearReminderText = (season: ReminderSeason) => REMINDERS[season];

/** « Vendre » in June, « acheter » in August: what to do now, with the link to do it. */
export function renderSchoolYearReminderMail(publicUrl: string, mail: SchoolYearReminderMail): RenderedMail {
  const { title, sentence, path, action } = REMINDERS[mail.season];
  const url = new URL(path, publicUrl).toString();
  const settings = new URL('/profile', publicUrl).toString();
  const unsubscribe = mail.unsubscribeToken ? alertUnsubscribe(publicUrl, mail.unsubscribeToken, 'school_year') : null;
  const stop = unsubscribe?.page ?? settings;
  return {
    subject: `${title} – Cartable`,
    ...(unsubscribe ? { headers: unsubscribe.headers } : {}),
    html: layout({
      title: `Bonjour ${mail.name},`,
      body: `<p>${escapeHtml(sentence)}</p>
<p style="font-size:13px;color:#555">Ne plus recevoir ces rappels : <a href="${escapeHtml(stop)}" style="color:#3A75C4">${unsubscribe ? 'arrêter les rappels du calendrier scolaire par e-mail' : 'paramètres de votre profil'}</a>.</p>`,
      action: { label: action, url },
      reason:
        'Vous recevez cet email parce que vous avez choisi les rappels du calendrier scolaire dans votre profil Cartable.',
    }),
    text: `Bonjour ${mail.name},

${sentence}

${url}

Ne plus recevoir ces rappels : ${stop}

L'équipe Cartable`,
  };
}
