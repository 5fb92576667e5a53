import {
  BelowFold,
  buttonClasses,
  HandshakeIcon,
  MessageIcon,
  PlusIcon,
  QuoteIcon,
  SearchIcon,
  StarIcon,
  SwapIcon,
  UsersIcon,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ComponentType } from 'react';

interface Step {
  title: string;
  text: string;
  Icon: ComponentType<{ size?: number }>;
}

const STEPS: Step[] = [
  { title: 'Trouvez', text: 'Cherchez le manuel de votre classe, près de chez vous.', Icon: SearchIcon },
  { title: 'Contactez', text: 'Écrivez au vendeur depuis la messagerie Cartable.', Icon: MessageIcon },
  { title: 'Négociez', text: 'Mettez-vous d’accord sur le prix ou sur un échange.', Icon: HandshakeIcon },
  { title: 'Échangez', text: 'Retrouvez-vous pour remettre le livre, sans commission.', Icon: SwapIcon },
];

/** Hard-coded figures (SPEC section 2: placeholders). */
const STATS = [
  { value: '10 000+', label: 'membres' },
  { value: '50 000+', label: 'manuels échangés' },
  { value: '60 %', label: 'd’économies en moyenne' },
  { value: '4,8/5', label: 'de satisfaction' },
];

const TESTIMONIALS = [
  {
    quote: 'J’ai trouvé tous les manuels de 3e de mon fils pour moins de la moitié du prix en librairie.',
    name: 'Mireille N.',
    role: 'Mère d’élève, Libreville',
  },
  {
    quote: 'Mes livres de Terminale sont partis en une semaine. Ils servent maintenant à d’autres élèves.',
    name: 'Junior M.',
    role: 'Bachelier, Port-Gentil',
  },
  {
    quote: 'Échanger les manuels entre familles du quartier, c’est simple, rapide et économique.',
    name: 'Patrick O.',
    role: 'Enseignant, Franceville',
  },
];

import { SectionHeading, Wrapper } from './SectionLayout';

/** Home's lower sections: how it works, the figures, selling, what families say, signing up. */
export function HowItWorks() {
  return (
    <section aria-labelledby="comment-ca-marche">
      <SectionHeading id="comment-ca-marche" title="Comment ça marche ?" />
      <ol className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        {STEPS.map(({ title, text, Icon }, index) => (
          <li key={title} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <span className="flex h-10 w-10 items-center justify-center rounded-full bg-accent-100 text-accent-800">
              <Icon size={20} />
            </span>
            <p className="mt-3 font-semibold text-slate-900">
              {index + 1}. {title}
            </p>
            <p className="mt-1 text-sm text-slate-600">{text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function Stats() {
  return (
    <BelowFold as="section" aria-label="Cartable en chiffres" className="bg-primary-800 py-8 text-white sm:py-10">
      <Wrapper>
        <dl className="grid grid-cols-2 gap-6 text-center lg:grid-cols-4">
          {STATS.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse justify-end">
              <dt className="text-sm text-primary-100">{stat.label}</dt>
              <dd className="text-2xl font-extrabold sm:text-3xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </Wrapper>
    </BelowFold>
  );
}

export function SellCta({ to }: { to: string }) {
  return (
    <section
      aria-labelledby="vendre-title"
      className="flex flex-col gap-5 rounded-2xl bg-accent-100 p-6 sm:flex-row sm:items-center sm:justify-between sm:p-8"
    >
      <div>
        <h2 id="vendre-title" className="text-xl font-bold text-slate-900 sm:text-2xl">
          Vos anciens manuels valent de l’argent
        </h2>
        <p className="mt-2 max-w-xl text-slate-700">
          Publiez une annonce en deux minutes : une photo, un prix (ou un don), votre ville. Les familles près de chez
          vous vous contactent directement.
        </p>
      </div>
      <Link to={to} className={buttonClasses('primary', 'lg', 'shrink-0')}>
        <PlusIcon size={18} /> Vendre un manuel
      </Link>
    </section>
  );
}

export function Testimonials() {
  return (
    <section aria-labelledby="temoignages-title">
      <SectionHeading id="temoignages-title" title="Ils utilisent Cartable" />
      <ul className="grid gap-4 md:grid-cols-3">
        {TESTIMONIALS.map((t) => (
          <li key={t.name}>
            <figure className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <QuoteIcon size={22} className="text-primary-300" />
              <div className="mt-2 flex gap-0.5 text-accent-500" role="img" aria-label="5 étoiles sur 5">
                {[1, 2, 3, 4, 5].map((n) => (
                  <StarIcon key={n} size={16} filled />
                ))}
              </div>
              <blockquote className="mt-3 flex-1 text-slate-700">« {t.quote} »</blockquote>
              <figcaption className="mt-4 text-sm">
                <span className="font-semibold text-slate-900">{t.name}</span>
                <span className="block text-slate-500">{t.role}</span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function SignUpCta() {
  return (
    <section
      aria-labelledby="inscription-title"
      className="rounded-2xl bg-ocean-700 p-6 text-center text-white sm:p-10"
    >
      <UsersIcon size={32} className="mx-auto text-ocean-100" />
      <h2 id="inscription-title" className="mt-3 text-2xl font-bold">
        Rejoignez les familles de Cartable
      </h2>
      <p className="mx-auto mt-2 max-w-xl text-ocean-50">
        Créez votre compte gratuitement pour contacter les vendeurs, garder vos favoris et publier vos annonces.
      </p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to="/register" className={buttonClasses('accent', 'lg')}>
          Créer mon compte
        </Link>
        <Link
          to="/login"
          className={buttonClasses('outline', 'lg', 'border-white/60 bg-white/10 text-white hover:bg-white/20')}
        >
          Se connecter
        </Link>
      </div>
    </section>
  );
}
