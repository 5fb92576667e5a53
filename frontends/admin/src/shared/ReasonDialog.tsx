import { Button, Input, Textarea } from '@cartable/ui';
import { Dialog } from '@cartable/ui/overlays';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useId, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';

export interface ReasonValues {
  reason: string;
  /** Days (extend) or FCFA (partial refund), as typed. */
  number?: string;
}

/**
 * A decision with a written reason, in a confirm dialog: cancel or extend a subscription, reject or
 * refund a payment. The contract's schema checks it (its `reason`, and `days` or `amount` mapped
 * from the number field); server field errors come back under the same names.
 */
export function ReasonDialog({
  open,
  onClose,
  title,
  description,
  confirmLabel,
  danger,
  schema,
  numberField,
  loading,
  onConfirm,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: any object schema of the contracts
  schema: z.ZodType<any, any>;
  /** The number field: its name in the schema (days, amount), label and hint; optional means empty is allowed. */
  numberField?: { name: 'days' | 'amount'; label: string; hint?: string; optional?: boolean };
  loading: boolean;
  onConfirm: (values: { reason: string; number?: number }) => void;
}) {
  const formId = useId();
  const resolver = useMemo(() => {
    const inner = zodResolver(schema);
    // biome-ignore lint/suspicious/noExplicitAny: resolver arguments passed through
    return (values: ReasonValues, context: unknown, options: any) => {
      const mapped: Record<string, unknown> = { reason: values.reason };
      if (numberField && (values.number ?? '').trim() !== '') mapped[numberField.name] = values.number?.trim();
      // biome-ignore lint/suspicious/noExplicitAny: the contract's shape differs from the form's
      return (inner as any)(mapped, context, options).then((result: any) => {
        const errors = { ...result.errors };
        if (numberField && errors[numberField.name]) {
          errors.number = errors[numberField.name];
          delete errors[numberField.name];
        }
        return { values: Object.keys(errors).length ? {} : values, errors };
      });
    };
  }, [schema, numberField]);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ReasonValues>({ resolver, defaultValues: { reason: '', number: '' } });
  useEffect(() => {
    if (open) reset({ reason: '', number: '' });
  }, [open, reset]);
  const submit = handleSubmit((values) =>
    onConfirm({
      reason: values.reason.trim(),
      ...(values.number?.trim() ? { number: Number(values.number.trim()) } : {}),
    }),
  );
  return (
    <Dialog
      open={open}
      onClose={() => (loading ? undefined : onClose())}
      role="alertdialog"
      title={title}
      description={description}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={loading}>
            Annuler
          </Button>
          <Button type="submit" form={formId} variant={danger ? 'danger' : 'primary'} loading={loading}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate className="space-y-4" onSubmit={(event) => void submit(event)}>
        {numberField ? (
          <Input
            label={numberField.label}
            inputMode="numeric"
            autoComplete="off"
            hint={numberField.hint}
            error={errors.number?.message}
            {...register('number')}
          />
        ) : null}
        <Textarea label="Motif" rows={3} error={errors.reason?.message} {...register('reason')} />
      </form>
    </Dialog>
  );
}
