import { Link } from '@cartable/ui/router';
import { COMPANY, MINIMUM_AGE, SUPPORT_REPLY } from '../../shared/company';
import { LegalDocument, type LegalSection } from './LegalDocument';

/** Conditions d'utilisation: 11 sections (SPEC section 2). */
export const TERMS_SECTIONS: LegalSection[] = [
  {
    id: 'objet',
    title: 'Objet et acceptation des conditions',
    content: (
      <>
        <p>
          Les présentes conditions d'utilisation encadrent l'accès et l'usage du site {COMPANY.website}, édité par{' '}
          {COMPANY.name} ({COMPANY.address}), ci-après «&nbsp;Cartable&nbsp;» ou «&nbsp;la plateforme&nbsp;».
        </p>
        <p>
          En naviguant sur Cartable ou en créant un compte, vous acceptez ces conditions sans réserve. Si vous ne les
          acceptez pas, vous devez renoncer à utiliser la plateforme. Elles complètent notre{' '}
          <Link to="/privacy">politique de confidentialité</Link> et notre{' '}
          <Link to="/cookies">politique de cookies</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'service',
    title: 'Le service Cartable',
    content: (
      <>
        <p>
          Cartable est une place de marché de manuels scolaires d'occasion au Gabon. Élèves et parents y publient des
          annonces pour vendre, échanger ou donner leurs livres, du primaire au lycée, et entrent en contact grâce à la
          messagerie intégrée.
        </p>
        <p>
          <strong>
            Cartable se limite à mettre en relation les personnes qui proposent un manuel et celles qui le recherchent.
          </strong>{' '}
          La plateforme n'est ni vendeur, ni acheteur, ni intermédiaire de paiement : elle n'est pas partie aux accords
          conclus entre utilisateurs.
        </p>
        <ul>
          <li>L'inscription, la publication d'annonces et la messagerie sont gratuites.</li>
          <li>
            Cartable ne perçoit <strong>aucun frais ni aucune commission</strong> sur les ventes, les échanges ou les
            dons.
          </li>
          <li>
            La rencontre, la remise du livre et le paiement éventuel se font <strong>en dehors de la plateforme</strong>
            , directement entre les utilisateurs.
          </li>
        </ul>
        <p>
          Des formules facultatives de mise en avant des annonces peuvent être présentées sur la page{' '}
          <Link to="/subscription">Abonnement</Link>. Elles ne sont jamais nécessaires pour publier, contacter un
          vendeur ou conclure un échange, et leurs conditions sont affichées avant toute souscription.
        </p>
      </>
    ),
  },
  {
    id: 'inscription',
    title: 'Inscription et accès',
    content: (
      <>
        <p>
          La consultation des annonces est ouverte à tous. Publier une annonce, écrire à un vendeur ou commenter
          nécessite un compte dont l'adresse email a été vérifiée.
        </p>
        <p>
          Cartable est destinée aux personnes <strong>âgées de {MINIMUM_AGE} ans et plus</strong>. Un élève mineur
          utilise la plateforme avec l'accord et sous la responsabilité de ses parents ou de son représentant légal, qui
          peuvent aussi créer un compte pour lui et gérer ses annonces.
        </p>
        <p>À l'inscription, vous vous engagez à :</p>
        <ul>
          <li>fournir des informations exactes (nom, adresse email, pays et ville) et à les tenir à jour ;</li>
          <li>choisir un pseudonyme qui ne se fait pas passer pour une autre personne ou pour l'équipe Cartable ;</li>
          <li>ne créer qu'un seul compte personnel.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'compte',
    title: 'Compte utilisateur et sécurité',
    content: (
      <>
        <p>
          Vous êtes responsable de la confidentialité de votre mot de passe et de toute activité réalisée depuis votre
          compte. Choisissez un mot de passe d'au moins 8 caractères, mêlant minuscules, majuscules et chiffres, que
          vous n'utilisez nulle part ailleurs.
        </p>
        <p>
          Pour votre sécurité, la session se ferme automatiquement après 30 minutes d'inactivité, après un
          avertissement. Vous pouvez activer une vérification en deux étapes par code envoyé par email.
        </p>
        <p>
          Si vous pensez que votre compte a été utilisé par un tiers, changez votre mot de passe et prévenez-nous sans
          attendre à <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a>.
        </p>
      </>
    ),
  },
  {
    id: 'annonces',
    title: 'Règles de publication des annonces',
    content: (
      <>
        <p>
          Chaque annonce engage son auteur. En publiant sur Cartable, vous vous engagez à respecter les règles
          suivantes.
        </p>
        <h3>Ce que l'on peut proposer</h3>
        <ul>
          <li>
            Uniquement des <strong>manuels scolaires</strong> et ouvrages parascolaires (cahiers d'exercices, annales,
            livres au programme), classés par cycle, niveau et matière.
          </li>
          <li>Des livres dont vous êtes propriétaire et que vous êtes en mesure de remettre.</li>
          <li>
            Pas de photocopies, de copies numériques ou d'exemplaires contrefaits, ni d'objets sans rapport avec la
            scolarité.
          </li>
        </ul>
        <h3>Une description honnête</h3>
        <ul>
          <li>
            L'état annoncé correspond à la réalité : Neuf, Très bon état, Bon état, État acceptable ou Mauvais état.
            Signalez les pages manquantes, annotées ou surlignées et les exercices déjà remplis.
          </li>
          <li>
            Les photos (trois au maximum) montrent le livre réellement proposé, et non une image trouvée en ligne.
          </li>
          <li>Le titre, l'auteur, l'éditeur et l'année d'édition permettent d'identifier la bonne édition.</li>
        </ul>
        <h3>Prix, dons et échanges</h3>
        <ul>
          <li>Les prix sont indiqués en francs CFA (FCFA), sans décimales.</li>
          <li>Un prix de 0 FCFA signifie que le livre est donné : l'annonce est alors affichée comme un don.</li>
          <li>
            Vous pouvez indiquer que le prix est négociable ou qu'un échange est possible. Les conditions d'un échange
            se discutent par message entre les deux parties.
          </li>
        </ul>
        <p>
          Tenez vos annonces à jour : marquez un livre comme réservé ou vendu, ou supprimez l'annonce, dès qu'il n'est
          plus disponible. Cartable peut retirer sans préavis une annonce qui ne respecte pas ces règles.
        </p>
      </>
    ),
  },
  {
    id: 'mise-en-relation',
    title: 'Contacts, rencontres et paiements',
    content: (
      <>
        <p>
          La messagerie Cartable sert à poser vos questions sur un livre, à négocier le prix ou un échange et à convenir
          d'un rendez-vous. Restez courtois et répondez dans un délai raisonnable.
        </p>
        <p>
          La rencontre et le paiement éventuel ont lieu hors de la plateforme, sous la seule responsabilité des
          utilisateurs. Nous vous recommandons de :
        </p>
        <ul>
          <li>
            vous retrouver dans un lieu public et fréquenté, en journée (devant l'établissement scolaire, un marché, une
            grande surface) ;
          </li>
          <li>pour un élève mineur, venir accompagné d'un parent ou d'un adulte de confiance ;</li>
          <li>vérifier l'état du livre avant de payer ou d'échanger ;</li>
          <li>ne jamais verser d'avance ni communiquer de code de paiement mobile ou bancaire.</li>
        </ul>
        <p>
          Un vendeur peut choisir d'afficher son adresse email ou son numéro de téléphone sur ses annonces. Ces
          coordonnées ne doivent servir qu'à la transaction concernée et jamais à de la prospection.
        </p>
      </>
    ),
  },
  {
    id: 'moderation',
    title: 'Commentaires et modération',
    content: (
      <>
        <p>
          Les utilisateurs connectés peuvent commenter une annonce et répondre aux commentaires, en 2 à 500 caractères.
          Les commentaires servent à poser une question utile à tous ou à partager un avis sur un manuel.
        </p>
        <p>
          Un commentaire publié par une autre personne que l'auteur de l'annonce peut être soumis à modération avant
          d'apparaître. L'auteur de l'annonce peut modérer les commentaires de ses propres annonces ; l'équipe Cartable
          peut modérer tous les contenus.
        </p>
        <p>Sont refusés ou supprimés notamment :</p>
        <ul>
          <li>les propos injurieux, discriminatoires, menaçants ou harcelants ;</li>
          <li>les informations personnelles d'autrui (numéro, adresse, établissement d'un élève) ;</li>
          <li>la publicité, les liens frauduleux et les messages répétés ;</li>
          <li>tout contenu contraire à la loi ou inadapté à un public scolaire.</li>
        </ul>
        <p>
          Vous pouvez nous signaler un contenu inapproprié depuis la page <Link to="/contact">Contact</Link>.
        </p>
      </>
    ),
  },
  {
    id: 'suspension',
    title: 'Comportements interdits et suspension du compte',
    content: (
      <>
        <p>Il est interdit d'utiliser Cartable pour :</p>
        <ul>
          <li>tromper un autre utilisateur (faux livre, faux état, demande de paiement sans remise) ;</li>
          <li>publier des annonces en masse à des fins commerciales sans rapport avec la revente entre familles ;</li>
          <li>collecter les données des autres utilisateurs ou perturber le fonctionnement du site ;</li>
          <li>usurper l'identité d'une personne, d'un établissement ou de l'équipe Cartable.</li>
        </ul>
        <p>
          En cas de manquement à ces conditions, Cartable peut, selon la gravité des faits, retirer un contenu, adresser
          un avertissement, <strong>suspendre temporairement</strong> ou <strong>supprimer définitivement</strong> le
          compte concerné. Sauf urgence ou obligation légale, la décision vous est notifiée par email avec ses motifs,
          et vous pouvez la contester en répondant à ce message.
        </p>
        <p>
          Vous pouvez de votre côté fermer votre compte à tout moment depuis votre profil ou en nous écrivant : vos
          annonces sont alors retirées.
        </p>
      </>
    ),
  },
  {
    id: 'propriete',
    title: 'Propriété intellectuelle et contenus publiés',
    content: (
      <>
        <p>
          La marque Cartable, le logo, la charte graphique et le code du site appartiennent à {COMPANY.name}. Toute
          reproduction sans autorisation écrite est interdite.
        </p>
        <p>
          Vous restez propriétaire des textes et photos que vous publiez. Vous accordez à Cartable, pour la durée de
          publication, une autorisation gratuite de les afficher, de les redimensionner et de les diffuser sur la
          plateforme, aux seules fins du service. Vous garantissez disposer des droits nécessaires sur ces contenus.
        </p>
        <p>
          Les couvertures et contenus des manuels appartiennent à leurs éditeurs et auteurs ; les photos servent
          uniquement à présenter l'exemplaire vendu.
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
          Cartable met tout en œuvre pour offrir un service accessible et sûr, mais ne peut garantir une disponibilité
          sans interruption : des opérations de maintenance ou des incidents techniques peuvent suspendre le site
          temporairement.
        </p>
        <p>
          Chaque utilisateur est seul responsable des annonces, messages et commentaires qu'il publie. La plateforme
          n'étant pas partie aux transactions, Cartable ne garantit ni l'exactitude des annonces, ni la qualité des
          livres, ni la bonne exécution des ventes, échanges ou dons, et ne peut être tenue responsable d'un litige
          entre utilisateurs, d'un rendez-vous manqué ou d'un paiement effectué hors de la plateforme.
        </p>
        <p>
          Cartable s'efforce néanmoins d'aider à résoudre les difficultés signalées et retire rapidement les contenus
          manifestement illicites portés à sa connaissance.
        </p>
      </>
    ),
  },
  {
    id: 'assistance-droit-applicable',
    title: 'Assistance, modifications et droit applicable',
    content: (
      <>
        <h3>Assistance</h3>
        <p>
          Pour toute question ou réclamation, écrivez-nous depuis la page <Link to="/contact">Contact</Link> ou à{' '}
          <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a>. Notre équipe s'engage à vous répondre{' '}
          <strong>sous {SUPPORT_REPLY}</strong>.
        </p>
        <h3>Modification des conditions</h3>
        <p>
          Ces conditions peuvent évoluer avec le service. La date de mise à jour figure en haut de cette page ; en cas
          de changement important, les utilisateurs inscrits sont prévenus par email avant son entrée en vigueur.
        </p>
        <h3>Droit applicable et litiges</h3>
        <p>
          Les présentes conditions sont régies par le <strong>droit gabonais</strong>. En cas de différend, les parties
          recherchent d'abord une solution amiable ; à défaut, le litige est porté devant les juridictions compétentes
          de Libreville.
        </p>
      </>
    ),
  },
];

export default function TermsPage() {
  return (
    <LegalDocument
      path="/terms"
      title="Conditions d'utilisation"
      intro={
        <p>
          Les règles du jeu de Cartable, en clair : qui peut utiliser la plateforme, comment publier une annonce, ce que
          Cartable fait et ne fait pas, et comment nous joindre en cas de besoin.
        </p>
      }
      sections={TERMS_SECTIONS}
    />
  );
}
