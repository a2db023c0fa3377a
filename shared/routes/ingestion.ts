/** The route rows of ingestion (shared/routes/index.ts: the table and what a row holds). */
import { platform } from './route';
import { PutSiteRequest, SitePath, SiteQuery, SiteSeriesQuery } from '../schemas/pv';
import { HistoricalUploadResponse, SiteResponse, SiteSeriesResponse, UploadAcknowledgement, UploadStatusResponse, WeatherDataResponse } from '../schemas/responses/ingestion';
import { HistoricalQuery, NowcastJsonForms, UploadFormA, UploadFormB, UploadStatusPath } from '../schemas/uploads';
import { WeatherDataRequest } from '../schemas/weather';

export const INGESTION_ROUTES = [
  platform({ id: 'upload-historical', method: 'POST', path: '/upload_historical', handler: 'upload-data', body: 'csv', internalErrorMessage: 'Upload failed', summary: 'Upload historical data as raw CSV (platform form)', request: { query: HistoricalQuery }, response: HistoricalUploadResponse }),
  platform({ id: 'upload-nowcast', method: 'POST', path: '/upload_nowcast', handler: 'upload-data', body: 'upload', internalErrorMessage: 'Upload failed', summary: 'Upload real-time (nowcast) data', request: { body: NowcastJsonForms, form: UploadFormA }, response: UploadAcknowledgement }),
  platform({ id: 'upload-train', method: 'POST', path: '/upload_train', handler: 'upload-data', body: 'upload', internalErrorMessage: 'Upload failed', summary: 'Upload historical (training) data', request: { body: UploadFormB, form: UploadFormA }, response: UploadAcknowledgement }),
  platform({ id: 'upload-status', method: 'GET', path: '/api/uploads/{upload_id}', handler: 'get-upload-status', body: 'none', summary: 'Processing status of an upload', request: { path: UploadStatusPath }, response: UploadStatusResponse }),
  platform({ id: 'site-put', method: 'PUT', path: '/api/sites/{site_id}', handler: 'sites', body: 'json', summary: 'Set the PV system specs of a site', request: { body: PutSiteRequest, path: SitePath }, response: SiteResponse }),
  platform({ id: 'site-get', method: 'GET', path: '/api/sites/{site_id}', handler: 'sites', body: 'none', summary: 'A site with its PV specs (set, or inferred from its history with the fit)', request: { query: SiteQuery, path: SitePath }, response: SiteResponse }),
  platform({ id: 'site-series', method: 'GET', path: '/api/sites/{site_id}/series', handler: 'sites', body: 'none', summary: "A site's stored series on its grid, with gaps and flagged values labelled", request: { query: SiteSeriesQuery, path: SitePath }, response: SiteSeriesResponse }),
  platform({ id: 'weather-data', method: 'POST', path: '/api/weather-data', handler: 'weather-data', body: 'json', summary: 'Weather data for a location and date range', request: { body: WeatherDataRequest }, response: WeatherDataResponse }),
] as const;
