import { CopyButton } from '../../ui/CopyButton.tsx';
import { KeyIcon } from '../../ui/icons.tsx';
import { useWebhookTexts } from './texts.ts';

/**
 * The one time a signing secret is shown (after create and after rotate): in a marked box
 * with a copy button, the warning that it is not shown again, and how receivers check it.
 */
export function SecretBox({ secret }: { secret: string }) {
  const t = useWebhookTexts();
  return (
    <section aria-labelledby="webhook-secret-label" className="flex flex-col gap-3 rounded-md border-2 border-amber-500 bg-amber-50 p-4 text-sm">
      <p id="webhook-secret-label" className="flex items-center gap-2 font-semibold text-amber-950">
        <KeyIcon className="size-4 shrink-0" />
        {t('secret.label')}
      </p>
      <code className="rounded-sm bg-white p-2 font-mono break-all text-stone-900 ring-1 ring-amber-300">{secret}</code>
      <CopyButton value={secret} label={t('secret.copy')} />
      <p className="font-medium text-amber-950">{t('secret.once')}</p>
      <p className="text-stone-800">{t('secret.verify')}</p>
    </section>
  );
}
