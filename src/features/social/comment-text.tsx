import { linkTokens } from './link-tokens';

/**
 * A comment's words as text, with http and https addresses as links that open in a new tab without giving
 * that page a hold on this one. Never HTML: every part is a React text node or an <a> with a checked href.
 */
export function CommentText({ body }: { body: string }) {
  return (
    <p className="comment__body">
      {linkTokens(body).map((t, i) =>
        t.kind === 'link' ? (
          <a key={i} href={t.href} target="_blank" rel="noopener noreferrer">
            {t.text}
          </a>
        ) : (
          t.text
        ),
      )}
    </p>
  );
}
