import { QRCodeSVG } from 'qrcode.react';
import { useId, useRef, useState } from 'react';

/**
 * A secret link shown once (only its hash is kept): copied with one press, or selected for the keyboard when
 * the browser refuses the clipboard, and as a QR code for a phone across the table. Invitations and share
 * links both use it.
 */
export function LinkShownOnce({ url, label, copiedHint, testId }: {
  url: string;
  /** "Invitation link", "Share link": the field's label and the QR code's name. */
  label: string;
  /** What to do once it is copied. */
  copiedHint: string;
  testId: string;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'refused' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied('yes');
    } catch {
      input.current?.focus();
      input.current?.select();
      setCopied('refused');
    }
  };
  const qrName = `QR code of the ${label.toLowerCase()}`;
  return (
    <div className="invite-link" data-testid={testId}>
      <div className="field">
        <label htmlFor={`${id}-url`}>{label}</label>
        <div className="invite-link__row">
          <input id={`${id}-url`} ref={input} readOnly value={url} onFocus={(e) => e.currentTarget.select()} aria-describedby={`${id}-hint`} />
          <button type="button" className="btn btn--primary" onClick={() => void copy()}>
            Copy
          </button>
        </div>
        <span id={`${id}-hint`} className="field__hint" role="status">
          {copied === 'yes'
            ? `Copied. ${copiedHint}`
            : copied === 'refused'
              ? 'The browser did not allow copying: the link is selected, press Ctrl+C (⌘C on a Mac).'
              : 'This link is shown only now. Copy it before you leave this page.'}
        </span>
      </div>
      <QRCodeSVG value={url} size={176} marginSize={2} className="invite-link__qr" title={qrName} role="img" aria-label={qrName} />
    </div>
  );
}
