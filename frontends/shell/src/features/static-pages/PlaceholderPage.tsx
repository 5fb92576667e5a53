import { buttonClasses, ComingSoon, Container, PageHeader, useDocumentTitle } from '@cartable/ui';
import { Link } from '@cartable/ui/router';

export interface PlaceholderPageProps {
  title: string;
  description?: string;
}

/** A page of a later iteration: titled, inside the layout, with a way back. */
export function PlaceholderPage({ title, description }: PlaceholderPageProps) {
  useDocumentTitle(title);
  return (
    <Container className="py-8 sm:py-12">
      <PageHeader title={title} description={description} />
      <ComingSoon
        title="Page en préparation"
        description="Cette page arrive très bientôt sur Cartable. Merci de votre patience !"
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
