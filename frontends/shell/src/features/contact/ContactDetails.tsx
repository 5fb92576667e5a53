import { Card, CardBody, ClockIcon, MailIcon, MapPinIcon, PhoneIcon } from '@cartable/ui';
import type { ReactNode } from 'react';
import { COMPANY, SUPPORT_REPLY } from '../../shared/company';
import { CONTACT_PHONE_HOURS } from './texts';

function InfoCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card className="h-full">
      <CardBody className="flex gap-4">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          {icon}
        </span>
        <div className="min-w-0 text-sm">
          <h2 className="font-semibold text-slate-900">{title}</h2>
          <div className="mt-1 text-slate-600">{children}</div>
        </div>
      </CardBody>
    </Card>
  );
}

/** Where to find us: the address, the phone and its hours, the email and its reply time. */
export function ContactDetails() {
  return (
    <ul className="grid gap-4 sm:grid-cols-3" aria-label="Nos coordonnées">
      <li>
        <InfoCard icon={<MapPinIcon size={22} />} title="Adresse">
          <p>{COMPANY.name}</p>
          <p>{COMPANY.address}</p>
        </InfoCard>
      </li>
      <li>
        <InfoCard icon={<PhoneIcon size={22} />} title="Téléphone">
          <a href={COMPANY.phoneHref} className="font-medium text-primary-700 hover:underline">
            {COMPANY.phone}
          </a>
          <p className="mt-0.5 flex items-center gap-1 text-xs">
            <ClockIcon size={12} /> {CONTACT_PHONE_HOURS}
          </p>
        </InfoCard>
      </li>
      <li>
        <InfoCard icon={<MailIcon size={22} />} title="Email">
          <a href={`mailto:${COMPANY.email}`} className="font-medium break-all text-primary-700 hover:underline">
            {COMPANY.email}
          </a>
          <p className="mt-0.5 text-xs">Réponse sous {SUPPORT_REPLY}</p>
        </InfoCard>
      </li>
    </ul>
  );
}
