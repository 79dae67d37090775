import { Banner } from './banner.js';

/** The success and error banners of a form run by `useSubmit` (lib/use-submit.ts). */
export function SubmitMessages({ submit }: { submit: { success: string | null; error: string | null } }) {
  return (
    <>
      {submit.success && <Banner variant="success">{submit.success}</Banner>}
      {submit.error && <Banner variant="error">{submit.error}</Banner>}
    </>
  );
}
