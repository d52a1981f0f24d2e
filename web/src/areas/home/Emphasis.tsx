import { Fragment } from 'react';

/**
 * A translated text whose `<b>…</b>` part is shown emphasised (texts.ts): split into text
 * nodes and one styled span, never parsed as HTML.
 */
export function Emphasis({ text, className }: { text: string; className: string }) {
  const parts = text.split(/<b>(.*?)<\/b>/s);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <span key={i} className={className}>
            {part}
          </span>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
