import { Link } from '@cartable/ui/router';
import { COMPANY, MINIMUM_AGE, SUPPORT_REPLY } from '../../shared/company';
import { LegalDocument, type LegalSection } from './LegalDocument';

/** Politique de confidentialité: 10 sections (SPEC section 2). */
export const PRIVACY_SECTIONS: LegalSection[] = [
  {
    id: 'donnees-collectees',
    title: 'Données que nous collectons',
    content: (
      <>
        <p>Nous ne collectons que les données utiles au fonctionnement de Cartable.</p>
        <h3>Votre compte</h3>
        <ul>
          <li>nom, pseudonyme et adresse email ;</li>
          <li>mot de passe, conservé uniquement sous forme hachée ;</li>
          <li>pays et ville, photo de profil et numéro de téléphone si vous choisissez de les renseigner ;</li>
          <li>
            pays deviné à l'inscription grâce à la géolocalisation de votre navigateur, seulement si vous l'autorisez :
            seul le code du pays sert à préremplir le formulaire, votre position n'est pas conservée.
          </li>
        </ul>
        <h3>Vos annonces et contributions</h3>
        <ul>
          <li>titre, auteur, éditeur, ISBN, état, prix, ville, description et photos des manuels que vous publiez ;</li>
          <li>commentaires publiés sous les annonces ;</li>
          <li>favoris, transactions et évaluations liées à votre compte.</li>
        </ul>
        <h3>Vos messages</h3>
        <ul>
          <li>
            messages échangés avec d'autres utilisateurs via la messagerie, et copie par email lorsque vous la
            demandez ;
          </li>
          <li>messages envoyés à l'équipe depuis le formulaire de contact (nom, email, sujet, message).</li>
        </ul>
        <h3>Données techniques</h3>
        <ul>
          <li>adresse IP, type de navigateur et d'appareil, dates et heures de connexion ;</li>
          <li>
            journaux de sécurité (tentatives de connexion, erreurs) et éléments enregistrés dans votre navigateur,
            décrits dans notre <Link to="/cookies">politique de cookies</Link>.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'finalites',
    title: 'Pourquoi nous utilisons vos données',
    content: (
      <ul>
        <li>créer et sécuriser votre compte, vérifier votre adresse email et vous connecter ;</li>
        <li>publier vos annonces et les rendre visibles dans le catalogue et la recherche ;</li>
        <li>
          permettre les échanges entre acheteurs et vendeurs par la messagerie et vous prévenir des nouveaux messages ;
        </li>
        <li>modérer les commentaires et lutter contre la fraude, le spam et les abus ;</li>
        <li>répondre à vos demandes d'assistance ;</li>
        <li>mesurer la fréquentation du site de façon globale et l'améliorer ;</li>
        <li>respecter nos obligations légales.</li>
      </ul>
    ),
  },
  {
    id: 'bases-legales',
    title: 'Bases légales des traitements',
    content: (
      <>
        <p>
          Nous traitons vos données dans le respect de la loi gabonaise n° 001/2011 du 25 septembre 2011 relative à la
          protection des données à caractère personnel. Chaque traitement repose sur l'une des bases suivantes :
        </p>
        <ul>
          <li>
            <strong>l'exécution des conditions d'utilisation</strong> que vous acceptez en vous inscrivant : compte,
            annonces, messagerie, commentaires ;
          </li>
          <li>
            <strong>notre intérêt légitime</strong> à sécuriser la plateforme, prévenir la fraude et améliorer le
            service ;
          </li>
          <li>
            <strong>votre consentement</strong> pour la géolocalisation à l'inscription, l'affichage de vos coordonnées
            sur vos annonces et les traceurs de mesure d'audience, que vous pouvez retirer à tout moment ;
          </li>
          <li>
            <strong>nos obligations légales</strong>, par exemple répondre à une réquisition d'une autorité judiciaire.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'conservation',
    title: 'Durées de conservation',
    content: (
      <ul>
        <li>
          <strong>Compte</strong> : tant qu'il est actif. Un compte inutilisé pendant 3 ans est supprimé, après un email
          de rappel.
        </li>
        <li>
          <strong>Annonces et commentaires</strong> : jusqu'à leur suppression par vous ou par la modération, et au plus
          tard à la suppression du compte.
        </li>
        <li>
          <strong>Messages</strong> : tant que le compte existe, puis effacés dans les 30 jours suivant sa suppression.
        </li>
        <li>
          <strong>Demandes de contact</strong> : 3 ans après le dernier échange.
        </li>
        <li>
          <strong>Journaux techniques et de sécurité</strong> : 12 mois.
        </li>
        <li>
          <strong>Sauvegardes</strong> : écrasées automatiquement sous 30 jours.
        </li>
      </ul>
    ),
  },
  {
    id: 'partage',
    title: 'Partage des données',
    content: (
      <>
        <p>
          <strong>Cartable ne vend ni ne loue vos données personnelles</strong>, et ne les transmet à aucun annonceur.
        </p>
        <ul>
          <li>
            <strong>Les autres utilisateurs</strong> voient votre pseudonyme, votre photo de profil, votre ville, vos
            annonces et vos commentaires publiés, ainsi que votre note moyenne.
          </li>
          <li>
            <strong>Votre adresse email et votre numéro de téléphone</strong> ne sont affichés sur vos annonces que si
            vous choisissez de les montrer dans votre profil, et seulement après un clic de l'acheteur sur
            «&nbsp;afficher&nbsp;». Sinon, on vous contacte uniquement par la messagerie.
          </li>
          <li>
            <strong>Nos prestataires techniques</strong> (hébergement, stockage des photos, envoi des emails) traitent
            les données pour notre compte, selon nos instructions et avec des garanties de confidentialité.
          </li>
          <li>
            <strong>Les autorités</strong>, uniquement sur demande légale.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'securite',
    title: 'Sécurité',
    content: (
      <>
        <p>Nous protégeons vos données par des mesures techniques et organisationnelles adaptées :</p>
        <ul>
          <li>
            mots de passe hachés avec un algorithme robuste : personne, pas même l'équipe Cartable, ne peut les lire ;
          </li>
          <li>connexions chiffrées (HTTPS) entre votre navigateur et nos serveurs ;</li>
          <li>vérification de l'adresse email, vérification en deux étapes facultative par code à 6 chiffres ;</li>
          <li>déconnexion automatique après 30 minutes d'inactivité et limitation des tentatives de connexion ;</li>
          <li>accès aux outils d'administration réservé à quelques personnes habilitées.</li>
        </ul>
        <p>
          En cas de violation de données présentant un risque pour vous, nous vous en informons dans les meilleurs
          délais, ainsi que l'autorité compétente.
        </p>
      </>
    ),
  },
  {
    id: 'droits',
    title: 'Vos droits',
    content: (
      <>
        <p>Vous disposez à tout moment des droits suivants sur vos données :</p>
        <ul>
          <li>
            <strong>accès</strong> : savoir quelles données nous détenons et en obtenir une copie ;
          </li>
          <li>
            <strong>rectification</strong> : corriger des informations inexactes, directement depuis votre profil ;
          </li>
          <li>
            <strong>suppression</strong> : supprimer votre compte depuis votre profil ou nous demander l'effacement de
            vos données ;
          </li>
          <li>
            <strong>opposition</strong> : refuser certains traitements, comme la mesure d'audience.
          </li>
        </ul>
        <p>
          Pour exercer ces droits, écrivez à <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a> avec l'objet
          «&nbsp;Données personnelles&nbsp;». Nous accusons réception sous {SUPPORT_REPLY} et répondons au plus tard
          dans un délai d'un mois. Si vous estimez que vos droits ne sont pas respectés, vous pouvez saisir la
          Commission nationale pour la protection des données à caractère personnel (CNPDCP).
        </p>
      </>
    ),
  },
  {
    id: 'mineurs',
    title: 'Mineurs',
    content: (
      <>
        <p>
          Cartable s'adresse aux personnes <strong>âgées de {MINIMUM_AGE} ans et plus</strong>. Les élèves plus jeunes
          peuvent profiter de la plateforme par l'intermédiaire du compte de leurs parents.
        </p>
        <p>
          Entre {MINIMUM_AGE} et 18 ans, l'utilisation se fait avec l'accord d'un parent ou représentant légal, qui peut
          exercer les droits décrits ci-dessus au nom de l'élève. Si vous apprenez qu'un enfant de moins de{' '}
          {MINIMUM_AGE} ans a créé un compte, signalez-le-nous : nous le supprimerons.
        </p>
      </>
    ),
  },
  {
    id: 'cookies',
    title: 'Cookies et stockage local',
    content: (
      <p>
        Cartable enregistre quelques informations dans votre navigateur pour vous garder connecté, retenir vos favoris
        et vos derniers manuels consultés. Aucun traceur publicitaire n'est utilisé. Le détail des éléments enregistrés,
        leur durée et la manière de les supprimer figurent dans notre <Link to="/cookies">politique de cookies</Link>.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Responsable du traitement et contact',
    content: (
      <>
        <p>
          Le responsable du traitement est <strong>{COMPANY.name}</strong>, {COMPANY.address}.
        </p>
        <p>
          Pour toute question sur cette politique ou sur vos données :{' '}
          <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a> ou la page <Link to="/contact">Contact</Link>. Cette
          politique peut être mise à jour ; la date de la dernière version figure en haut de la page et tout changement
          important vous est annoncé par email.
        </p>
      </>
    ),
  },
];

export default function PrivacyPage() {
  return (
    <LegalDocument
      path="/privacy"
      title="Politique de confidentialité"
      intro={
        <p>
          Vendre un manuel ou en chercher un ne devrait pas coûter votre vie privée. Voici, sans jargon, quelles données
          Cartable utilise, pourquoi, combien de temps, et comment garder la main dessus.
        </p>
      }
      sections={PRIVACY_SECTIONS}
    />
  );
}
