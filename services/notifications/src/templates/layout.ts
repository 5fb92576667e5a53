import { ALERTS_UNSUBSCRIBE_PAGE, ALERTS_UNSUBSCRIBE_PATH, type AlertMailKind } from '@cartable/contracts';

/** Escapes text put into the HTML templates. */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  /** Extra headers passed to nodemailer (List-Unsubscribe and List-Unsubscribe-Post of the alerts). */
  headers?: Record<string, string>;
}

/** One plain, mobile-friendly frame for every e-mail (inline styles: mail clients ignore <style>). */
export function layout({
  title,
  body,
  action,
  reason = "Vous recevez cet email parce qu'un compte a été créé avec cette adresse.",
}: {
  title: string;
  body: string;
  action?: { label: string; url: string };
  /** Why this person gets this mail, shown in the footer. */
  reason?: string;
}) {
  const button = action
    ? `<p style="margin:28px 0"><a href="${escapeHtml(action.url)}" style="background:#009E60;color:#fff;padding:12px 22px;border-radius:8px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#555">Si le bouton ne fonctionne pas, copiez ce lien dans votre navigateur :<br><a href="${escapeHtml(action.url)}" style="color:#3A75C4;word-break:break-all">${escapeHtml(action.url)}</a></p>`
    : '';
  return `<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:#f4f6f5;font-family:Arial,Helvetica,sans-serif;color:#1c2b22">
<div style="max-width:560px;margin:0 auto;padding:24px">
<div style="font-size:22px;font-weight:700;color:#009E60;margin-bottom:16px">Cartable</div>
<div style="background:#fff;border-radius:12px;padding:24px;border-top:4px solid #FCD116">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${body}
${button}
</div>
<p style="font-size:12px;color:#777;margin-top:16px">Cartable — manuels scolaires d'occasion au Gabon. ${escapeHtml(reason)}</p>
</div></body></html>`;
}

/**
 * The way out of an alert mail: the page its link opens (which asks before it stops anything, as
 * mail scanners open links) and RFC 8058's one-click headers, which mail clients POST to.
 */
export function alertUnsubscribe(publicUrl: string, token: string, kind: AlertMailKind) {
  const api = new URL(`/api${ALERTS_UNSUBSCRIBE_PATH}`, publicUrl);
  const page = new URL(ALERTS_UNSUBSCRIBE_PAGE, publicUrl);
  for (const url of [api, page]) {
    url.searchParams.set('token', token);
    url.searchParams.set('kind', kind);
  }
  return {
    page: page.toString(),
    headers: { 'List-Unsubscribe': `<${api}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
