import { buttonClasses, ComingSoon, Container, PageHeader, useDocumentTitle } from '@cartable/ui';
import { Link } from '@cartable/ui/router';

/**
 * A path the catalog does not know. The shell answers unknown paths with its own not-found page;
 * this one only shows when a catalog path is mistyped below a known prefix.
 */
export function NotFoundPage() {
  useDocumentTitle('Page introuvable');
  return (
    <Container className="py-8 sm:py-12">
      <PageHeader title="Page introuvable" />
      <ComingSoon
        title="Cette page n’existe pas"
        description="Le lien est peut-être incomplet, ou l’annonce a été retirée. Retrouvez les manuels depuis le catalogue."
        action={
          <>
            <Link to="/" className={buttonClasses('primary')}>
              Retour à l'accueil
            </Link>
            <Link to="/books" className={buttonClasses('outline')}>
              Parcourir les manuels
            </Link>
          </>
        }
      />
    </Container>
  );
}
