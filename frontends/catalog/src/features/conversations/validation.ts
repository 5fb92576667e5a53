import { sendMessageRequestSchema } from '@cartable/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { MessageFormValues } from './ContactSellerForm';

/**
 * The message forms' checks (to the seller, and the reply under a thread): the message fields of
 * POST /messages, the receiver and the book coming from the page. Loaded with zod when a form is
 * first touched (./checks.ts), not with the page.
 */
const messageFormSchema = sendMessageRequestSchema.pick({ content: true, send_email_copy: true });
export const messageFormResolver = zodResolver(messageFormSchema) as unknown as Resolver<MessageFormValues>;
