import { Container, useDocumentTitle } from '@cartable/ui';
import { SUPPORT_REPLY } from '../../shared/company';
import { ContactAside } from './ContactAside';
import { ContactDetails } from './ContactDetails';
import { ContactFaq } from './ContactFaq';
import { ContactForm } from './ContactForm';

/** Contact page (SPEC section 2): details, map, form with the server's math question, FAQ. */
export default function ContactPage() {
  useDocumentTitle('Contact');
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
        <ContactDetails />

        <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <ContactForm />
          <ContactAside />
        </div>

        <ContactFaq />
      </Container>
    </>
  );
}
