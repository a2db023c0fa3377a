/**
 * The signed-in API key: kept in sessionStorage (gone when the tab closes), never in a URL or localStorage. The
 * recent customer and site ids are remembered the same way, so each page starts where the last one left off.
 */
const KEY = 'energy-ops.api-key';
const REGION = 'energy-ops.region';
const CONTEXT = 'energy-ops.context';

export const apiKey = (): string | null => sessionStorage.getItem(KEY);
export const signIn = (key: string, region = '') => {
  sessionStorage.setItem(KEY, key);
  if (region) sessionStorage.setItem(REGION, region);
  else sessionStorage.removeItem(REGION);
};
/**
 * The deployment region the account lives in, sent as `x-energy-region`: behind CloudFront it picks the region's
 * API (lib/console/console-site.ts); the local runtime and the edge node have one region and ignore it.
 */
export const apiRegion = (): string | null => sessionStorage.getItem(REGION);
export const signOut = () => sessionStorage.clear();

export interface WorkContext {
  customer_id: string;
  site_id: string;
}

export function workContext(): WorkContext {
  try {
    return { customer_id: '', site_id: '', ...JSON.parse(sessionStorage.getItem(CONTEXT) ?? '{}') };
  } catch {
    return { customer_id: '', site_id: '' };
  }
}

export function rememberContext(context: Partial<WorkContext>): void {
  sessionStorage.setItem(CONTEXT, JSON.stringify({ ...workContext(), ...context }));
}
