import { Alert, Card, CardBody } from '@cartable/ui';
import { COMPANY, SUPPORT_REPLY } from '../../shared/company';
import { CONTACT_PHONE_HOURS } from './texts';

const MAP_SRC = 'https://www.openstreetmap.org/export/embed.html?bbox=9.40,0.35,9.52,0.45&layer=mapnik';
const MAP_LINK = 'https://www.openstreetmap.org/#map=13/0.4000/9.4600';

/** Beside the form: the map of Libreville, and the support's email for who prefers to write. */
export function ContactAside() {
  return (
    <div className="space-y-6">
      <Card className="overflow-hidden">
        <iframe
          title="Carte de Libreville"
          src={MAP_SRC}
          className="block h-72 w-full border-0"
          loading="lazy"
          referrerPolicy="no-referrer-when-downgrade"
        />
        <CardBody className="py-3 text-sm">
          <a
            href={MAP_LINK}
            target="_blank"
            rel="noopener noreferrer"
            className="tap-target text-primary-700 hover:underline"
          >
            Agrandir la carte de Libreville
          </a>
        </CardBody>
      </Card>

      <Alert tone="info" title="Vous préférez nous écrire directement ?">
        <p>
          Envoyez un email à{' '}
          <a href={`mailto:${COMPANY.email}`} className="font-semibold underline">
            {COMPANY.email}
          </a>
          . Notre équipe support répond sous {SUPPORT_REPLY}. Par téléphone, nous sommes joignables{' '}
          {CONTACT_PHONE_HOURS.toLowerCase()}.
        </p>
      </Alert>
    </div>
  );
}
