/**
 * The success body of every route, by route id: the zod schemas of shared/schemas/responses, which the API
 * document shows and test/e2e/response-schemas.test.ts checks real answers against. A route without an entry
 * is documented as a generic JSON object, and test/unit/openapi.test.ts lists it as missing.
 */
import { z } from 'zod';
import * as r from '../schemas/responses';

/** A route's success schema, or its schemas by status where it answers more than one 2xx. */
export type RouteResponses = z.ZodType | Readonly<Record<number, z.ZodType>>;

const OpenApiDocument = z
  .looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) })
  .meta({ id: 'OpenApiDocument', description: 'This document.' });

export const RESPONSE_SCHEMAS: Readonly<Record<string, RouteResponses>> = {
  health: r.HealthResponse,
  register: r.RegisterResponse,
  usage: r.UsageResponse,
  'create-client': r.CreateClientResponse,
  'create-customer': r.CreateCustomerResponse,
  'create-device': r.CreateDeviceResponse,
  'system-status': r.SystemStatusResponse,

  'upload-historical': r.HistoricalUploadResponse,
  'upload-nowcast': r.UploadAcknowledgement,
  'upload-train': r.UploadAcknowledgement,
  'upload-status': r.UploadStatusResponse,
  'site-put': r.SiteResponse,
  'site-get': r.SiteResponse,
  'weather-data': r.WeatherDataResponse,

  forecast: r.ForecastResponse,
  'generate-forecast': r.ForecastResponse,
  'price-forecast': r.PriceForecastResponse,
  'pv-forecast': r.PvForecastResponse,
  'pv-estimated-actuals': r.PvEstimatedActualsResponse,
  'freemium-forecast': r.FreemiumForecastResponse,
  'freemium-forecast-api': r.FreemiumForecastResponse,

  train: r.TrainResponse,
  'training-status': r.TrainingStatusResponse,
  'get-forecast': r.CustomerForecastResponse,
  results: r.ForecastResultsResponse,
  'forecast-results': r.ForecastResultsResponse,
  'models-marketplace': r.MarketplaceResponse,
  'model-promote': r.PromoteModelResponse,
  'model-rollback': r.RollbackModelResponse,
  'terminal-forecast': r.TerminalForecastResponse,
  'terminal-ml-models': r.TerminalModelsResponse,

  'terminal-assets': r.TerminalAssetsResponse,
  'terminal-schedule': r.TerminalScheduleResponse,
  'terminal-bom': r.TerminalBomResponse,
  'terminal-order': r.TerminalOrderResponse,
  'terminal-track': r.TerminalTrackResponse,
  'terminal-detect': r.TerminalDetectResponse,
  'terminal-diagnose': r.TerminalDiagnoseResponse,
  'terminal-ooda': r.TerminalOodaResponse,
  'webhooks-create': { 201: r.CreateWebhookResponse },
  'webhooks-list': r.ListWebhooksResponse,
  'webhooks-delete': r.DeleteWebhookResponse,

  interpolate: r.InterpolationResponse,
  'terminal-interpolation': r.TerminalInterpolationResponse,

  'dispatch-optimization': r.DispatchOptimizationResponse,
  'realtime-dispatch': r.RealtimeDispatchResponse,

  'policy-compliance': r.PolicyComplianceResponse,
  'policy-compliance-freemium': r.PolicyComplianceResponse,
  'regulatory-updates': r.RegulatoryUpdatesResponse,
  'project-economics': r.ProjectEconomicsResponse,

  'batch-process': { 200: r.BatchResultsResponse, 202: r.BatchAcceptedResponse },
  'batch-status': r.BatchStatusResponse,
  'edge-configure': r.EdgeConfigureResponse,
  'edge-status': r.EdgeStatusResponse,
  openapi: OpenApiDocument,
};

/** Routes whose success body is not JSON, by media type. */
export const NON_JSON_SUCCESS: Readonly<Record<string, string>> = { docs: 'text/html' };

/** A route's success schemas by status; `fallbackStatus` is the status of a single schema. */
export function successSchemas(routeId: string, fallbackStatus: number): Record<number, z.ZodType> | undefined {
  const entry = RESPONSE_SCHEMAS[routeId];
  if (!entry) return undefined;
  return entry instanceof z.ZodType ? { [fallbackStatus]: entry } : { ...entry };
}
