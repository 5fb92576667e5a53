/** How comments write their dates, in French. */
import { once } from '@cartable/ui';

// Built when the first comment is shown, not when the book page's script loads.
const relative = once(() => new Intl.RelativeTimeFormat('fr', { numeric: 'auto' }));
const absolute = once(() => new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'short' }));

/** "à l'instant", "il y a 5 minutes", "hier", "il y a 3 mois" (SPEC: French relative dates). */
export function relativeDate(value: string, now: number = Date.now()): string {
  const time = new Date(value).getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "à l'instant";
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['minute', 60],
    ['hour', 3600],
    ['day', 86_400],
    ['week', 604_800],
    ['month', 2_629_800],
    ['year', 31_557_600],
  ];
  let unit: Intl.RelativeTimeFormatUnit = 'minute';
  let size = 60;
  for (const [candidate, length] of steps) {
    if (abs >= length * 0.9 || candidate === 'minute') {
      unit = candidate;
      size = length;
    }
  }
  return relative().format(Math.round(seconds / size), unit);
}

/** Full date and time, for the title of a relative date. */
export function fullDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : absolute().format(date);
}
