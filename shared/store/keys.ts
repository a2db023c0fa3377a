/**
 * Key layout of every item, in one place (the only module that spells key strings).
 * Generic pk/sk tables: the entity kind is the prefix of each key.
 */
export const keys = {
  account: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'PROFILE' }),
  email: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  apiKey: (hash: string) => ({ pk: `KEY#${hash}`, sk: 'KEY' }),
  accountKey: (accountId: string, hash: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `KEY#${hash}` }),
  accountKeysPrefix: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'KEY#' }),
  quota: (accountId: string, month: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `QUOTA#${month}` }),
  rateWindow: (subject: string, windowStart: number) => ({ pk: `RATE#${subject}`, sk: `W#${windowStart}` }),
  lead: (email: string) => ({ pk: `LEAD#${email.toLowerCase()}`, sk: 'LEAD' }),
  client: (accountId: string, clientId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `CLIENT#${clientId}` }),
  webhook: (accountId: string, webhookId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `WEBHOOK#${webhookId}` }),
  webhooksOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'WEBHOOK#' }),
  /** A webhook delivery that kept failing, kept for an operator (ARCHITECTURE 5, flow 4). */
  parkedDelivery: (accountId: string, deliveryId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `PARKED_DELIVERY#${deliveryId}` }),
  parkedDeliveriesOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'PARKED_DELIVERY#' }),
  /** Customer ids are global: they name S3 paths, so the first account to use one owns it. */
  customer: (customerId: string) => ({ pk: `CUSTOMER#${customerId}`, sk: 'CUSTOMER' }),
  accountCustomersIndex: (accountId: string) => ({ gsi1pk: `ACCOUNT#${accountId}#CUSTOMERS` }),
  device: (deviceId: string) => ({ pk: `DEVICE#${deviceId}`, sk: 'DEVICE' }),
  deviceSerial: (manufacturer: string, serial: string) => ({ pk: `SERIAL#${manufacturer.toLowerCase()}#${serial}`, sk: 'SERIAL' }),
  customerDevicesIndex: (customerId: string) => ({ gsi1pk: `CUSTOMER#${customerId}#DEVICES` }),
  asset: (accountId: string, assetId: string) => ({ pk: `ACCOUNT#${accountId}#ASSETS`, sk: `ASSET#${assetId}` }),
  assetsOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}#ASSETS`, skPrefix: 'ASSET#' }),
  /** Records of the maintenance loop per account and kind; `sortId` is the id, or `<ISO time>#<id>` for time-ordered kinds. */
  operationsRecord: (accountId: string, kind: string, sortId: string) => ({ pk: `ACCOUNT#${accountId}#${kind}`, sk: `${kind}#${sortId}` }),
  operationsRecordsOf: (accountId: string, kind: string) => ({ pk: `ACCOUNT#${accountId}#${kind}`, skPrefix: `${kind}#` }),
  orderSubscription: (accountId: string, orderId: string, subscriptionId: string) => ({ pk: `ACCOUNT#${accountId}#ORDER#${orderId}#SUBSCRIPTIONS`, sk: `SUBSCRIPTION#${subscriptionId}` }),
  orderSubscriptionsOf: (accountId: string, orderId: string) => ({ pk: `ACCOUNT#${accountId}#ORDER#${orderId}#SUBSCRIPTIONS`, skPrefix: 'SUBSCRIPTION#' }),
  site: (customerId: string, siteId: string) => ({ pk: `CUSTOMER#${customerId}`, sk: `SITE#${siteId}` }),
  sitesOf: (customerId: string) => ({ pk: `CUSTOMER#${customerId}`, skPrefix: 'SITE#' }),
  /** Per-month summary of a site's stored series, from which its coverage is combined (series-summaries-repo.ts). */
  seriesSummary: (customerId: string, siteId: string, month: string) => ({ pk: `CUSTOMER#${customerId}#SERIES#${siteId}`, sk: `MONTH#${month}` }),
  seriesSummariesOf: (customerId: string, siteId: string) => ({ pk: `CUSTOMER#${customerId}#SERIES#${siteId}`, skPrefix: 'MONTH#' }),
  /** Written once every stored month of the site has its summary (sites stored before summaries are built once). */
  seriesSummariesComplete: (customerId: string, siteId: string) => ({ pk: `CUSTOMER#${customerId}#SERIES#${siteId}`, sk: 'COMPLETE' }),
  upload: (uploadId: string) => ({ pk: `UPLOAD#${uploadId}`, sk: 'UPLOAD' }),
  /** Claims an object key for one upload, so two uploads never share a file (ARCHITECTURE 9). */
  uploadObject: (objectKey: string) => ({ pk: `OBJECT#${objectKey}`, sk: 'OBJECT' }),
  /** Sparse: only uploads still in flight carry it, so the reconciler reads them without a scan (uploads-repo.ts). */
  inFlightUploadsIndex: () => ({ gsi1pk: 'UPLOADS#IN_FLIGHT' }),
  lock: (name: string) => ({ pk: `LOCK#${name}`, sk: 'LOCK' }),
  siteAssetsIndex: (customerId: string, siteId: string) => ({ gsi1pk: `SITE#${customerId}#${siteId}#ASSETS` }),
  modelsOfCustomer: (customerId: string) => ({ pk: `CUSTOMER#${customerId}#MODELS`, skPrefix: 'MODEL#' }),
  /** Versions sort within a site: zero-padded. */
  model: (customerId: string, siteId: string, version: number) => ({ pk: `CUSTOMER#${customerId}#MODELS`, sk: `MODEL#${siteId}#${String(version).padStart(6, '0')}` }),
  modelsOfSite: (customerId: string, siteId: string) => ({ pk: `CUSTOMER#${customerId}#MODELS`, skPrefix: `MODEL#${siteId}#` }),
  trainingJob: (jobId: string) => ({ pk: `JOB#${jobId}`, sk: 'JOB' }),
  forecastResult: (customerId: string, generatedAt: string, forecastId: string) => ({ pk: `CUSTOMER#${customerId}#FORECASTS`, sk: `FORECAST#${generatedAt}#${forecastId}` }),
  /** Regulatory updates are global (not per account): one partition, keyed by the update's id. */
  regulatoryUpdate: (id: string) => ({ pk: 'REGULATORY#UPDATES', sk: `UPDATE#${id}` }),
  regulatoryUpdates: () => ({ pk: 'REGULATORY#UPDATES', skPrefix: 'UPDATE#' }),
  /** Every update also sits in one index partition in list order: newest effective date first, ties by id. */
  regulatoryUpdateByDate: (effectiveDate: string, id: string) => ({ gsi1pk: 'REGULATORY#BY_DATE', gsi1sk: `${effectiveDate}#${id}` }),
  regulatoryUpdatesByDate: () => ({ gsi1pk: 'REGULATORY#BY_DATE' }),
  /** Written once the store holds the curated seed `version` and every stored update is in the date index. */
  regulatoryPrepared: (version: string) => ({ pk: 'REGULATORY#PREPARED', sk: `V#${version}` }),
  /** The links and guids already seen, so a feed item is stored once however often it is pulled. */
  regulatorySeen: (dedupeKey: string) => ({ pk: 'REGULATORY#SEEN', sk: `KEY#${dedupeKey}` }),
  regulatorySeenAll: () => ({ pk: 'REGULATORY#SEEN', skPrefix: 'KEY#' }),
  /** The last pull: when, and each feed's report. */
  regulatoryPull: () => ({ pk: 'REGULATORY#PULL', sk: 'LAST' }),
  interpolationResult: (accountId: string, processedAt: string, resultId: string) => ({ pk: `ACCOUNT#${accountId}#INTERPOLATIONS`, sk: `INTERPOLATION#${processedAt}#${resultId}` }),
  interpolationResultsOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}#INTERPOLATIONS`, skPrefix: 'INTERPOLATION#' }),
  /** A POST /api/batch-process request and its progress; per account, so another account's id is simply absent. */
  batch: (accountId: string, batchId: string) => ({ pk: `ACCOUNT#${accountId}#BATCHES`, sk: `BATCH#${batchId}` }),
  forecastResultsOf: (customerId: string) => ({ pk: `CUSTOMER#${customerId}#FORECASTS`, skPrefix: 'FORECAST#' }),
  requestStats: (hourStart: string) => ({ pk: 'STATS#REQUESTS', sk: `HOUR#${hourStart}` }),
  requestStatsSince: (hourStart: string) => ({ pk: 'STATS#REQUESTS', skFrom: `HOUR#${hourStart}` }),
  dailyCounters: (day: string) => ({ pk: 'STATS#DAILY', sk: `DAY#${day}` }),
  productionModelsIndex: () => ({ gsi1pk: 'MODELS#production' }),
  /** One UTC day of upstream weather for a 0.1-degree cell (`52.5,13.4`), per mode (`forecast`, `history`): shared/store/weather-cache-repo.ts. */
  weatherDay: (mode: string, cell: string, day: string) => ({ pk: `WEATHER#${mode}#${cell}`, sk: `DAY#${day}` }),
};
