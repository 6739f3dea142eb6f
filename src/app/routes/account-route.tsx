import { useEffect, useId, useState, type FormEvent } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import { DevicesSection } from '../../features/devices/devices-section';
import { formatBytes } from '../../lib/format';
import { displayName as displayNameSchema, firstIssue } from '../../lib/validation';
import { ErrorLine } from '../../ui/error-panel';
import { useActionError } from '../../ui/use-action-error';

export function AccountRoute() {
  const backend = useBackend();
  const session = useSession();
  const id = useId();
  const [name, setName] = useState(session?.profile.displayName ?? '');
  const [saved, setSaved] = useState(false);
  const { error, attempt } = useActionError();
  const [estimate, setEstimate] = useState<{ usage: number; quota: number } | null>(null);
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const issue = firstIssue(displayNameSchema, name);

  useEffect(() => {
    void navigator.storage?.estimate?.().then((e) => setEstimate({ usage: e.usage ?? 0, quota: e.quota ?? 0 }));
    void navigator.storage?.persisted?.().then(setPersisted);
  }, []);

  const [saving, setSaving] = useState(false);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (issue || saving) return;
    setSaved(false);
    setSaving(true);
    if (await attempt(() => backend.auth.updateProfile({ displayName: name }))) setSaved(true);
    setSaving(false);
  };

  return (
    <div className="page" style={{ maxWidth: 720 }}>
      <h1>Account</h1>
      <section className="card" aria-labelledby={`${id}-profile`}>
        <h2 id={`${id}-profile`}>Profile</h2>
        <form onSubmit={save} noValidate>
          <div className="field">
            <label htmlFor={`${id}-name`}>Display name</label>
            <input id={`${id}-name`} value={name} onChange={(e) => { setName(e.target.value); setSaved(false); }} aria-invalid={!!issue} aria-describedby={`${id}-name-msg`} autoComplete="nickname" />
            <span id={`${id}-name-msg`} className={issue ? 'error-line' : 'field__hint'}>
              {issue ?? 'Shown to the people you share albums with.'}
            </span>
          </div>
          {error !== null && <ErrorLine error={error} />}
          <button type="submit" className="btn btn--primary" disabled={!!issue || saving}>{saving ? 'Saving…' : 'Save'}</button>
          {saved && <span role="status" style={{ marginLeft: 12 }}>Saved</span>}
        </form>
      </section>
      <section className="card" aria-labelledby={`${id}-backend`}>
        <h2 id={`${id}-backend`}>Where your albums live</h2>
        {backend.capabilities.storage.onDevice ? (
          <p>
            In this browser, on this device only (no server is configured). Nothing leaves this device. Clearing the site’s data
            deletes your albums.
          </p>
        ) : (
          <p>On your Supabase project and storage bucket.</p>
        )}
        {estimate && (
          <p>
            Storage used: <strong>{formatBytes(estimate.usage)}</strong> of {formatBytes(estimate.quota)} available to this site.
          </p>
        )}
        {backend.capabilities.storage.onDevice && persisted === false && (
          <button type="button" className="btn" onClick={() => void navigator.storage.persist().then(setPersisted)}>
            Keep my albums when the browser clears space
          </button>
        )}
        {persisted && <p className="muted">This browser will not clear your albums to make space.</p>}
      </section>
      <DevicesSection />
    </div>
  );
}
