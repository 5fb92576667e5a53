import { useSession } from '@cartable/ui';
import { useEffect, useRef, useState } from 'react';
import { useGabonCities } from '../../../shared/cities';
import { CitySelect } from '../../../shared/components/CitySelect';
import type { ClassListDetail } from '../api/class-lists';
import { publishListing, useListingsPublished } from '../api/sell-list';
import { LotPanel } from './LotPanel';
import { ModeChoice } from './ModeChoice';
import {
  bookFields,
  EMPTY_LOT,
  EMPTY_ROW,
  edit,
  type Item,
  type Lot,
  listingForm,
  lotFields,
  lotTitleProblem,
  type Mode,
  newKey,
  type Row,
  settled,
  suggestedLotTitle,
} from './publication';
import { saleProblems } from './SaleFields';
import { SellBar } from './SellBar';
import { SellItem } from './SellItem';
import { SellSummary } from './SellSummary';

/**
 * The sale of one list: the town, the way of selling, each book's row (or the lot) and the bar.
 * It owns what the family sets and each publication's attempt, and shows the summary once all
 * went out.
 */
export function SellForm({ list }: { list: ClassListDetail }) {
  const { user } = useSession();
  const cities = useGabonCities();
  const listingsPublished = useListingsPublished();
  const [cityId, setCityId] = useState(user?.city_id ? String(user.city_id) : '');
  const [mode, setMode] = useState<Mode>('separate');
  const [rows, setRows] = useState<Record<number, Row>>({});
  const [lot, setLot] = useState<Lot>(EMPTY_LOT);
  const [checked, setChecked] = useState(false);
  const [running, setRunning] = useState(false);
  const summaryRef = useRef<HTMLDivElement>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const lotRef = useRef(lot);
  lotRef.current = lot;

  // Photo previews are object URLs: freed when the page goes.
  useEffect(
    () => () => {
      for (const sale of [...Object.values(rowsRef.current), lotRef.current])
        if (sale.preview) URL.revokeObjectURL(sale.preview);
    },
    [],
  );

  const rowOf = (id: number) => rows[id] ?? EMPTY_ROW;
  const change = (id: number, patch: Partial<Row>) =>
    setRows((all) => ({ ...all, [id]: edit(all[id] ?? EMPTY_ROW, patch) }));
  const changeLot = (patch: Partial<Lot>) => setLot((old) => edit(old, patch));

  const selected = list.items.filter((i) => rowOf(i.id).selected);
  const asLot = mode === 'lot';
  const done = asLot ? [] : selected.filter((i) => rowOf(i.id).status === 'done');
  const failed = asLot ? [] : selected.filter((i) => rowOf(i.id).status === 'error');
  const finished = asLot ? lot.status === 'done' : selected.length > 0 && done.length === selected.length;
  // Once a listing went out, the way of selling is settled.
  const started = running || lot.status === 'done' || list.items.some((i) => rowOf(i.id).status === 'done');
  const cityError = checked && !cityId ? 'Choisissez la ville où remettre les manuels' : undefined;
  const lotTitle = lot.title ?? suggestedLotTitle(list, Math.max(selected.length, 2));
  const lotErrors =
    checked && asLot && lot.status !== 'done'
      ? {
          ...saleProblems(lot),
          title: lotTitleProblem(lotTitle),
          books: selected.length < 2 ? 'Cochez au moins 2 manuels pour faire un lot' : undefined,
        }
      : {};

  const publishOne = async (item: Item) => {
    const row = rowsRef.current[item.id] ?? EMPTY_ROW;
    const key = row.key ?? newKey();
    change(item.id, { status: 'sending', error: null, key });
    const outcome = await publishListing(listingForm(bookFields(list, item), row, cityId), key);
    change(item.id, settled(outcome, key));
  };

  const publishLot = async () => {
    const current = lotRef.current;
    const key = current.key ?? newKey();
    changeLot({ status: 'sending', error: null, key });
    const outcome = await publishListing(listingForm(lotFields(list, lotTitle, selected), current, cityId), key);
    changeLot(settled(outcome, key));
  };

  const focusFirstProblem = () =>
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"]')
        ?.focus({ preventScroll: false }),
    );

  const afterPublishing = () => {
    setRunning(false);
    listingsPublished();
    // The first failed listing in view (its error and « Réessayer »), else the summary.
    setTimeout(() => {
      const failure = document.querySelector('[data-testid="sell-item-error"]')?.closest('article');
      if (failure) failure.scrollIntoView({ block: 'center' });
      else summaryRef.current?.focus();
    }, 50);
  };

  const publish = async (only?: Item) => {
    setChecked(true);
    if (asLot) {
      const current = lotRef.current;
      if (!cityId || selected.length < 2 || lotTitleProblem(lotTitle) || Object.keys(saleProblems(current)).length > 0)
        return focusFirstProblem();
      setRunning(true);
      await publishLot();
      return afterPublishing();
    }
    const todo = (only ? [only] : selected).filter((i) => rowOf(i.id).status !== 'done');
    if (!cityId || todo.some((i) => Object.keys(saleProblems(rowOf(i.id))).length > 0)) return focusFirstProblem();
    setRunning(true);
    // One after the other: on a slow connection, parallel uploads only slow each other down.
    for (const item of todo) await publishOne(item);
    afterPublishing();
  };

  if (finished) {
    return (
      <SellSummary
        summaryRef={summaryRef}
        published={done.map((item) => ({ item, row: rowOf(item.id) }))}
        lot={asLot ? { lot, title: lotTitle, items: selected } : null}
      />
    );
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!running) void publish();
      }}
    >
      <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
        <p className="text-xs font-semibold tracking-wide text-primary-800 uppercase">
          {list.kind === 'official' ? 'Liste officielle' : list.school_name} · {list.level.name} · {list.school_year}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          Cochez les manuels que vous avez. Titre, auteur, éditeur, ISBN, classe et matière viennent de la liste.
        </p>
        <CitySelect
          className="mt-3"
          label="Ville de remise *"
          cities={cities.data}
          emptyLabel="Choisissez une ville"
          value={cityId}
          error={cityError}
          disabled={running}
          onChange={(e) => setCityId(e.target.value)}
        />
        <ModeChoice mode={mode} disabled={started} onChange={setMode} />
      </div>

      <ol className="mt-4 space-y-3" data-testid="sell-items">
        {list.items.map((item) => (
          <li key={item.id}>
            <SellItem
              item={item}
              row={rowOf(item.id)}
              pickOnly={asLot}
              checked={checked}
              locked={running || (asLot && lot.status === 'sending')}
              onChange={(patch) => change(item.id, patch)}
              onRetry={() => void publish(item)}
            />
          </li>
        ))}
      </ol>

      {asLot ? (
        <LotPanel
          lot={lot}
          title={lotTitle}
          count={selected.length}
          errors={lotErrors}
          locked={running}
          onChange={changeLot}
        />
      ) : null}

      <SellBar
        asLot={asLot}
        running={running}
        selected={selected.length}
        done={done.length}
        failed={failed.length}
        lotFailed={lot.status === 'error'}
      />
    </form>
  );
}
