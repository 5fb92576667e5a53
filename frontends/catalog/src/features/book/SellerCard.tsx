import {
  Button,
  Card,
  formatDate,
  formatNumber,
  initials,
  MailIcon,
  MapPinIcon,
  PhoneIcon,
  profileImageUrl,
  StarIcon,
} from '@cartable/ui';
import { type ReactNode, useState } from 'react';
import type { BookSeller } from '../../shared/books';
import { SellerBadge } from '../../shared/components/SellerBadge';

/** The seller's public card; e-mail and phone only when shared, behind a reveal button. */
export function SellerCard({ seller, children }: { seller: BookSeller; children?: ReactNode }) {
  const [showEmail, setShowEmail] = useState(false);
  const [showPhone, setShowPhone] = useState(false);
  const avatar = profileImageUrl(seller.profile_image);
  const place = [seller.city, seller.province].filter(Boolean).join(', ');
  const rating = seller.rating;
  const phoneDigits = seller.phone?.replace(/\D/g, '') ?? '';

  return (
    <Card className="p-4 sm:p-5">
      <div className="flex items-center gap-3">
        {avatar ? (
          <img
            src={avatar}
            alt=""
            width={56}
            height={56}
            loading="lazy"
            className="h-14 w-14 shrink-0 rounded-full bg-slate-100 object-cover"
          />
        ) : (
          <span
            aria-hidden="true"
            className="flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-primary-100 text-lg font-bold text-primary-800"
          >
            {initials(seller.name, '?')}
          </span>
        )}
        <div className="min-w-0">
          <p className="text-xs tracking-wide text-slate-500 uppercase">Vendeur</p>
          <p className="truncate text-lg font-semibold text-slate-900">{seller.name}</p>
          <SellerBadge badge={seller.badge} />
          {seller.username ? <p className="truncate text-sm text-slate-500">@{seller.username}</p> : null}
        </div>
      </div>

      <dl className="mt-4 space-y-2 text-sm text-slate-700">
        {place ? (
          <div className="flex items-center gap-2">
            <dt className="sr-only">Localisation</dt>
            <MapPinIcon size={16} className="shrink-0 text-slate-500" />
            <dd>{place}</dd>
          </div>
        ) : null}
        {seller.created_at ? (
          <div className="flex items-center gap-2">
            <dt className="text-slate-500">Membre depuis</dt>
            <dd>{formatDate(seller.created_at)}</dd>
          </div>
        ) : null}
        <div className="flex items-center gap-2">
          <dt className="sr-only">Évaluation</dt>
          <dd className="flex items-center gap-1.5">
            {rating && rating.count > 0 && rating.average !== null ? (
              <>
                <StarIcon size={16} filled className="text-accent-500" />
                <span className="font-semibold">{formatNumber(rating.average, 1)}/5</span>
                <span className="text-slate-500">({rating.count} avis)</span>
              </>
            ) : (
              <span className="text-slate-500">Pas encore d'avis</span>
            )}
          </dd>
        </div>
      </dl>

      {seller.email || seller.phone ? (
        <div className="mt-4 space-y-2 border-t border-slate-100 pt-4">
          {seller.email ? (
            showEmail ? (
              <a
                href={`mailto:${seller.email}`}
                className="flex items-center gap-2 text-sm font-medium break-all text-ocean-700 underline-offset-2 hover:underline"
              >
                <MailIcon size={16} className="shrink-0" /> {seller.email}
              </a>
            ) : (
              <Button
                variant="outline"
                size="sm"
                fullWidth
                leftIcon={<MailIcon size={16} />}
                onClick={() => setShowEmail(true)}
              >
                Afficher l'e-mail
              </Button>
            )
          ) : null}
          {seller.phone ? (
            showPhone ? (
              <div className="space-y-2">
                <a
                  href={`tel:${seller.phone.replace(/[^\d+]/g, '')}`}
                  className="flex items-center gap-2 text-sm font-medium text-ocean-700 underline-offset-2 hover:underline"
                >
                  <PhoneIcon size={16} className="shrink-0" /> {seller.phone}
                </a>
                {phoneDigits ? (
                  <a
                    href={`https://wa.me/${phoneDigits}`}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex h-9 w-full items-center justify-center gap-2 rounded-lg bg-[#1f7a4d] px-3 text-sm font-semibold text-white hover:bg-[#17643f]"
                  >
                    Discuter sur WhatsApp
                    <span className="sr-only"> (nouvelle fenêtre)</span>
                  </a>
                ) : null}
              </div>
            ) : (
              <Button
                variant="outline"
                size="sm"
                fullWidth
                leftIcon={<PhoneIcon size={16} />}
                onClick={() => setShowPhone(true)}
              >
                Afficher le téléphone
              </Button>
            )
          ) : null}
        </div>
      ) : null}
      {children ? <div className="mt-4 space-y-2">{children}</div> : null}
    </Card>
  );
}
