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
  /** Customer ids are global: they name S3 paths, so the first account to use one owns it. */
  customer: (customerId: string) => ({ pk: `CUSTOMER#${customerId}`, sk: 'CUSTOMER' }),
  accountCustomersIndex: (accountId: string) => ({ gsi1pk: `ACCOUNT#${accountId}#CUSTOMERS` }),
  device: (deviceId: string) => ({ pk: `DEVICE#${deviceId}`, sk: 'DEVICE' }),
  deviceSerial: (manufacturer: string, serial: string) => ({ pk: `SERIAL#${manufacturer.toLowerCase()}#${serial}`, sk: 'SERIAL' }),
  customerDevicesIndex: (customerId: string) => ({ gsi1pk: `CUSTOMER#${customerId}#DEVICES` }),
  asset: (accountId: string, assetId: string) => ({ pk: `ACCOUNT#${accountId}#ASSETS`, sk: `ASSET#${assetId}` }),
  assetsOf: (accountId: string) => ({ pk: `ACCOUNT#${accountId}#ASSETS`, skPrefix: 'ASSET#' }),
  site: (customerId: string, siteId: string) => ({ pk: `CUSTOMER#${customerId}`, sk: `SITE#${siteId}` }),
  sitesOf: (customerId: string) => ({ pk: `CUSTOMER#${customerId}`, skPrefix: 'SITE#' }),
  upload: (uploadId: string) => ({ pk: `UPLOAD#${uploadId}`, sk: 'UPLOAD' }),
  /** Claims an object key for one upload, so two uploads never share a file (ARCHITECTURE 9). */
  uploadObject: (objectKey: string) => ({ pk: `OBJECT#${objectKey}`, sk: 'OBJECT' }),
  lock: (name: string) => ({ pk: `LOCK#${name}`, sk: 'LOCK' }),
  siteAssetsIndex: (customerId: string, siteId: string) => ({ gsi1pk: `SITE#${customerId}#${siteId}#ASSETS` }),
  modelsOfCustomer: (customerId: string) => ({ pk: `CUSTOMER#${customerId}#MODELS`, skPrefix: 'MODEL#' }),
  requestStats: (hourStart: string) => ({ pk: 'STATS#REQUESTS', sk: `HOUR#${hourStart}` }),
  requestStatsSince: (hourStart: string) => ({ pk: 'STATS#REQUESTS', skFrom: `HOUR#${hourStart}` }),
  dailyCounters: (day: string) => ({ pk: 'STATS#DAILY', sk: `DAY#${day}` }),
  productionModelsIndex: () => ({ gsi1pk: 'MODELS#production' }),
};
