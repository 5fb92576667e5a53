import {
  operatorLabels,
  type Payment,
  paymentProviderLabels,
  paymentStatusLabels,
  planKindLabels,
  type Subscription,
} from '@cartable/contracts';
import { formatFcfa } from '@cartable/service-kit';
import PDFDocument from 'pdfkit';

export interface ReceiptInput {
  payment: Payment;
  subscription: Subscription;
  member_name: string | null;
  issued_at: Date;
}

const TIME_ZONE = 'Africa/Libreville';
const dayFormat = new Intl.DateTimeFormat('fr-FR', { timeZone: TIME_ZONE, dateStyle: 'long' });
const dateTimeFormat = new Intl.DateTimeFormat('fr-FR', { timeZone: TIME_ZONE, dateStyle: 'long', timeStyle: 'short' });

// PDF's standard fonts speak WinAnsi: French's narrow no-break spaces (U+202F, U+00A0 in
// Intl's output) would print as garbage, so amounts and dates use plain spaces.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
const fcfa = (amount: number) => formatFcfa(amount, ' ');
const day = (iso: string | null) => (iso ? plain(dayFormat.format(new Date(iso))) : '—');
const dateTime = (iso: string | Date | null) => (iso ? plain(dateTimeFormat.format(new Date(iso))) : '—');

/**
 * The receipt a member downloads from /subscription/details/{id}: one A4 page, standard fonts
 * (nothing to embed, about 3 KB), made with pdfkit. Only a paid payment has one.
 */
export function renderReceiptPdf({ payment, subscription, member_name, issued_at }: ReceiptInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `Reçu ${payment.reference}`,
      Author: 'Cartable',
      Subject: `Paiement de l’abonnement « ${subscription.plan.name} »`,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const ink = '#1f2937';
  const muted = '#6b7280';
  const brand = '#047857';
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.fillColor(brand).font('Helvetica-Bold').fontSize(22).text('Cartable', left, 56);
  doc.fillColor(muted).font('Helvetica').fontSize(10).text('Manuels scolaires d’occasion au Gabon');
  doc.moveDown(2);
  doc.fillColor(ink).font('Helvetica-Bold').fontSize(16).text('Reçu de paiement');
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(muted)
    .text(`N° ${payment.reference} · émis le ${dateTime(issued_at)}`);
  doc.moveDown(1.5);

  const rows: Array<[string, string]> = [
    ['Membre', member_name ?? '—'],
    ['Formule', `${subscription.plan.name} (${planKindLabels[subscription.plan.kind]})`],
    ['Durée', `${subscription.plan.duration_days} jours`],
    ['Période', `du ${day(subscription.starts_at)} au ${day(subscription.ends_at)}`],
    [
      'Moyen de paiement',
      `${operatorLabels[payment.operator]} · ${paymentProviderLabels[payment.provider] ?? payment.provider}`,
    ],
    ['Référence de l’opérateur', payment.provider_reference ?? '—'],
    ['Payé le', dateTime(payment.paid_at)],
    ['État', paymentStatusLabels[payment.status]],
  ];
  const labelWidth = 170;
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('Helvetica').fontSize(11).fillColor(muted).text(label, left, y, { width: labelWidth });
    doc.fillColor(ink).text(value, left + labelWidth, y, { width: width - labelWidth });
    doc.moveDown(0.6);
  }

  doc.moveDown(1);
  const totalY = doc.y;
  doc
    .moveTo(left, totalY)
    .lineTo(left + width, totalY)
    .strokeColor('#d1d5db')
    .stroke();
  doc.moveDown(0.8);
  const amountY = doc.y;
  doc.font('Helvetica-Bold').fontSize(13).fillColor(ink).text('Montant payé', left, amountY, { width: labelWidth });
  doc.text(fcfa(payment.amount), left + labelWidth, amountY, { width: width - labelWidth, align: 'right' });
  if (payment.refunded_amount > 0) {
    doc.moveDown(0.5);
    const refundY = doc.y;
    doc.font('Helvetica').fontSize(11).fillColor(ink).text('Remboursé', left, refundY, { width: labelWidth });
    doc.text(`− ${fcfa(payment.refunded_amount)}`, left + labelWidth, refundY, {
      width: width - labelWidth,
      align: 'right',
    });
  }

  doc.moveDown(3);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor(muted)
    .text(
      'Cet abonnement achète de la visibilité sur Cartable. Cartable ne prélève aucune commission sur les ventes, ' +
        'échanges ou dons entre membres.',
      left,
      doc.y,
      { width },
    );
  doc.end();
  return done;
}
