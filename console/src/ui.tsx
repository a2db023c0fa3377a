/** The small building blocks every page uses: labelled fields, a run button with its state, errors, tables. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from './api';

let nextId = 0;
const useId = () => useState(() => `f${++nextId}`)[0];

export function Field(props: { label: string; value: string; onInput: (v: string) => void; type?: "text" | "number" | "email" | "password" | "url" | "date"; placeholder?: string; required?: boolean; hint?: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input id={id} type={(props.type ?? 'text') as 'text'} step={props.type === 'number' ? 'any' : undefined} value={props.value} placeholder={props.placeholder} required={props.required} onInput={(e) => props.onInput((e.target as HTMLInputElement).value)} />
      {props.hint && <small>{props.hint}</small>}
    </div>
  );
}

export function Area(props: { label: string; value: string; onInput: (v: string) => void; rows?: number }) {
  const id = useId();
  return (
    <div class="field wide">
      <label for={id}>{props.label}</label>
      <textarea id={id} rows={props.rows ?? 4} value={props.value} onInput={(e) => props.onInput((e.target as HTMLTextAreaElement).value)} />
    </div>
  );
}

export function Select(props: { label: string; value: string; options: readonly string[]; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}>
        {props.options.map((o) => (
          <option value={o}>{o}</option>
        ))}
      </select>
    </div>
  );
}

/** The API's message; a tier refusal links to the upgrade information. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const upgrade = error instanceof ApiError && (error.upgradeUrl || error.status === 403);
  return (
    <p class="error" role="alert">
      {message}
      {upgrade && (
        <>
          {' '}
          Your key's tier does not allow this.{' '}
          <a href={(error as ApiError).upgradeUrl ?? '#/overview'} target={(error as ApiError).upgradeUrl ? '_blank' : undefined} rel="noopener">
            How to upgrade
          </a>
        </>
      )}
    </p>
  );
}

/** A form whose submit runs an async action, shows "working" while it runs and the API's error if it fails. */
export function ActionForm(props: { label: string; run: () => Promise<void>; children?: ComponentChildren; testId?: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  return (
    <form
      class="action"
      data-testid={props.testId}
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        try {
          await props.run();
        } catch (err) {
          setError(err);
        } finally {
          setBusy(false);
        }
      }}
    >
      <div class="fields">{props.children}</div>
      <button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? 'Working…' : props.label}
      </button>
      <ErrorBox error={error} />
    </form>
  );
}

export function Progress(props: { label: string; value: number }) {
  return (
    <div class="progress">
      <span>{props.label}</span>
      <progress max={1} value={props.value} aria-label={props.label} />
      <span>{Math.round(props.value * 100)}%</span>
    </div>
  );
}

export function Table<T>(props: { caption: string; rows: readonly T[]; columns: readonly [string, (row: T) => ComponentChildren][]; testId?: string }) {
  if (!props.rows.length) return <p class="empty">{props.caption}: none yet.</p>;
  return (
    <table data-testid={props.testId}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map(([name]) => (
            <th scope="col">{name}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr>
            {props.columns.map(([, cell]) => (
              <td>{cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export const fmt = (v: number | null | undefined, digits = 2) => (v === null || v === undefined || !Number.isFinite(v) ? '–' : v.toLocaleString('en', { maximumFractionDigits: digits }));
export const ts = (iso: string) => Date.parse(iso);
