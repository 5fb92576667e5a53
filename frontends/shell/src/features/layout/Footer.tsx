import { BelowFold, Container } from '@cartable/ui';
import { Link } from '@cartable/ui/router';
import { PageDataCost } from './DataUsage';
import { Brand } from './Header';

const NAVIGATION = [
  { to: '/', label: 'Accueil' },
  { to: '/books', label: 'Manuels' },
  { to: '/subscription', label: 'Abonnement' },
  { to: '/about', label: 'À propos' },
  { to: '/contact', label: 'Contact' },
];

const LEGAL = [
  { to: '/terms', label: "Conditions d'utilisation" },
  { to: '/privacy', label: 'Politique de confidentialité' },
  { to: '/cookies', label: 'Politique de cookies' },
  { to: '/legal', label: 'Mentions légales' },
];

const SOCIAL = [
  { label: 'Facebook', letter: 'f' },
  { label: 'WhatsApp', letter: 'W' },
  { label: 'Instagram', letter: 'in' },
];

function FooterLinks({ title, links }: { title: string; links: { to: string; label: string }[] }) {
  return (
    <div>
      <h2 className="text-sm font-semibold tracking-wide text-white uppercase">{title}</h2>
      <ul className="mt-3 space-y-0 sm:space-y-2">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="tap-target text-sm text-slate-300 hover:text-accent-300">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function Footer() {
  const year = new Date().getFullYear();
  return (
    <BelowFold as="footer" className="mt-auto bg-slate-900 text-slate-300">
      <div className="h-1.5 bg-[linear-gradient(90deg,var(--color-primary-600)_0_33.3%,var(--color-accent-400)_33.3%_66.6%,var(--color-ocean-500)_66.6%)]" />
      <Container className="grid gap-8 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2 lg:col-span-1">
          <div className="inline-block rounded-lg bg-white px-2 py-1">
            <Brand />
          </div>
          <p className="mt-4 text-sm leading-relaxed">
            La place de marché des manuels scolaires d'occasion au Gabon. Élèves et parents vendent, échangent ou
            donnent leurs livres, du primaire au lycée, sans frais ni commission.
          </p>
        </div>
        <FooterLinks title="Navigation" links={NAVIGATION} />
        <FooterLinks title="Informations légales" links={LEGAL} />
        <div>
          <h2 className="text-sm font-semibold tracking-wide text-white uppercase">Suivez-nous</h2>
          <ul className="mt-3 flex gap-3">
            {SOCIAL.map((network) => (
              <li key={network.label}>
                <span
                  title={`${network.label} : bientôt disponible`}
                  className="flex h-10 w-10 items-center justify-center rounded-full bg-slate-800 text-sm font-bold text-slate-200"
                >
                  <span aria-hidden="true">{network.letter}</span>
                  <span className="sr-only">{network.label} (bientôt disponible)</span>
                </span>
              </li>
            ))}
          </ul>
          <p className="mt-4 text-sm">Libreville, Gabon</p>
        </div>
      </Container>
      <div className="border-t border-slate-800">
        <Container className="flex flex-col gap-1 py-4 text-xs text-slate-400 sm:flex-row sm:justify-between">
          <p>© {year} Cartable. Tous droits réservés.</p>
          <PageDataCost />
          <p>Aucun frais, aucune commission : la rencontre et le paiement se font entre vous.</p>
        </Container>
      </div>
    </BelowFold>
  );
}
