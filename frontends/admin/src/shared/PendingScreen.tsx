import { ComingSoon, PageHeader, useDocumentTitle } from '@cartable/ui';

/** An admin screen delivered by a later iteration. */
export function PendingScreen({ title }: { title: string }) {
  useDocumentTitle(`${title} · Administration`);
  return (
    <>
      <PageHeader title={title} />
      <ComingSoon
        title="Écran en préparation"
        description="Cet écran d'administration sera disponible dans une prochaine version."
      />
    </>
  );
}
