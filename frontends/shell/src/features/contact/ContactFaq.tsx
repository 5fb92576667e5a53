import { ChevronDownIcon, cn } from '@cartable/ui';
import { type ReactNode, useId, useState } from 'react';
import { COMPANY, SUPPORT_REPLY } from '../../shared/company';

const FAQ: Array<{ question: string; answer: ReactNode }> = [
  {
    question: 'Comment vendre ou donner un manuel sur Cartable ?',
    answer:
      "Créez un compte, confirmez votre adresse email puis cliquez sur « Ajouter ». Décrivez le manuel, son état, ajoutez jusqu'à 3 photos et fixez un prix (0 FCFA pour un don). Votre annonce est visible immédiatement.",
  },
  {
    question: 'Cartable prend-il une commission sur les ventes ?',
    answer:
      "Non. Cartable met simplement en relation les familles : aucun frais ni aucune commission n'est prélevé sur les ventes, les échanges ou les dons.",
  },
  {
    question: 'Comment se passent le paiement et la remise du manuel ?',
    answer:
      "Vous vous mettez d'accord avec l'autre partie par la messagerie de Cartable. Le paiement et la remise se font en dehors de la plateforme : privilégiez un lieu public et vérifiez l'état du manuel avant de payer.",
  },
  {
    question: 'Comment signaler une annonce ou un comportement suspect ?',
    answer: `Écrivez-nous avec le formulaire ci-dessus ou à ${COMPANY.email} en précisant le lien de l'annonce. Notre équipe vérifie chaque signalement et vous répond sous ${SUPPORT_REPLY}.`,
  },
];

/** One question, its answer shown on demand (a disclosure button). */
function FaqItem({ question, answer }: { question: string; answer: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <li className="border-b border-slate-200 last:border-0">
      <h3>
        <button
          type="button"
          id={`${id}-button`}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full items-center justify-between gap-4 px-4 py-4 text-left font-semibold text-slate-900 hover:bg-slate-50 sm:px-5"
        >
          {question}
          <ChevronDownIcon
            size={20}
            className={cn('shrink-0 text-slate-500 transition-transform', open && 'rotate-180')}
          />
        </button>
      </h3>
      <section
        id={`${id}-panel`}
        aria-labelledby={`${id}-button`}
        hidden={!open}
        className="px-4 pb-4 text-sm text-slate-700 sm:px-5"
      >
        {answer}
      </section>
    </li>
  );
}

/** « Questions fréquentes »: the questions a family asks before writing. */
export function ContactFaq() {
  return (
    <section aria-labelledby="faq-title" className="mt-12">
      <h2 id="faq-title" className="text-2xl font-bold text-slate-900">
        Questions fréquentes
      </h2>
      <ul className="mt-4 overflow-hidden rounded-xl border border-slate-200 bg-white">
        {FAQ.map((item) => (
          <FaqItem key={item.question} question={item.question} answer={item.answer} />
        ))}
      </ul>
    </section>
  );
}
