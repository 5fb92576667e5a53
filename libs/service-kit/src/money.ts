/** French grouping: « 12 500 » (Intl writes a narrow no-break space between the groups). */
const grouping = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });

/**
 * An amount as people read it in Gabon: « 1 000 FCFA ». No-break spaces by default, so that the
 * amount never splits across two lines; `space` for media that lack them (a PDF's standard fonts).
 */
export function formatFcfa(amount: number, space = '\u00a0'): string {
  return `${grouping.format(amount).replace(/[\s\u202f\u00a0]/g, space)}${space}FCFA`;
}
