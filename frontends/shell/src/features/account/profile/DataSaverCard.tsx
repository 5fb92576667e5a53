import {
  Card,
  CardBody,
  CardHeader,
  DEFAULT_PRICE_PER_GB,
  formatBytes,
  formatDataCost,
  Input,
  Select,
  setDataPrice,
  setDataSaver,
  useDataSaver,
  useDataUsage,
} from '@cartable/ui';
import { useState } from 'react';

const CHOICES = [
  { value: 'auto', label: 'Automatique : suivre le navigateur' },
  { value: 'on', label: 'Toujours activée' },
  { value: 'off', label: 'Toujours désactivée' },
] as const;

/**
 * « Économie de données », for this phone: photos wait for a tap and only thumbnails load; and the
 * price of a gigabyte the footer and the dashboard count the pages' cost at. Kept on the phone.
 */
export function DataSaverCard() {
  const saver = useDataSaver();
  const { month } = useDataUsage();
  const [price, setPrice] = useState(String(saver.pricePerGb));
  const [priceError, setPriceError] = useState<string | null>(null);

  const savePrice = () => {
    const text = price.replace(/[\s\u202f\u00a0]/g, '');
    if (text === '') {
      setDataPrice(null);
      setPrice(String(DEFAULT_PRICE_PER_GB));
      setPriceError(null);
      return;
    }
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < 1 || value > 100_000) {
      setPriceError('Indiquez un prix entier entre 1 et 100 000 FCFA.');
      return;
    }
    setPriceError(null);
    setDataPrice(value);
  };

  return (
    <Card id="donnees">
      <CardHeader>
        <h2 className="text-lg font-semibold text-slate-900">Économie de données</h2>
        <p className="text-sm text-slate-600">
          Sur ce téléphone : les photos ne se chargent que si vous les touchez, en petit format.
          {saver.browserAsks ? ' Votre navigateur demande d’économiser les données.' : ''}
        </p>
      </CardHeader>
      <CardBody className="space-y-4">
        <Select
          label="Économie de données"
          value={saver.choice}
          onChange={(event) => setDataSaver(event.target.value as (typeof CHOICES)[number]['value'])}
          hint={saver.enabled ? 'Activée en ce moment.' : 'Désactivée en ce moment.'}
        >
          {CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </Select>
        <Input
          label="Prix d’un Go de données (FCFA)"
          inputMode="numeric"
          value={price}
          error={priceError ?? undefined}
          hint={`${DEFAULT_PRICE_PER_GB.toLocaleString('fr-FR')} FCFA par défaut (prix moyen au Gabon en 2021). Laissez vide pour le reprendre.`}
          onChange={(event) => setPrice(event.target.value)}
          onBlur={savePrice}
          onKeyDown={(event) => {
            if (event.key === 'Enter') savePrice();
          }}
        />
        <p className="text-sm text-slate-700" data-testid="month-data-cost">
          Ce mois-ci sur ce téléphone : {formatBytes(month)}, environ {formatDataCost(month, saver.pricePerGb)}.
        </p>
      </CardBody>
    </Card>
  );
}
