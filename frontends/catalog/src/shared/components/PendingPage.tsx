import { buttonClasses, ComingSoon, Container, PageHeader, useDocumentTitle } from '@cartable/ui';
import { Link } from '@cartable/ui/router';

/** A catalog screen delivered by a later iteration. */
export function PendingPage({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <Container className="py-8 sm:py-12">
      <PageHeader title={title} />
      <ComingSoon
        title="Écran en préparation"
        description="Cette partie du catalogue arrive très bientôt sur Cartable."
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
