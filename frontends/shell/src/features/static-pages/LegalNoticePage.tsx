import { Link } from '@cartable/ui/router';
import type { ReactNode } from 'react';
import { COMPANY, HOSTING, LEGAL_PHONE_HOURS, SUPPORT_REPLY } from '../../shared/company';
import { LegalDocument, type LegalSection } from './LegalDocument';

/** Label / value pairs of the legal notice, read aloud as a description list. */
function Facts({ children }: { children: ReactNode }) {
  return (
    <dl className="mt-4 divide-y divide-slate-200 overflow-hidden rounded-lg border border-slate-200 bg-white">
      {children}
    </dl>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 px-4 py-3 sm:grid-cols-[11rem_minmax(0,1fr)] sm:gap-4">
      <dt className="text-sm font-semibold text-slate-900">{label}</dt>
      <dd className="text-sm leading-6 text-slate-700">{children}</dd>
    </div>
  );
}

/** Mentions légales: 7 sections (SPEC section 2). */
export const LEGAL_NOTICE_SECTIONS: LegalSection[] = [
  {
    id: 'editeur',
    title: 'Éditeur du site',
    content: (
      <>
        <p>
          Le site {COMPANY.website} et la plateforme Cartable sont édités par {COMPANY.name}, {COMPANY.form}.
        </p>
        <Facts>
          <Fact label="Dénomination">{COMPANY.name}</Fact>
          <Fact label="Siège social">{COMPANY.address}</Fact>
          <Fact label="Email">
            <a href={`mailto:${COMPANY.email}`} className="tap-target">
              {COMPANY.email}
            </a>
          </Fact>
          <Fact label="Téléphone">
            <a href={COMPANY.phoneHref} className="tap-target">
              {COMPANY.phone}
            </a>
          </Fact>
        </Facts>
      </>
    ),
  },
  {
    id: 'directeur-publication',
    title: 'Directeur de la publication',
    content: (
      <p>
        Le directeur de la publication est le représentant légal de {COMPANY.name}. Il peut être joint à l'adresse{' '}
        <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a>, avec la mention «&nbsp;À l'attention du directeur de la
        publication&nbsp;».
      </p>
    ),
  },
  {
    id: 'hebergement',
    title: 'Hébergement',
    content: (
      <>
        <p>
          Le site, ses bases de données et les photos des annonces sont hébergés sur des serveurs exploités par{' '}
          {HOSTING.operator}.
        </p>
        <Facts>
          <Fact label="Exploitant">{HOSTING.operator}</Fact>
          <Fact label="Localisation">{HOSTING.location}</Fact>
          <Fact label="Contact">
            <a href={`mailto:${HOSTING.email}`} className="tap-target">
              {HOSTING.email}
            </a>
          </Fact>
        </Facts>
      </>
    ),
  },
  {
    id: 'contact',
    title: 'Nous contacter',
    content: (
      <>
        <p>L'équipe Cartable est à votre écoute pour toute question, signalement ou réclamation.</p>
        <Facts>
          <Fact label="Email">
            <a href={`mailto:${COMPANY.email}`} className="tap-target">
              {COMPANY.email}
            </a>
          </Fact>
          <Fact label="Téléphone">
            <a href={COMPANY.phoneHref} className="tap-target">
              {COMPANY.phone}
            </a>
            , {LEGAL_PHONE_HOURS}
          </Fact>
          <Fact label="Formulaire">
            <Link to="/contact" className="tap-target">
              page Contact
            </Link>
          </Fact>
          <Fact label="Adresse">{COMPANY.address}</Fact>
        </Facts>
        <p>Nous répondons aux messages écrits sous {SUPPORT_REPLY}.</p>
      </>
    ),
  },
  {
    id: 'propriete-intellectuelle',
    title: 'Propriété intellectuelle',
    content: (
      <>
        <p>
          La marque Cartable, le logo, la charte graphique, les textes et le code du site sont la propriété exclusive de{' '}
          {COMPANY.name}. Toute reproduction, représentation ou adaptation, totale ou partielle, sans autorisation
          écrite préalable est interdite.
        </p>
        <p>
          Les annonces, photos et commentaires restent la propriété de leurs auteurs, qui autorisent leur affichage sur
          la plateforme. Les titres, couvertures et contenus des manuels appartiennent à leurs éditeurs et auteurs
          respectifs.
        </p>
      </>
    ),
  },
  {
    id: 'responsabilite',
    title: 'Responsabilité',
    content: (
      <>
        <p>
          {COMPANY.name} veille à l'exactitude des informations publiées par ses soins, mais ne peut garantir l'absence
          d'erreur ni une disponibilité permanente du site.
        </p>
        <p>
          Les annonces, messages et commentaires sont publiés sous la seule responsabilité de leurs auteurs. Cartable
          met en relation les utilisateurs sans intervenir dans leurs ventes, échanges ou dons, ni dans les paiements
          qui ont lieu en dehors de la plateforme. Les liens vers des sites extérieurs n'engagent pas la responsabilité
          de {COMPANY.name}.
        </p>
        <p>
          Pour signaler un contenu illicite, écrivez à <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a> en
          précisant l'adresse de la page concernée. Voir aussi nos <Link to="/terms">conditions d'utilisation</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'droit-applicable',
    title: 'Droit applicable',
    content: (
      <p>
        Les présentes mentions légales sont régies par le droit gabonais. Tout litige relatif à l'utilisation du site
        relève, à défaut de solution amiable, de la compétence des juridictions de Libreville.
      </p>
    ),
  },
];

export default function LegalNoticePage() {
  return (
    <LegalDocument
      path="/legal"
      title="Mentions légales"
      intro={
        <p>
          Qui édite Cartable, où le site est hébergé et comment nous joindre : les informations légales de la
          plateforme, en un coup d'œil.
        </p>
      }
      sections={LEGAL_NOTICE_SECTIONS}
    />
  );
}
