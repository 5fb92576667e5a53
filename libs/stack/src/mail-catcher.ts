import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface CaughtMail {
  id: string;
  subject: string;
  to: Array<{ address: string }>;
  html?: string;
  text?: string;
  time?: string;
}

const bin = join(createRequire(import.meta.url).resolve('maildev/package.json'), '..', 'bin', 'maildev');
/** Preloaded in the child: it exits when its parent goes (its stdin, our pipe, closes), even after a SIGKILL. */
const exitWithParent = 'data:text/javascript,process.stdin.on("end",()=>process.exit(0)).resume()';

/**
 * maildev 2 (stable): SMTP for the services, a web UI at `/` and a REST API (`/email`,
 * `/email/:id`, `DELETE /email/all`) for people and tests. It runs as a child process: maildev 2
 * keeps its server in module state and exits the process on SIGINT/SIGTERM, so in-process it
 * could neither be restarted nor leave Ctrl-C to `npm start`. Mails are kept in `mailDirectory`
 * and reloaded on a restart.
 */
export async function startMailCatcher({
  smtp,
  web,
  mailDirectory,
}: {
  smtp: number;
  web: number;
  mailDirectory: string;
}) {
  mkdirSync(mailDirectory, { recursive: true });
  const base = `http://127.0.0.1:${web}`;
  let child: ChildProcess | undefined;

  async function start() {
    if (child) return;
    const args = ['--smtp', String(smtp), '--web', String(web), '--ip', '127.0.0.1'];
    const started = spawn(
      process.execPath,
      ['--import', exitWithParent, bin, ...args, '--mail-directory', mailDirectory, '--silent'],
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    // Its errors still reach our stderr; the last of them also go into a failed start's error.
    let output = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      output = (output + chunk.toString()).slice(-2000);
    });
    // Neither the child nor its pipes keep this process alive.
    started.unref();
    for (const pipe of [started.stdin, started.stderr]) (pipe as unknown as { unref?: () => void } | null)?.unref?.();
    child = started;
    started.once('exit', () => {
      if (child === started) child = undefined;
    });
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (started.exitCode !== null)
        throw new Error(`maildev s'est arrêté au démarrage (code ${started.exitCode}) :\n${output}`);
      const ok = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) })
        .then((res) => res.ok)
        .catch(() => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`maildev ne répond pas sur ${base} après 15 s`);
  }

  /** Stops the catcher (its SMTP port refuses connections); the mails stay on disk. */
  async function stop() {
    const running = child;
    if (!running) return;
    const exited = new Promise<void>((r) => running.once('exit', () => r()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return { ...mailCatcherClient(web), smtpPort: smtp, start, stop };
}
export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;

/**
 * What a test reads of a mail catcher that is already running (its web port): the mails caught,
 * and the newest one to an address. A test on a shared stack reads the stack's catcher this way.
 */
export function mailCatcherClient(web: number) {
  const api = `http://127.0.0.1:${web}/email`;
  return {
    webPort: web,
    webUrl: `http://localhost:${web}`,
    /** Every mail caught, oldest first. */
    async list(): Promise<CaughtMail[]> {
      const res = await fetch(api);
      const mails = (await res.json()) as CaughtMail[];
      // Mails reloaded from disk after a restart come in file order: sort by arrival.
      return mails.sort((a, b) => Date.parse(a.time ?? '') - Date.parse(b.time ?? ''));
    },
    /**
     * Waits for the newest mail to this address (whose subject starts with `subject`, when
     * given), for at most `timeoutMs`, and returns it whole (text and HTML). The default only
     * guards against a hang: on a shared stack late in the suite, beside a fault test on the same
     * two cores, a verification mail once took more than 10 s to be caught.
     */
    async waitFor(address: string, { subject = '', timeoutMs = 30_000 } = {}): Promise<CaughtMail> {
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
  };
}
