/** The customer and site a page works on, remembered for the session so every page starts on the same site. */
import { useState } from 'preact/hooks';
import { rememberContext, workContext, type WorkContext } from './session';
import { Field } from './ui';

export function useWorkContext(): [WorkContext, (c: Partial<WorkContext>) => void] {
  const [context, setContext] = useState(workContext);
  return [
    context,
    (change) => {
      rememberContext(change);
      setContext(workContext());
    },
  ];
}

export function ContextFields({ context, onChange, site = true }: { context: WorkContext; onChange: (c: Partial<WorkContext>) => void; site?: boolean }) {
  return (
    <>
      <Field label="Customer id" value={context.customer_id} onInput={(v) => onChange({ customer_id: v.trim() })} required />
      {site && <Field label="Site id" value={context.site_id} onInput={(v) => onChange({ site_id: v.trim() })} required />}
    </>
  );
}
