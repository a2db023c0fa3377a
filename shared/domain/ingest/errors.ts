/**
 * Why a file or a JSON series cannot be standardised. The upload handler answers 400 with the spec's
 * message ("Invalid CSV format"); the worker records `reason` against the upload and quarantines the file.
 */

export class InvalidCsv extends Error {
  constructor(readonly reason: string) {
    super(`Invalid CSV format: ${reason}`);
    this.name = 'InvalidCsv';
  }
}

export class InvalidDataPoints extends Error {
  constructor(readonly reason: string) {
    super(`Invalid data points: ${reason}`);
    this.name = 'InvalidDataPoints';
  }
}
