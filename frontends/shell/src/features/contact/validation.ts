import { contactRequestSchema } from '@cartable/contracts';
import { messages } from '@cartable/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

/**
 * The contact form's checks: POST /contact's own schema (libs/contracts), the question's id aside
 * (it comes with the question); the answer is typed as text, so it must hold digits before it
 * becomes a number. The page loads this module when its form is first touched (`contactChecks`,
 * ./checks.ts), never with the page: nothing else may import it.
 */
export const contactFormSchema = contactRequestSchema.omit({ captcha_id: true }).extend({
  captcha_answer: z
    .string()
    .trim()
    .regex(/^-?\d+$/, messages.contact.captchaWrong),
});

export const contact = zodResolver(contactFormSchema);
