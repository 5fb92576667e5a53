/** How the conversation screens write dates and times, in French. */

/* Short units (« il y a 10 min », « il y a 3 h »): on a phone the list leaves the other member's name its room. */
const relative = new Intl.RelativeTimeFormat('fr', { numeric: 'auto', style: 'short' });
const dayMonth = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short' });
const dayMonthYear = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', year: 'numeric' });
const timeOfDay = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit' });
const longDay = new Intl.DateTimeFormat('fr-FR', { weekday: 'long', day: 'numeric', month: 'long' });
const longDayYear = new Intl.DateTimeFormat('fr-FR', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** "à l'instant", "il y a 5 min", "il y a 3 h", "hier", "il y a 3 j", "12 mars". */
export function relativeTime(value: string, now = Date.now()): string {
  const date = new Date(value);
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((now - time) / 1000);
  if (seconds < 60) return "à l'instant";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  const days = Math.round((startOfDay(new Date(now)) - startOfDay(date)) / 86_400_000);
  if (days < 7) return relative.format(-Math.max(1, days), 'day');
  return date.getFullYear() === new Date(now).getFullYear() ? dayMonth.format(date) : dayMonthYear.format(date);
}

/** "14:05". */
export function clockTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : timeOfDay.format(date);
}

/** Day separator: "Aujourd'hui", "Hier", "lundi 3 mars" (year when not this year). */
export function dayLabel(value: string, now = Date.now()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const days = Math.round((startOfDay(new Date(now)) - startOfDay(date)) / 86_400_000);
  if (days === 0) return "Aujourd'hui";
  if (days === 1) return 'Hier';
  const label = (date.getFullYear() === new Date(now).getFullYear() ? longDay : longDayYear).format(date);
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export function dayKey(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}
