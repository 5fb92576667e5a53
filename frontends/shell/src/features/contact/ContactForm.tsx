import { Alert, ApiError, Button, Card, CardBody, Input, MailIcon, Textarea, useSubmissionKey } from '@cartable/ui';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { COMPANY } from '../../shared/company';
import { sendContact, useCaptcha, useNewCaptcha } from './api/contact';
import { CaptchaField } from './CaptchaField';
import { contactChecks } from './checks';
import { contactMessages } from './texts';
import type { contactFormSchema } from './validation';

const FIELDS = ['name', 'email', 'subject', 'message', 'captcha_answer'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
const EMPTY: Values = { name: '', email: '', subject: '', message: '', captcha_answer: '' };

type Phase = 'idle' | 'success' | 'error';

/**
 * « Envoyez-nous un message »: name, email, subject, message and the server's question, checked
 * with the contract's rules (loaded when the form is first touched); the outcome is said above it.
 */
export function ContactForm() {
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
  const askNewQuestion = useNewCaptcha();
  /** A question is valid once: a new one after each attempt, or on demand. */
  const newCaptcha = () => {
    setValue('captcha_answer', '');
    askNewQuestion();
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
            <Input label="Adresse email" type="email" autoComplete="email" inputMode="email" {...field('email')} />
          </div>
          <Input label="Sujet" {...field('subject')} />
          <Textarea label="Message" rows={6} {...field('message')} />

          <CaptchaField captcha={captcha} onNewQuestion={newCaptcha} answer={field('captcha_answer')} />

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
  );
}
