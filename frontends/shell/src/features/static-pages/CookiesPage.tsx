import { Link } from '@cartable/ui/router';
import { COMPANY } from '../../shared/company';
import { LegalDocument, type LegalSection } from './LegalDocument';

interface StoredItem {
  key: string;
  category: 'Essentiel' | 'Préférence';
  purpose: string;
  duration: string;
}

/** What the site keeps in the browser's local storage (SPEC section 3, "Browser storage"). */
const STORED_ITEMS: StoredItem[] = [
  {
    key: 'token',
    category: 'Essentiel',
    purpose: 'Jeton de connexion qui vous garde connecté et authentifie vos actions (annonces, messages).',
    duration: 'Effacé à la déconnexion ; 1 an au maximum',
  },
  {
    key: 'user',
    category: 'Essentiel',
    purpose: 'Informations de base de votre compte (nom, pseudonyme, rôles) pour afficher votre menu sans attendre.',
    duration: 'Effacé à la déconnexion ; 1 an au maximum',
  },
  {
    key: 'cartable_member',
    category: 'Essentiel',
    purpose:
      'Cookie sans identifiant qui indique seulement qu’une session est ouverte sur cet appareil : le site ne télécharge pas pour rien la page d’une annonce telle qu’un visiteur la voit.',
    duration: 'Effacé à la déconnexion ; 1 an au maximum',
  },
  {
    key: 'cartable:last-activity',
    category: 'Essentiel',
    purpose:
      'L’heure de votre dernière action, pour vous déconnecter après une longue inactivité, dans tous vos onglets.',
    duration: '1 an au maximum',
  },
  {
    key: 'favourites',
    category: 'Préférence',
    purpose: 'Liste des identifiants des manuels que vous avez ajoutés à vos favoris.',
    duration: '2 ans au maximum',
  },
  {
    key: 'recentlyViewedBooks',
    category: 'Préférence',
    purpose: 'Les 10 derniers manuels consultés, pour les retrouver facilement.',
    duration: '2 ans au maximum',
  },
  {
    key: 'cartable_data_saver',
    category: 'Préférence',
    purpose:
      'Cookie sans identifiant qui indique que l’économie de données est activée : le site n’envoie pas d’avance les grandes photos.',
    duration: '1 an au maximum',
  },
  {
    key: 'cartable.data-saver, cartable.data-price, cartable.data-used',
    category: 'Préférence',
    purpose:
      'Votre choix d’économie de données, le prix de vos données mobiles et ce que le site a consommé ce mois-ci (affiché en bas de page).',
    duration: '2 ans au maximum',
  },
  {
    key: 'cartable.booksView',
    category: 'Préférence',
    purpose: 'L’affichage du catalogue que vous avez choisi : en grille ou en liste.',
    duration: '2 ans au maximum',
  },
  {
    key: 'safetyTipsDismissed',
    category: 'Préférence',
    purpose: 'Les conversations dont vous avez fermé les conseils de sécurité.',
    duration: '2 ans au maximum',
  },
  {
    key: 'cartable.categories.hierarchy',
    category: 'Préférence',
    purpose: 'Une copie des cycles, niveaux et matières, pour afficher les filtres sans attendre le réseau.',
    duration: '2 ans au maximum',
  },
];

function StoredItemList() {
  return (
    <ul className="mt-4! list-none! space-y-3! pl-0!">
      {STORED_ITEMS.map((item) => (
        <li key={item.key} className="rounded-lg border border-slate-200 bg-white p-4">
          <div className="flex flex-wrap items-center gap-2">
            <code>{item.key}</code>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                item.category === 'Essentiel' ? 'bg-primary-100 text-primary-800' : 'bg-ocean-100 text-ocean-800'
              }`}
            >
              {item.category}
            </span>
          </div>
          <dl className="mt-2 space-y-1 text-sm leading-6">
            <div>
              <dt className="inline font-semibold text-slate-900">Finalité : </dt>
              <dd className="inline">{item.purpose}</dd>
            </div>
            <div>
              <dt className="inline font-semibold text-slate-900">Durée : </dt>
              <dd className="inline">{item.duration}</dd>
            </div>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** Politique de cookies: 8 sections (SPEC section 2). */
export const COOKIES_SECTIONS: LegalSection[] = [
  {
    id: 'definition',
    title: "Qu'est-ce qu'un cookie ?",
    content: (
      <>
        <p>
          Un cookie est un petit fichier déposé par un site dans votre navigateur. Le <strong>stockage local</strong>{' '}
          (localStorage) fonctionne de la même façon : le site y enregistre quelques informations sur votre appareil
          pour les retrouver à votre prochaine visite.
        </p>
        <p>
          Dans cette politique, nous appelons «&nbsp;traceurs&nbsp;» l'ensemble de ces éléments. Ils restent sur votre
          appareil et vous pouvez les supprimer à tout moment.
        </p>
      </>
    ),
  },
  {
    id: 'traceurs-utilises',
    title: 'Les traceurs utilisés par Cartable',
    content: (
      <>
        <p>
          Cartable privilégie le stockage local de votre navigateur et n’y ajoute que deux petits cookies sans
          identifiant. Voici la liste complète des éléments que le site enregistre sur votre appareil :
        </p>
        <StoredItemList />
        <p>
          Dans l'espace d'administration, <code>adminSidebarCollapsed</code> retient en plus si le menu latéral est
          replié (2 ans au maximum). <strong>Aucun cookie publicitaire</strong> et aucun traceur de réseau social n'est
          utilisé sur Cartable.
        </p>
      </>
    ),
  },
  {
    id: 'essentiels',
    title: 'Traceurs essentiels',
    content: (
      <>
        <p>
          Les traceurs essentiels sont indispensables au service que vous demandez : rester connecté d'une page à
          l'autre, sécuriser vos actions, retrouver vos favoris et vos derniers manuels consultés. Ils ne servent à
          aucun suivi publicitaire et ne sont jamais partagés.
        </p>
        <p>
          Ils ne nécessitent pas votre consentement, mais vous pouvez les supprimer : vous serez alors déconnecté et vos
          favoris enregistrés sur cet appareil seront perdus.
        </p>
      </>
    ),
  },
  {
    id: 'mesure-audience',
    title: "Mesure d'audience",
    content: (
      <>
        <p>
          Pour savoir quelles pages sont utiles et améliorer le site, Cartable peut utiliser un outil de mesure
          d'audience qui produit des statistiques anonymes : nombre de visites, pages consultées, type d'appareil.
        </p>
        <ul>
          <li>ces traceurs ne sont déposés qu'avec votre accord, que vous pouvez retirer à tout moment ;</li>
          <li>votre adresse IP est tronquée et les données ne sont jamais croisées avec votre compte ;</li>
          <li>
            les cookies de mesure ont une durée de vie de <strong>13 mois</strong> au maximum, et votre choix est
            redemandé à l'issue de cette période.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'durees',
    title: 'Durées de conservation',
    content: (
      <>
        <p>Aucun traceur n'est conservé indéfiniment. Les durées maximales sont les suivantes :</p>
        <ul>
          <li>
            <strong>1 an</strong> pour les éléments de connexion (<code>token</code>, <code>user</code>,{' '}
            <code>cartable_member</code>), effacés dès que vous vous déconnectez, pour{' '}
            <code>cartable:last-activity</code> et pour le cookie <code>cartable_data_saver</code> ;
          </li>
          <li>
            <strong>2 ans</strong> pour vos autres préférences (<code>favourites</code>,{' '}
            <code>recentlyViewedBooks</code>, l’économie de données, l’affichage du catalogue, les conseils de sécurité
            fermés, la copie des catégories) ;
          </li>
          <li>
            <strong>13 mois</strong> pour les cookies de mesure d'audience déposés avec votre accord.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'services-tiers',
    title: 'Contenus de services tiers',
    content: (
      <>
        <p>Certaines pages font appel à des services extérieurs, qui appliquent leur propre politique :</p>
        <ul>
          <li>
            la carte intégrée à la page <Link to="/contact">Contact</Link> est fournie par un service de cartographie
            qui peut déposer ses propres cookies lorsque la carte s'affiche ;
          </li>
          <li>
            à l'inscription, si vous autorisez la géolocalisation, un service de géocodage reçoit votre position
            approximative pour en déduire votre pays ; il ne dépose pas de traceur par l'intermédiaire de Cartable.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'refuser-supprimer',
    title: 'Accepter, refuser ou supprimer les traceurs',
    content: (
      <>
        <p>Vous gardez le contrôle à tout moment :</p>
        <ul>
          <li>
            <strong>Se déconnecter</strong> efface immédiatement <code>token</code> et <code>user</code> de votre
            navigateur.
          </li>
          <li>
            <strong>Effacer les données du site</strong> depuis votre navigateur supprime tous les éléments listés
            ci-dessus :
            <ul>
              <li>Chrome : Paramètres › Confidentialité et sécurité › Effacer les données de navigation ;</li>
              <li>Safari (iPhone) : Réglages › Safari › Avancé › Données de sites web ;</li>
              <li>Firefox : Paramètres › Vie privée et sécurité › Cookies et données de sites.</li>
            </ul>
          </li>
          <li>
            <strong>Bloquer les cookies</strong> dans les réglages de votre navigateur est possible, mais la connexion à
            votre compte ne fonctionnera plus.
          </li>
          <li>
            <strong>Refuser la mesure d'audience</strong> n'a aucune conséquence sur l'utilisation de Cartable.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'contact',
    title: 'Contact et mises à jour',
    content: (
      <>
        <p>
          Pour toute question sur les traceurs ou sur vos données, écrivez-nous à{' '}
          <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a> ou depuis la page <Link to="/contact">Contact</Link>.
          Pour en savoir plus sur l'usage de vos données, consultez notre{' '}
          <Link to="/privacy">politique de confidentialité</Link>.
        </p>
        <p>Cette politique évolue avec le site : la date de la dernière mise à jour figure en haut de la page.</p>
      </>
    ),
  },
];

export default function CookiesPage() {
  return (
    <LegalDocument
      path="/cookies"
      title="Politique de cookies"
      intro={
        <p>
          Cartable enregistre le strict nécessaire dans votre navigateur, sans publicité ni pistage. Cette page détaille
          chaque élément, sa durée de conservation et la façon de le supprimer.
        </p>
      }
      sections={COOKIES_SECTIONS}
    />
  );
}
