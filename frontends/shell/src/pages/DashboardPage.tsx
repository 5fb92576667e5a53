import {
  BookIcon,
  Card,
  CardBody,
  Container,
  MessageIcon,
  PageHeader,
  PlusIcon,
  ShieldIcon,
  UserIcon,
  useDocumentTitle,
  useSession,
} from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import type { ComponentType } from 'react';

interface Shortcut {
  to: string;
  title: string;
  text: string;
  Icon: ComponentType<{ size?: number }>;
}

const SHORTCUTS: Shortcut[] = [
  { to: '/books/add', title: 'Ajouter un manuel', text: 'Vendez, échangez ou donnez un livre.', Icon: PlusIcon },
  { to: '/my-books', title: 'Mes manuels', text: 'Gérez vos annonces en cours.', Icon: BookIcon },
  { to: '/messages', title: 'Messages', text: 'Discutez avec acheteurs et vendeurs.', Icon: MessageIcon },
  { to: '/profile', title: 'Mon profil', text: 'Vos informations et préférences.', Icon: UserIcon },
];

export default function DashboardPage() {
  useDocumentTitle('Tableau de bord');
  const { user, isAdmin } = useSession();
  const shortcuts = isAdmin
    ? [...SHORTCUTS, { to: '/admin', title: 'Administration', text: 'Accéder au back-office.', Icon: ShieldIcon }]
    : SHORTCUTS;
  return (
    <Container className="py-8 sm:py-12">
      <PageHeader title={`Bonjour, ${user?.name ?? ''}`} description="Bienvenue sur votre tableau de bord Cartable." />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {shortcuts.map(({ to, title, text, Icon }) => (
          <li key={to}>
            <Link to={to} className="block h-full rounded-xl focus-visible:outline-offset-4">
              <Card className="h-full transition-shadow hover:shadow-md">
                <CardBody className="flex items-start gap-4">
                  <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-primary-50 text-primary-700">
                    <Icon size={22} />
                  </span>
                  <span>
                    <span className="block font-semibold text-slate-900">{title}</span>
                    <span className="mt-1 block text-sm text-slate-600">{text}</span>
                  </span>
                </CardBody>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </Container>
  );
}
