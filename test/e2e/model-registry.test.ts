/**
 * Steering the model registry over HTTP: POST /api/models/{model_id}/promote and /rollback (professional and
 * enterprise tiers), recorded on each model's status_history. The trained flow (training's own champion and
 * challenger, then a promotion and a rollback) is in training.test.ts; here the site's versions are registered
 * directly, so each rule is checked without training.
 */
import { call, registerKey, useRuntime } from '../helpers/runtime';
import { form, postForm, settled, solarCsv } from '../helpers/uploads';
import { changeTier } from '../../shared/services/accounts/accounts';
import { forgetCachedKeys } from '../../shared/access/authentication';
import { listModelsOfSite, saveModel, type ModelRecord } from '../../shared/store/models-repo';

const uid = () => Math.random().toString(36).slice(2, 10);

describe('the model registry a user can steer', () => {
  const runtime = useRuntime();
  let pro: { key: string; email: string };

  beforeAll(async () => {
    pro = await registerKey(runtime());
    await changeTier(pro.email, 'professional');
    forgetCachedKeys();
  });

  /** A site of the caller with v1 archived, v2 production (replacing v1) and v3 challenger. */
  async function siteWithVersions(key: string) {
    const f = { customer_id: `cust-${uid()}`, site_id: `site-${uid()}`, region: 'eu-central-1', location: 'Berlin' };
    const up = await postForm(runtime(), '/upload_train', key, form(f, solarCsv(72)));
    expect(await settled(runtime(), key, up.body.upload_id)).toMatchObject({ status: 'processed' });
    const model = (version: number, status: ModelRecord['status'], extra: Partial<ModelRecord> = {}) => ({
      model_id: `mdl_${uid()}`,
      customer_id: f.customer_id,
      site_id: f.site_id,
      version,
      model_name: `solar-forecast-${f.site_id}`,
      model_version: `v${version}`,
      model_type: 'forecasting' as const,
      status,
      last_trained_at: new Date().toISOString(),
      training_metrics: { epochs: 1, train_loss: 0.2, validation_loss: 0.3, early_stop_epoch: 1, cross_validation_folds: 7 },
      ...extra,
    });
    const v1 = model(1, 'archived');
    const v2 = model(2, 'production', { previous_production_model_id: v1.model_id });
    const v3 = model(3, 'challenger');
    for (const m of [v1, v2, v3]) await saveModel(m);
    return { ...f, v1, v2, v3 };
  }

  const statuses = async (site: { customer_id: string; site_id: string }) => (await listModelsOfSite(site.customer_id, site.site_id)).map((m) => [m.model_version, m.status]);

  it('promotes a challenger, archives the production model and records who, when and from which version', async () => {
    const site = await siteWithVersions(pro.key);

    const r = await call(runtime(), 'POST', `/api/models/${site.v3.model_id}/promote`, { key: pro.key });

    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      model: { model_id: site.v3.model_id, status: 'production', previous_production_model_id: site.v2.model_id, status_history: [{ action: 'promoted', status: 'production', by: pro.email, from_production_version: 'v2', at: expect.any(String) }] },
      previous_production: { model_id: site.v2.model_id, status: 'archived', status_history: [{ action: 'archived', status: 'archived', by: pro.email, from_production_version: 'v2' }] },
    });
    expect(await statuses(site)).toEqual([['v1', 'archived'], ['v2', 'archived'], ['v3', 'production']]);
    const listed = await call(runtime(), 'POST', '/terminal/ml-models', { key: pro.key, json: { customer_id: site.customer_id } });
    expect(listed.body.model_metrics.find((m: { model_id: string }) => m.model_id === site.v3.model_id).status_history).toHaveLength(1);
  });

  it('rolls back to the model the production one replaced, and on to the one before it', async () => {
    const site = await siteWithVersions(pro.key);
    await call(runtime(), 'POST', `/api/models/${site.v3.model_id}/promote`, { key: pro.key });

    const back = await call(runtime(), 'POST', `/api/models/${site.v3.model_id}/rollback`, { key: pro.key });

    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ model: { model_id: site.v2.model_id, status: 'production' }, rolled_back: { model_id: site.v3.model_id, status: 'archived' } });
    expect(back.body.model.status_history.at(-1)).toMatchObject({ action: 'rolled_back', by: pro.email, from_production_version: 'v3' });
    expect(await statuses(site)).toEqual([['v1', 'archived'], ['v2', 'production'], ['v3', 'archived']]);

    const again = await call(runtime(), 'POST', `/api/models/${site.v2.model_id}/rollback`, { key: pro.key });

    expect(again.body.model).toMatchObject({ model_id: site.v1.model_id, status: 'production' });
    expect(await statuses(site)).toEqual([['v1', 'production'], ['v2', 'archived'], ['v3', 'archived']]);
  });

  it('answers 409 for a promotion of the production model and a rollback of one that is not in production or replaced none', async () => {
    const site = await siteWithVersions(pro.key);

    expect(await call(runtime(), 'POST', `/api/models/${site.v2.model_id}/promote`, { key: pro.key })).toMatchObject({ status: 409, body: { status: 'error', error: `Model v2 is already the production model of site ${site.site_id}` } });
    expect(await call(runtime(), 'POST', `/api/models/${site.v3.model_id}/rollback`, { key: pro.key })).toMatchObject({ status: 409, body: { error: expect.stringMatching(/^Model v3 is not in production/) } });
    await call(runtime(), 'POST', `/api/models/${site.v2.model_id}/rollback`, { key: pro.key });
    expect(await call(runtime(), 'POST', `/api/models/${site.v1.model_id}/rollback`, { key: pro.key })).toMatchObject({ status: 409, body: { error: 'Model v1 replaced no earlier production model: there is nothing to roll back to' } });
    expect(await statuses(site)).toEqual([['v1', 'production'], ['v2', 'archived'], ['v3', 'challenger']]);
  });

  it('answers 404 for an unknown model and for another account\'s, changing nothing', async () => {
    const site = await siteWithVersions(pro.key);
    const other = await registerKey(runtime());
    await changeTier(other.email, 'enterprise');
    forgetCachedKeys();

    expect(await call(runtime(), 'POST', '/api/models/mdl_nope/promote', { key: pro.key })).toMatchObject({ status: 404, body: { status: 'error', error: 'Model not found' } });
    expect(await call(runtime(), 'POST', `/api/models/${site.v3.model_id}/promote`, { key: other.key })).toMatchObject({ status: 404, body: { error: 'Model not found' } });
    expect(await call(runtime(), 'POST', `/api/models/${site.v2.model_id}/rollback`, { key: other.key })).toMatchObject({ status: 404, body: { error: 'Model not found' } });
    expect(await statuses(site)).toEqual([['v1', 'archived'], ['v2', 'production'], ['v3', 'challenger']]);
  });

  it('refuses the free tier with the structured TIER_REQUIRED body', async () => {
    const free = await registerKey(runtime());
    const site = await siteWithVersions(free.key);

    for (const action of ['promote', 'rollback']) {
      const r = await call(runtime(), 'POST', `/api/models/${site.v3.model_id}/${action}`, { key: free.key });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ error: { code: 'TIER_REQUIRED', message: 'This endpoint requires the professional or enterprise tier', details: { current_tier: 'free', required_tier: 'professional' } } });
    }
    expect(await statuses(site)).toEqual([['v1', 'archived'], ['v2', 'production'], ['v3', 'challenger']]);
  });
});
