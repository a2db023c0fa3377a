// SQS errors as the JSON protocol carries them. The SDK (awsQueryCompatible) reads the awsQuery code from the
// `x-amzn-query-error: <code>;Sender` header first and finds the modelled error by it (QueueDoesNotExist is
// `AWS.SimpleQueueService.NonExistentQueue`); `__type` is the fallback. Codes and statuses are those of
// @aws-sdk/client-sqs's error schemas, so `err.name` is what the same call gets from AWS.

export class SqsError extends Error {
  /**
   * @param {string} shape the error's shape name (`__type` is `com.amazonaws.sqs#<shape>`)
   * @param {string} message
   * @param {{ queryCode?: string, status?: number }} [options] the awsQuery code (defaults to the shape) and HTTP status
   */
  constructor(shape, message, { queryCode = shape, status = 400 } = {}) {
    super(message);
    this.shape = shape;
    this.queryCode = queryCode;
    this.status = status;
  }
}

const PREFIX = 'AWS.SimpleQueueService.';

export const queueDoesNotExist = () =>
  new SqsError('QueueDoesNotExist', 'The specified queue does not exist.', { queryCode: `${PREFIX}NonExistentQueue` });
export const invalidParameter = (message) => new SqsError('InvalidParameterValueException', message, { queryCode: 'InvalidParameterValue' });
export const missingParameter = (name) => new SqsError('MissingRequiredParameterException', `The request must contain the parameter ${name}.`, { queryCode: 'MissingParameter' });
export const invalidAttributeName = (name) => new SqsError('InvalidAttributeName', `Unknown Attribute ${name}.`);
export const invalidAttributeValue = (name, reason) => new SqsError('InvalidAttributeValue', `Invalid value for the parameter ${name}. Reason: ${reason}`);
export const receiptHandleIsInvalid = (handle) => new SqsError('ReceiptHandleIsInvalid', `The input receipt handle "${handle}" is not a valid receipt handle.`, { status: 404 });
export const messageNotInflight = () => new SqsError('MessageNotInflight', 'The message referred to is not in flight.', { queryCode: `${PREFIX}MessageNotInflight` });
export const invalidMessageContents = () =>
  new SqsError('InvalidMessageContents', 'Invalid characters found. Valid unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF');
export const emptyBatch = () => new SqsError('EmptyBatchRequest', 'There should be at least one entry in the request.', { queryCode: `${PREFIX}EmptyBatchRequest` });
export const tooManyEntries = (count) =>
  new SqsError('TooManyEntriesInBatchRequest', `Maximum number of entries per request are 10. You have sent ${count}.`, { queryCode: `${PREFIX}TooManyEntriesInBatchRequest` });
export const batchIdsNotDistinct = (id) => new SqsError('BatchEntryIdsNotDistinct', `Id ${id} repeated.`, { queryCode: `${PREFIX}BatchEntryIdsNotDistinct` });
export const invalidBatchEntryId = (id) =>
  new SqsError('InvalidBatchEntryId', `A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long (got "${id}").`, {
    queryCode: `${PREFIX}InvalidBatchEntryId`,
  });
export const batchTooLong = (bytes, limit) =>
  new SqsError('BatchRequestTooLong', `Batch requests cannot be longer than ${limit} bytes. You have sent ${bytes} bytes.`, { queryCode: `${PREFIX}BatchRequestTooLong` });
export const unsupported = (what) =>
  new SqsError('UnsupportedOperation', `${what} is not supported by the local SQS stand-in (local/durable-sqs).`, { queryCode: `${PREFIX}UnsupportedOperation` });
