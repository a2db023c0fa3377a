/**
 * The web console (issue #23): a Preact client on the API's own origin. A hash route picks the page; the API key
 * lives in sessionStorage (session.ts). Pages: overview, sites and data, forecasts, models, dispatch, operations,
 * policy and economics.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { apiKey, signIn, signOut } from './session';
import { ActionForm, Field } from './ui';
import { Overview } from './pages/overview';
import { Sites } from './pages/sites';
import { Forecasts } from './pages/forecasts';
import { Models } from './pages/models';
import { Dispatch } from './pages/dispatch';
import { Operations } from './pages/operations';
import { Policy } from './pages/policy';
import './styles.css';

const PAGES = [
  { path: 'overview', title: 'Overview', view: Overview },
  { path: 'sites', title: 'Sites and data', view: Sites },
  { path: 'forecasts', title: 'Forecasts', view: Forecasts },
  { path: 'models', title: 'Models', view: Models },
  { path: 'dispatch', title: 'Dispatch', view: Dispatch },
  { path: 'operations', title: 'Operations', view: Operations },
  { path: 'policy', title: 'Policy and economics', view: Policy },
] as const;

const currentPath = () => location.hash.replace(/^#\/?/, '') || 'overview';

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [region, setRegion] = useState('');
  return (
    <main id="main" class="sign-in">
      <h1>Energy Ops console</h1>
      <p>Sign in with your API key. It is kept in this tab only (sessionStorage) and sent in a header, never in a URL.</p>
      <ActionForm
        label="Sign in"
        testId="sign-in"
        run={async () => {
          signIn(key.trim(), region.trim());
          try {
            await api('GET', '/api/usage');
          } catch (error) {
            signOut();
            throw error;
          }
          onSignedIn();
        }}
      >
        <Field label="API key" type="password" value={key} onInput={setKey} required />
        <Field label="Region (cloud only)" value={region} onInput={setRegion} placeholder="eu-central-1" hint="The region of your account behind CloudFront; leave empty for the first region or a local server." />
      </ActionForm>
      <p>
        No key yet? <code>POST /api/register</code> gives one (see the <a href="../docs">API reference</a>).
      </p>
    </main>
  );
}

function App() {
  const [signedIn, setSignedIn] = useState(() => apiKey() !== null);
  const [path, setPath] = useState(currentPath);
  useEffect(() => {
    const onHash = () => setPath(currentPath());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const page = PAGES.find((p) => p.path === path) ?? PAGES[0];
  document.title = `${page.title} · Energy Ops console`;
  const View = page.view;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Energy Ops</span>
        <nav aria-label="Pages">
          {PAGES.map((p) => (
            <a href={`#/${p.path}`} aria-current={p === page ? 'page' : undefined}>
              {p.title}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            signOut();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{page.title}</h1>
        <View />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
