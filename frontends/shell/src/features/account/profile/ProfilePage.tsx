import { Container, LoadFailed, PageSpinner, useDocumentTitle } from '@cartable/ui';
import { useProfile } from '../api/profile';
import { AlertChannelsCard } from './AlertChannelsCard';
import { AvatarCard } from './AvatarCard';
import { DataSaverCard } from './DataSaverCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { NotificationsCard } from './NotificationsCard';
import { PasswordCard } from './PasswordCard';
import { ProfileForm } from './ProfileForm';
import { TwoFactorCard } from './TwoFactorCard';

const SECTIONS = [
  { id: 'informations', label: 'Informations' },
  { id: 'mot-de-passe', label: 'Mot de passe' },
  { id: 'securite', label: 'Sécurité' },
  { id: 'donnees', label: 'Données' },
  { id: 'suppression', label: 'Compte' },
];

/** /profile: the signed-in member's own profile and account settings. */
export default function ProfilePage() {
  useDocumentTitle('Mon profil');
  const query = useProfile();

  if (query.isPending) return <PageSpinner label="Chargement de votre profil…" />;
  if (query.isError) {
    return (
      <Container className="max-w-3xl py-8 sm:py-12">
        <LoadFailed title="Impossible de charger votre profil." query={query} />
      </Container>
    );
  }

  const profile = query.data;
  return (
    <Container className="max-w-3xl space-y-6 py-8 sm:py-12">
      <AvatarCard profile={profile} />
      {/* The sections wrap on a phone: a strip that scrolls sideways hid the fourth one. */}
      <nav aria-label="Sections du profil">
        <ul className="flex flex-wrap gap-2">
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="block rounded-full border border-slate-200 bg-white px-3 py-1.5 text-sm font-medium whitespace-nowrap text-slate-700 hover:border-primary-300 hover:text-primary-800"
              >
                {section.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <ProfileForm key={profile.id} profile={profile} />
      <PasswordCard email={profile.email} />
      <TwoFactorCard profile={profile} />
      <NotificationsCard />
      <AlertChannelsCard />
      <DataSaverCard />
      <DeleteAccountCard />
    </Container>
  );
}
