import { Badge, ChevronRightIcon, Container, useDocumentTitle } from '@cartable/ui';
import { Link, useLocation } from '@cartable/ui/router';
import { type ReactNode, useEffect } from 'react';
import { COMPANY, LAST_UPDATED } from '../../shared/company';

export interface LegalSection {
  /** Anchor of the section (`/terms#moderation`): lowercase, no accents. */
  id: string;
  title: string;
  content: ReactNode;
}

export interface LegalDocumentProps {
  /** Page heading and document title. */
  title: string;
  /** Short lead paragraph under the heading. */
  intro: ReactNode;
  sections: LegalSection[];
  /** Path of the page itself, left out of the "see also" links. */
  path: string;
}

const RELATED = [
  { to: '/terms', label: "Conditions d'utilisation" },
  { to: '/privacy', label: 'Politique de confidentialité' },
  { to: '/cookies', label: 'Politique de cookies' },
  { to: '/legal', label: 'Mentions légales' },
];

/**
 * Reading styles for the body of a section: comfortable line height, spaced paragraphs and
 * lists, visible links. The line length is capped by the article (`max-w-prose`).
 */
const PROSE = [
  'text-base leading-7 text-slate-700',
  '[&_p]:mt-4 [&_p:first-child]:mt-0',
  '[&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ul]:marker:text-primary-600',
  '[&_li_ul]:mt-2 [&_li_ul]:list-[circle]',
  '[&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6',
  '[&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-slate-900',
  '[&_strong]:font-semibold [&_strong]:text-slate-900',
  '[&_a]:font-medium [&_a]:text-primary-700 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-primary-800',
  '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1.5 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-sm [&_code]:text-slate-800',
].join(' ');

/** Scrolls to the section named in the URL once the (lazy) page is on screen: `/privacy#droits`. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (target) target.scrollIntoView({ block: 'start' });
  }, [hash]);
}

/** "Dernière mise à jour : 1er juin 2025". */
export function LastUpdated({ className }: { className?: string }) {
  return (
    <p className={className}>
      Dernière mise à jour : <time dateTime={LAST_UPDATED.iso}>{LAST_UPDATED.label}</time>
    </p>
  );
}

/**
 * A legal document (terms, privacy, cookies, legal notice): heading with the revision date, a
 * table of contents (beside the text on large screens, above it on phones) and numbered sections
 * with anchors, then links to the other documents.
 */
export function LegalDocument({ title, intro, sections, path }: LegalDocumentProps) {
  useDocumentTitle(title);
  useScrollToHash();
  return (
    <article aria-labelledby="document-title">
      <header className="border-b border-slate-200 bg-white">
        <Container className="py-8 sm:py-12">
          <Badge tone="primary">Informations légales</Badge>
          <h1 id="document-title" className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {title}
          </h1>
          <LastUpdated className="mt-2 text-sm font-medium text-slate-500" />
          <div className="mt-5 max-w-prose text-base leading-7 text-slate-700 sm:text-lg sm:leading-8">{intro}</div>
        </Container>
      </header>

      <Container className="py-8 sm:py-12 lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:items-start lg:gap-12 xl:grid-cols-[17rem_minmax(0,1fr)]">
        <nav
          id="sommaire"
          aria-labelledby="sommaire-title"
          className="mb-10 scroll-mt-24 rounded-xl border border-slate-200 bg-white p-5 shadow-sm lg:sticky lg:top-24 lg:mb-0 lg:max-h-[calc(100dvh-7rem)] lg:overflow-y-auto"
        >
          <h2 id="sommaire-title" className="text-sm font-semibold tracking-wide text-slate-500 uppercase">
            Sommaire
          </h2>
          <ol className="mt-3 space-y-1">
            {sections.map((section, index) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="flex gap-2 rounded-md px-2 py-1.5 text-sm leading-snug text-slate-700 hover:bg-primary-50 hover:text-primary-800"
                >
                  <span className="w-7 shrink-0 text-right font-semibold text-primary-700 tabular-nums">
                    {index + 1}.
                  </span>
                  <span>{section.title}</span>
                </a>
              </li>
            ))}
          </ol>
        </nav>

        <div className="max-w-prose">
          {sections.map((section, index) => (
            <section
              key={section.id}
              id={section.id}
              aria-labelledby={`${section.id}-title`}
              className="scroll-mt-24 border-b border-slate-200 pt-8 pb-8 first:pt-0 last:border-b-0"
            >
              <h2 id={`${section.id}-title`} className="flex gap-2 text-xl font-bold text-slate-900 sm:text-2xl">
                <span className="text-primary-700 tabular-nums">{index + 1}.</span>
                <span>{section.title}</span>
              </h2>
              <div className={`mt-4 ${PROSE}`}>{section.content}</div>
              <p className="mt-6 lg:hidden">
                <a href="#sommaire" className="tap-target text-sm font-medium text-slate-500 hover:text-primary-700">
                  <span aria-hidden="true">↑ </span>Retour au sommaire
                </a>
              </p>
            </section>
          ))}

          <aside aria-labelledby="related-title" className="mt-10 rounded-xl bg-slate-100 p-5 sm:p-6">
            <h2 id="related-title" className="text-base font-semibold text-slate-900">
              Consulter aussi
            </h2>
            <ul className="mt-3 grid gap-2 sm:grid-cols-2">
              {RELATED.filter((link) => link.to !== path).map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="flex items-center justify-between gap-2 rounded-lg bg-white px-4 py-3 text-sm font-medium text-slate-800 shadow-sm hover:text-primary-700"
                  >
                    {link.label}
                    <ChevronRightIcon size={16} />
                  </Link>
                </li>
              ))}
              <li>
                <Link
                  to="/contact"
                  className="flex items-center justify-between gap-2 rounded-lg bg-white px-4 py-3 text-sm font-medium text-slate-800 shadow-sm hover:text-primary-700"
                >
                  Une question ? Nous contacter
                  <ChevronRightIcon size={16} />
                </Link>
              </li>
            </ul>
            <p className="mt-4 text-sm text-slate-600">
              Vous pouvez aussi nous écrire à{' '}
              <a href={`mailto:${COMPANY.email}`} className="font-medium text-primary-700 underline underline-offset-2">
                {COMPANY.email}
              </a>
              .
            </p>
          </aside>
        </div>
      </Container>
    </article>
  );
}
