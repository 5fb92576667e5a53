import { MailDev } from 'maildev';

export interface CaughtMail {
  id: string;
  subject: string;
  to: Array<{ address: string }>;
  html?: string;
  text?: string;
}

/** maildev in-process: SMTP for the services, a web UI and REST API (/api/email) for people and tests. */
export async function startMailCatcher({
  smtp,
  web,
  mailDirectory,
}: {
  smtp: number;
  web: number;
  mailDirectory: string;
}) {
  const maildev = new MailDev({ smtp, web, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true, mailDirectory });
  await maildev.start();
  const api = `http://127.0.0.1:${web}/api/email`;
  return {
    smtpPort: smtp,
    webUrl: `http://localhost:${web}`,
    async list(): Promise<CaughtMail[]> {
      const res = await fetch(api);
      return (await res.json()) as CaughtMail[];
    },
    /**
     * Waits for the newest mail to this address (whose subject starts with `subject`, when
     * given), for at most `timeoutMs`, and returns it whole (text and HTML).
     */
    async waitFor(address: string, { subject = '', timeoutMs = 10_000 } = {}): Promise<CaughtMail> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = (await this.list())
          .filter((m) => m.to.some((t) => t.address === address) && m.subject.startsWith(subject))
          .at(-1);
        if (found) {
          const res = await fetch(`${api}/${found.id}`);
          return (await res.json()) as CaughtMail;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`aucun email « ${subject}… » pour ${address} après ${timeoutMs} ms`);
    },
    stop: () => maildev.stop(),
  };
}
export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;
