import {
  Alert,
  ApiError,
  Button,
  Card,
  CardBody,
  ChevronDownIcon,
  ClockIcon,
  Container,
  cn,
  Input,
  MailIcon,
  MapPinIcon,
  PhoneIcon,
  RefreshIcon,
  Skeleton,
  Textarea,
  useDocumentTitle,
  useSubmissionKey,
} from '@cartable/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { COMPANY, SUPPORT_REPLY } from '../../shared/company';
import { captchaKey, sendContact, useCaptcha } from './api/contact';
import { contactChecks } from './checks';
import type { contactFormSchema } from './validation';

/** SPEC section 2: the contact page states its own phone hours. */
export const CONTACT_PHONE_HOURS = 'Du lundi au vendredi, de 9h à 18h';

const MAP_SRC = 'https://www.openstreetmap.org/export/embed.html?bbox=9.40,0.35,9.52,0.45&layer=mapnik';
const MAP_LINK = 'https://www.openstreetmap.org/#map=13/0.4000/9.4600';

/** SPEC sections 5 and 8: the contact form's messages. */
export const contactMessages = {
  name: 'Le nom est requis',
  email: "L'email est requis",
  emailFormat: 'Veuillez entrer une adresse email valide',
  subject: 'Le sujet est requis',
  message: 'Le message est requis',
  captcha: "Veuillez résoudre correctement l'opération mathématique",
  failure: (email: string) =>
    `Une erreur est survenue lors de l'envoi du message. Veuillez réessayer ou nous contacter directement à ${email}`,
  success: `Votre message a bien été envoyé. Notre équipe vous répond sous ${SUPPORT_REPLY}.`,
} as const;

const FIELDS = ['name', 'email', 'subject', 'message', 'captcha_answer'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
const EMPTY: Values = { name: '', email: '', subject: '', message: '', captcha_answer: '' };

const FAQ: Array<{ question: string; answer: ReactNode }> = [
  {
    question: 'Comment vendre ou donner un manuel sur Cartable ?',
    answer:
      "Créez un compte, confirmez votre adresse email puis cliquez sur « Ajouter ». Décrivez le manuel, son état, ajoutez jusqu'à 3 photos et fixez un prix (0 FCFA pour un don). Votre annonce est visible immédiatement.",
  },
  {
    question: 'Cartable prend-il une commission sur les ventes ?',
    answer:
      "Non. Cartable met simplement en relation les familles : aucun frais ni aucune commission n'est prélevé sur les ventes, les échanges ou les dons.",
  },
  {
    question: 'Comment se passent le paiement et la remise du manuel ?',
    answer:
      "Vous vous mettez d'accord avec l'autre partie par la messagerie de Cartable. Le paiement et la remise se font en dehors de la plateforme : privilégiez un lieu public et vérifiez l'état du manuel avant de payer.",
  },
  {
    question: 'Comment signaler une annonce ou un comportement suspect ?',
    answer: `Écrivez-nous avec le formulaire ci-dessus ou à ${COMPANY.email} en précisant le lien de l'annonce. Notre équipe vérifie chaque signalement et vous répond sous ${SUPPORT_REPLY}.`,
  },
];

function InfoCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card className="h-full">
      <CardBody className="flex gap-4">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          {icon}
        </span>
        <div className="min-w-0 text-sm">
          <h2 className="font-semibold text-slate-900">{title}</h2>
          <div className="mt-1 text-slate-600">{children}</div>
        </div>
      </CardBody>
    </Card>
  );
}

function FaqItem({ question, answer }: { question: string; answer: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <li className="border-b border-slate-200 last:border-0">
      <h3>
        <button
          type="button"
          id={`${id}-button`}
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen((value) => !value)}
          className="flex w-full items-center justify-between gap-4 px-4 py-4 text-left font-semibold text-slate-900 hover:bg-slate-50 sm:px-5"
        >
          {question}
          <ChevronDownIcon
            size={20}
            className={cn('shrink-0 text-slate-500 transition-transform', open && 'rotate-180')}
          />
        </button>
      </h3>
      <section
        id={`${id}-panel`}
        aria-labelledby={`${id}-button`}
        hidden={!open}
        className="px-4 pb-4 text-sm text-slate-700 sm:px-5"
      >
        {answer}
      </section>
    </li>
  );
}

type Phase = 'idle' | 'success' | 'error';

/** Contact page (SPEC section 2): details, map, form with the server's math question, FAQ. */
export default function ContactPage() {
  useDocumentTitle('Contact');
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>('idle');
  const submission = useSubmissionKey();
  const [failure, setFailure] = useState<string | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const {
    register,
    handleSubmit,
    reset,
    setValue,
    setError,
    setFocus,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    defaultValues: EMPTY,
    resolver: contactChecks.resolver((checks) => checks.contact) as never,
    // SPEC section 5: errors show on submit and clear as soon as their field is edited.
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
  });

  const captcha = useCaptcha();
  /** A question is valid once: a new one after each attempt, or on demand. */
  const newCaptcha = () => {
    setValue('captcha_answer', '');
    void queryClient.refetchQueries({ queryKey: captchaKey });
  };

  const onSubmit = handleSubmit(async (parsed) => {
    const values = parsed as unknown as z.output<typeof contactFormSchema>;
    if (!captcha.data || captcha.isFetching) return;
    setFailure(null);
    try {
      await sendContact(
        {
          name: values.name,
          email: values.email,
          subject: values.subject,
          message: values.message,
          captcha_id: captcha.data.captcha_id,
          captcha_answer: Number(values.captcha_answer),
        },
        submission.current(),
      );
      submission.renew();
      reset(EMPTY);
      setPhase('success');
      newCaptcha();
      requestAnimationFrame(() => statusRef.current?.focus());
    } catch (error) {
      newCaptcha();
      setPhase('error');
      let first: Field | null = null;
      if (error instanceof ApiError && error.status === 422) {
        for (const field of FIELDS) {
          const message =
            error.fieldError(field) ?? (field === 'captcha_answer' ? error.fieldError('captcha_id') : undefined);
          if (message) {
            setError(field, { type: 'server', message });
            first ??= field;
          }
        }
      }
      if (first) {
        setFocus(first);
      } else {
        setFailure(
          error instanceof ApiError && error.status === 429 && error.hasServerMessage
            ? error.message
            : contactMessages.failure(COMPANY.email),
        );
        requestAnimationFrame(() => statusRef.current?.focus());
      }
    }
  });

  const field = (name: Field) => ({
    ...register(name, {
      onChange: () => {
        // SPEC section 5: errors clear on edit.
        if (errors[name]) clearErrors(name);
        if (phase !== 'idle') {
          setPhase('idle');
          setFailure(null);
        }
      },
    }),
    error: errors[name]?.message,
  });

  return (
    <>
      <section className="bg-gradient-to-br from-primary-700 to-primary-900 text-white">
        <Container className="py-10 sm:py-14">
          <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Contactez-nous</h1>
          <p className="mt-2 max-w-2xl text-primary-50">
            Une question sur une annonce, votre compte ou le fonctionnement de Cartable ? Notre équipe vous répond sous{' '}
            {SUPPORT_REPLY}.
          </p>
        </Container>
      </section>

      <Container className="py-8 sm:py-12">
        <ul className="grid gap-4 sm:grid-cols-3" aria-label="Nos coordonnées">
          <li>
            <InfoCard icon={<MapPinIcon size={22} />} title="Adresse">
              <p>{COMPANY.name}</p>
              <p>{COMPANY.address}</p>
            </InfoCard>
          </li>
          <li>
            <InfoCard icon={<PhoneIcon size={22} />} title="Téléphone">
              <a href={COMPANY.phoneHref} className="font-medium text-primary-700 hover:underline">
                {COMPANY.phone}
              </a>
              <p className="mt-0.5 flex items-center gap-1 text-xs">
                <ClockIcon size={12} /> {CONTACT_PHONE_HOURS}
              </p>
            </InfoCard>
          </li>
          <li>
            <InfoCard icon={<MailIcon size={22} />} title="Email">
              <a href={`mailto:${COMPANY.email}`} className="font-medium break-all text-primary-700 hover:underline">
                {COMPANY.email}
              </a>
              <p className="mt-0.5 text-xs">Réponse sous {SUPPORT_REPLY}</p>
            </InfoCard>
          </li>
        </ul>

        <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Card>
            <CardBody>
              <h2 className="text-xl font-bold text-slate-900">Envoyez-nous un message</h2>
              <p className="mt-1 text-sm text-slate-600">Tous les champs sont obligatoires.</p>

              <div ref={statusRef} tabIndex={-1} className="mt-4 focus:outline-none" aria-live="polite">
                {phase === 'success' ? (
                  <Alert tone="success" title="Message envoyé">
                    {contactMessages.success}
                  </Alert>
                ) : null}
                {failure ? <Alert tone="error">{failure}</Alert> : null}
              </div>

              <form
                noValidate
                onSubmit={onSubmit}
                {...contactChecks.loadOnTouch}
                className="mt-4 space-y-4"
                aria-label="Formulaire de contact"
              >
                <div className="grid gap-4 sm:grid-cols-2">
                  <Input label="Nom complet" autoComplete="name" {...field('name')} />
                  <Input
                    label="Adresse email"
                    type="email"
                    autoComplete="email"
                    inputMode="email"
                    {...field('email')}
                  />
                </div>
                <Input label="Sujet" {...field('subject')} />
                <Textarea label="Message" rows={6} {...field('message')} />

                <fieldset className="rounded-lg border border-slate-200 bg-slate-50 p-4">
                  <legend className="px-1 text-sm font-semibold text-slate-800">Vérification anti-robot</legend>
                  {captcha.isError ? (
                    <Alert
                      tone="error"
                      action={
                        <Button variant="outline" size="sm" onClick={newCaptcha} loading={captcha.isFetching}>
                          Réessayer
                        </Button>
                      }
                    >
                      La question de vérification n'a pas pu être chargée.
                    </Alert>
                  ) : (
                    <div className="flex items-start gap-2">
                      <Input
                        className="flex-1"
                        label={
                          captcha.data ? (
                            <span data-testid="captcha-question" data-captcha-id={captcha.data.captcha_id}>
                              {captcha.data.question}
                            </span>
                          ) : (
                            <Skeleton className="inline-block h-4 w-40 align-middle" />
                          )
                        }
                        inputMode="numeric"
                        autoComplete="off"
                        hint="Répondez en chiffres."
                        disabled={!captcha.data}
                        {...field('captcha_answer')}
                      />
                      <Button
                        variant="outline"
                        size="icon"
                        className="mt-[1.625rem] h-11 w-11"
                        aria-label="Nouvelle question"
                        title="Nouvelle question"
                        onClick={newCaptcha}
                        disabled={captcha.isFetching}
                      >
                        <RefreshIcon size={18} className={captcha.isFetching ? 'animate-spin' : undefined} />
                      </Button>
                    </div>
                  )}
                </fieldset>

                <Button
                  type="submit"
                  size="lg"
                  fullWidth
                  leftIcon={<MailIcon size={18} />}
                  loading={isSubmitting}
                  disabled={!captcha.data || captcha.isFetching}
                >
                  {isSubmitting ? 'Envoi en cours…' : 'Envoyer le message'}
                </Button>
              </form>
            </CardBody>
          </Card>

          <div className="space-y-6">
            <Card className="overflow-hidden">
              <iframe
                title="Carte de Libreville"
                src={MAP_SRC}
                className="block h-72 w-full border-0"
                loading="lazy"
                referrerPolicy="no-referrer-when-downgrade"
              />
              <CardBody className="py-3 text-sm">
                <a
                  href={MAP_LINK}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-primary-700 hover:underline"
                >
                  Agrandir la carte de Libreville
                </a>
              </CardBody>
            </Card>

            <Alert tone="info" title="Vous préférez nous écrire directement ?">
              <p>
                Envoyez un email à{' '}
                <a href={`mailto:${COMPANY.email}`} className="font-semibold underline">
                  {COMPANY.email}
                </a>
                . Notre équipe support répond sous {SUPPORT_REPLY}. Par téléphone, nous sommes joignables{' '}
                {CONTACT_PHONE_HOURS.toLowerCase()}.
              </p>
            </Alert>
          </div>
        </div>

        <section aria-labelledby="faq-title" className="mt-12">
          <h2 id="faq-title" className="text-2xl font-bold text-slate-900">
            Questions fréquentes
          </h2>
          <ul className="mt-4 overflow-hidden rounded-xl border border-slate-200 bg-white">
            {FAQ.map((item) => (
              <FaqItem key={item.question} question={item.question} answer={item.answer} />
            ))}
          </ul>
        </section>
      </Container>
    </>
  );
}
