import {
  Badge,
  BookIcon,
  buttonClasses,
  CheckCircleIcon,
  Container,
  HandshakeIcon,
  RefreshIcon,
  ShieldIcon,
  UsersIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ComponentType } from 'react';
import { SUPPORT_REPLY } from '../../shared/company';

/** Marketing figures (SPEC section 2, About). */
export const KEY_FIGURES = [
  { value: '10 000+', label: 'utilisateurs inscrits' },
  { value: '50 000+', label: 'livres échangés' },
  { value: '60 %', label: "d'économies en moyenne par rapport au neuf" },
  { value: '4,8/5', label: 'de satisfaction moyenne' },
];

interface Value {
  title: string;
  text: string;
  Icon: ComponentType<{ size?: number }>;
  tint: string;
}

const VALUES: Value[] = [
  {
    title: 'Accessibilité',
    text: "La réussite scolaire ne devrait pas dépendre du budget des familles. Un manuel d'occasion coûte en moyenne 60 % de moins que le neuf.",
    Icon: BookIcon,
    tint: 'bg-primary-50 text-primary-700',
  },
  {
    title: 'Confiance',
    text: `Des annonces honnêtes, un état décrit avec précision, des commentaires modérés et une équipe qui répond sous ${SUPPORT_REPLY}.`,
    Icon: ShieldIcon,
    tint: 'bg-ocean-50 text-ocean-700',
  },
  {
    title: 'Solidarité',
    text: "Vendre, échanger ou donner : chaque famille choisit. Les dons à 0 FCFA permettent à d'autres élèves de démarrer l'année équipés.",
    Icon: HandshakeIcon,
    tint: 'bg-accent-100 text-accent-800',
  },
  {
    title: 'Durabilité',
    text: 'Un manuel qui sert trois ou quatre rentrées, ce sont moins de livres jetés et moins de papier gaspillé.',
    Icon: RefreshIcon,
    tint: 'bg-primary-50 text-primary-700',
  },
];

const HIGHLIGHTS = [
  'Inscription, annonces et messagerie gratuites',
  'Aucune commission : la rencontre et le paiement se font entre vous',
  'Du primaire au lycée, classés par cycle, niveau et matière',
  'Vente, échange ou don : à vous de choisir',
];

const HISTORY = [
  {
    year: '2023',
    title: "L'idée naît à Libreville",
    text: "À la rentrée, des parents d'élèves constatent que la liste des manuels dépasse souvent 100 000 FCFA par enfant, alors que les livres de l'année précédente dorment dans les placards. Un premier groupe d'échange entre familles voit le jour.",
  },
  {
    year: '2024',
    title: 'Cartable se lance en ligne',
    text: 'La plateforme ouvre à Libreville, Owendo et Akanda, puis à Port-Gentil et Franceville. Les manuels sont classés selon les programmes gabonais, du CP à la Terminale, pour retrouver en quelques secondes le livre de sa classe.',
  },
  {
    year: '2025',
    title: 'Partout au Gabon',
    text: "Messagerie intégrée, commentaires modérés, annonces dans les neuf provinces : Cartable devient le réflexe de la rentrée pour des milliers d'élèves et de parents, d'Oyem à Tchibanga.",
  },
];

export default function AboutPage() {
  useDocumentTitle('À propos');
  const { isAuthenticated } = useSession();
  return (
    <>
      <section aria-labelledby="about-title" className="relative overflow-hidden bg-primary-800 text-white">
        <div
          aria-hidden="true"
          className="absolute inset-0 bg-[radial-gradient(circle_at_85%_15%,var(--color-primary-500),transparent_55%),radial-gradient(circle_at_10%_100%,var(--color-ocean-600),transparent_50%)] opacity-80"
        />
        <Container className="relative py-12 sm:py-20">
          <Badge tone="accent" className="mb-4">
            À propos de Cartable
          </Badge>
          <h1 id="about-title" className="max-w-3xl text-3xl leading-tight font-extrabold tracking-tight sm:text-5xl">
            Chaque manuel mérite une deuxième rentrée
          </h1>
          <p className="mt-4 max-w-2xl text-base leading-7 text-primary-50 sm:text-lg sm:leading-8">
            Cartable met en relation les élèves et les parents du Gabon pour vendre, échanger ou donner leurs manuels
            scolaires d'occasion. Simple, local et sans commission.
          </p>
        </Container>
        <div aria-hidden="true" className="relative flex h-1.5">
          <span className="flex-1 bg-primary-500" />
          <span className="flex-1 bg-accent-400" />
          <span className="flex-1 bg-ocean-500" />
        </div>
      </section>

      <Container className="space-y-16 py-10 sm:space-y-20 sm:py-16">
        <section aria-labelledby="figures-title">
          <h2 id="figures-title" className="sr-only">
            Cartable en chiffres
          </h2>
          <ul className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            {KEY_FIGURES.map((figure) => (
              <li
                key={figure.label}
                className="rounded-xl border border-slate-200 bg-white p-4 text-center shadow-sm sm:p-6"
              >
                <span className="block text-2xl font-extrabold whitespace-nowrap text-primary-700 min-[400px]:text-3xl sm:text-4xl">
                  {figure.value}
                </span>
                <span className="mt-1 block text-sm leading-snug text-slate-600">{figure.label}</span>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="mission-title" className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_24rem] lg:gap-12">
          <div className="max-w-prose">
            <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Notre mission</p>
            <h2 id="mission-title" className="mt-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
              Rendre les manuels scolaires accessibles à toutes les familles
            </h2>
            <div className="mt-5 space-y-4 text-base leading-7 text-slate-700">
              <p>
                Chaque année, la rentrée pèse lourd sur le budget des familles gabonaises. Pourtant, les manuels de
                l'année précédente sont souvent en parfait état : ils n'attendent qu'un nouvel élève.
              </p>
              <p>
                Cartable rapproche la famille dont l'enfant passe en seconde de celle qui entre en troisième, le lycéen
                de Port-Gentil qui vend ses annales du candidat au bac qui les cherche. Vous trouvez le livre de votre
                classe près de chez vous, vous écrivez au vendeur depuis la messagerie, puis vous vous retrouvez pour la
                remise.
              </p>
              <p>
                Nous ne sommes ni un magasin, ni un intermédiaire de paiement : la plateforme met simplement les gens en
                relation, gratuitement.
              </p>
            </div>
          </div>
          <div className="self-start rounded-2xl border border-primary-100 bg-primary-50 p-6">
            <h3 className="text-lg font-semibold text-primary-900">Cartable en bref</h3>
            <ul className="mt-4 space-y-3">
              {HIGHLIGHTS.map((item) => (
                <li key={item} className="flex gap-3 text-sm leading-6 text-slate-800">
                  <span className="mt-0.5 shrink-0 text-primary-700">
                    <CheckCircleIcon size={20} />
                  </span>
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="values-title">
          <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Nos valeurs</p>
          <h2 id="values-title" className="mt-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            Ce qui nous guide
          </h2>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map(({ title, text, Icon, tint }) => (
              <li key={title} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
                <span className={`flex h-11 w-11 items-center justify-center rounded-lg ${tint}`}>
                  <Icon size={22} />
                </span>
                <h3 className="mt-4 font-semibold text-slate-900">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="history-title">
          <p className="text-sm font-semibold tracking-wide text-primary-700 uppercase">Notre histoire</p>
          <h2 id="history-title" className="mt-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            D'un groupe de parents à une communauté nationale
          </h2>
          <ol className="mt-8 max-w-3xl space-y-8 border-l-2 border-primary-200 pl-6 sm:pl-8">
            {HISTORY.map((step) => (
              <li key={step.year} className="relative">
                <span
                  aria-hidden="true"
                  className="absolute top-1 -left-[calc(1.5rem+7px)] h-3 w-3 rounded-full bg-primary-600 ring-4 ring-slate-50 sm:-left-[calc(2rem+7px)]"
                />
                <p className="text-sm font-bold text-primary-700">{step.year}</p>
                <h3 className="mt-1 text-lg font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-2 leading-7 text-slate-700">{step.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section
          aria-labelledby="join-title"
          className="rounded-2xl bg-slate-900 px-6 py-10 text-center text-white sm:px-12 sm:py-14"
        >
          <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-white/10 text-accent-400">
            <UsersIcon size={28} />
          </span>
          <h2 id="join-title" className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
            Rejoignez la communauté Cartable
          </h2>
          <p className="mx-auto mt-3 max-w-xl leading-7 text-slate-300">
            {isAuthenticated
              ? 'Un manuel qui ne sert plus ? Publiez-le en deux minutes et aidez un autre élève à bien commencer l’année.'
              : 'Créez votre compte gratuitement pour publier vos manuels et écrire aux vendeurs, ou parcourez dès maintenant les annonces près de chez vous.'}
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            {isAuthenticated ? (
              <Link to="/books/add" className={buttonClasses('accent', 'lg')}>
                Ajouter un manuel
              </Link>
            ) : (
              <Link to="/register" className={buttonClasses('accent', 'lg')}>
                Créer un compte gratuit
              </Link>
            )}
            <Link
              to="/books"
              className={buttonClasses(
                'outline',
                'lg',
                'border-white/50 bg-white/10 text-white hover:bg-white/20 active:bg-white/30',
              )}
            >
              Parcourir les manuels
            </Link>
          </div>
        </section>
      </Container>
    </>
  );
}
