import { useId, useState, type FormEvent } from 'react';
import type { ShareLinkInput } from '../../domain/entities';
import { fieldText, type Field, type FieldIssue } from '../../lib/error-messages';
import { DEFAULT_EXPIRY, EXPIRY_CHOICES, expiryFor, SHARE_PASSWORD_MAX, SHARE_PASSWORD_MIN, shareLinkIssues, SIZE_UNITS, type ExpiryChoice, type SizeUnit } from '../../lib/share-link-rules';
import { ErrorLine } from '../../ui/error-panel';
import { LinkShownOnce } from '../../ui/link-shown-once';
import { Switch } from '../../ui/switch';
import { useCreateShareLink } from './use-share-links';

/** The address a token opens: the public album page of this same app. */
export function shareUrl(token: string): string {
  return `${location.origin}/s/${encodeURIComponent(token)}`;
}

/** A typed number: undefined when empty, NaN when it is not a number at all (the rules then refuse it). */
function typedNumber(text: string): number | undefined {
  const t = text.trim();
  return t === '' ? undefined : /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/**
 * A new share link: label, password, expiry, downloads, guest uploads with their limits, and a view limit,
 * checked as they are typed. What was typed stays after a refusal; after success the link is shown once and
 * the label and password are cleared for the next recipient.
 */
export function ShareLinkForm({ albumId }: { albumId: string }) {
  const id = useId();
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [expiry, setExpiry] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [allowDownload, setAllowDownload] = useState(true);
  const [allowGuestUpload, setAllowGuestUpload] = useState(false);
  const [guestFiles, setGuestFiles] = useState('');
  const [guestSize, setGuestSize] = useState('');
  const [guestUnit, setGuestUnit] = useState<SizeUnit>('GB');
  const [maxViews, setMaxViews] = useState('');
  const create = useCreateShareLink(albumId);

  const size = typedNumber(guestSize);
  const input: ShareLinkInput = {
    label,
    ...(password === '' ? {} : { password }),
    allowDownload,
    allowGuestUpload,
    maxViews: typedNumber(maxViews) ?? null,
    ...(allowGuestUpload
      ? { guestMaxFiles: typedNumber(guestFiles) ?? null, guestMaxBytes: size === undefined ? null : Math.round(size * SIZE_UNITS[guestUnit]) || Number.NaN }
      : {}),
  };
  // The expiry is a choice from the list, always in range: only what is typed is checked as it changes.
  const issues = shareLinkIssues(input);
  const issueOf = (field: Field): FieldIssue | undefined => issues.find((i) => i.field === field);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (issues.length > 0 || create.isPending) return;
    create.mutate(
      { ...input, expiresAt: expiryFor(expiry) },
      {
        onSuccess: () => {
          setLabel('');
          setPassword('');
          setShowPassword(false);
        },
      },
    );
  };

  const message = (field: Field, hint: string | null) => {
    const issue = issueOf(field);
    const text = issue ? fieldText(issue) : hint;
    if (!text) return null;
    return (
      <span id={`${id}-${field}-msg`} className={issue ? 'error-line' : 'field__hint'} role={issue ? 'alert' : undefined}>
        {text}
      </span>
    );
  };
  const described = (field: Field, hasHint: boolean) => (issueOf(field) || hasHint ? `${id}-${field}-msg` : undefined);

  return (
    <>
      <form className="share-link-form" onSubmit={submit} noValidate aria-label="New share link">
        <div className="field">
          <label htmlFor={`${id}-label`}>
            Label <span className="muted">(optional)</span>
          </label>
          <input id={`${id}-label`} value={label} onChange={(e) => setLabel(e.target.value)} placeholder="For the family" aria-invalid={!!issueOf('label')} aria-describedby={described('label', true)} />
          {message('label', 'Only you and the album’s editors see it.')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-password`}>
            Password <span className="muted">(optional)</span>
          </label>
          <div className="invite-link__row">
            <input
              id={`${id}-password`}
              type={showPassword ? 'text' : 'password'}
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={!!issueOf('password')}
              aria-describedby={described('password', true)}
            />
            <button type="button" className="btn" aria-controls={`${id}-password`} onClick={() => setShowPassword((s) => !s)}>
              {showPassword ? 'Hide' : 'Show'}
            </button>
          </div>
          {message('password', `${SHARE_PASSWORD_MIN} to ${SHARE_PASSWORD_MAX} characters. Send it apart from the link.`)}
        </div>
        <div className="field">
          <label htmlFor={`${id}-expiry`}>Expires after</label>
          <select id={`${id}-expiry`} value={expiry} onChange={(e) => setExpiry(e.target.value as ExpiryChoice)} aria-describedby={`${id}-expiry-hint`}>
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <span id={`${id}-expiry-hint`} className="field__hint">
            {expiry === 'never' ? 'The link works until you revoke it.' : 'After that the link stops working.'}
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-views`}>
            View limit <span className="muted">(optional)</span>
          </label>
          <input id={`${id}-views`} inputMode="numeric" value={maxViews} onChange={(e) => setMaxViews(e.target.value)} placeholder="Unlimited" aria-invalid={!!issueOf('maxViews')} aria-describedby={described('maxViews', true)} />
          {message('maxViews', 'A view is one visit per browser per day.')}
        </div>
        <div className="share-link-form__switches">
          <Switch label="Downloads" hint="Visitors may download the photos and files." checked={allowDownload} onCheckedChange={setAllowDownload} />
          <Switch label="Guest uploads" hint="Visitors may add photos and files, and remove their own." checked={allowGuestUpload} onCheckedChange={setAllowGuestUpload} />
        </div>
        {allowGuestUpload && (
          <div className="share-link-form__guests">
            <div className="field">
              <label htmlFor={`${id}-guest-files`}>
                Files per guest <span className="muted">(optional)</span>
              </label>
              <input id={`${id}-guest-files`} inputMode="numeric" value={guestFiles} onChange={(e) => setGuestFiles(e.target.value)} placeholder="No limit" aria-invalid={!!issueOf('guestMaxFiles')} aria-describedby={described('guestMaxFiles', false)} />
              {message('guestMaxFiles', null)}
            </div>
            <div className="field">
              <label htmlFor={`${id}-guest-size`}>
                Size per guest <span className="muted">(optional)</span>
              </label>
              <div className="invite-link__row">
                <input id={`${id}-guest-size`} inputMode="decimal" value={guestSize} onChange={(e) => setGuestSize(e.target.value)} placeholder="No limit" aria-invalid={!!issueOf('guestMaxBytes')} aria-describedby={described('guestMaxBytes', false)} />
                <select aria-label="Unit of the size per guest" value={guestUnit} onChange={(e) => setGuestUnit(e.target.value as SizeUnit)}>
                  {Object.keys(SIZE_UNITS).map((u) => (
                    <option key={u} value={u}>
                      {u}
                    </option>
                  ))}
                </select>
              </div>
              {message('guestMaxBytes', null)}
            </div>
          </div>
        )}
        <div className="settings-row">
          <button type="submit" className="btn btn--primary" disabled={create.isPending || issues.length > 0}>
            {create.isPending ? 'Creating…' : 'Create share link'}
          </button>
        </div>
      </form>
      {create.isError && <ErrorLine error={create.error} />}
      {create.data && <LinkShownOnce key={create.data.link.id} url={shareUrl(create.data.token)} label="Share link" copiedHint="Send it to whoever should see the album." testId="share-link" />}
    </>
  );
}
