import { BookIcon, buttonClasses, Container, EmptyState, PageHeader, useDocumentTitle } from '@cartable/ui';
import { Link } from '@cartable/ui/router';

export default function BooksPage() {
  useDocumentTitle('Manuels');
  return (
    <Container className="py-8 sm:py-12">
      <PageHeader title="Manuels scolaires" description="Cherchez par titre, auteur, niveau, matière ou ville." />
      <EmptyState
        icon={<BookIcon size={26} />}
        title="Catalogue bientôt disponible"
        description="Nous préparons la recherche et les filtres du catalogue. Revenez très vite pour trouver vos manuels près de chez vous."
        action={
          <Link to="/" className={buttonClasses('primary')}>
            Retour à l'accueil
          </Link>
        }
      />
    </Container>
  );
}
