import type { HolidaysTypes } from 'date-holidays';

/** The part of date-holidays' calendar the forecasting calendar uses. */
export interface HolidayCalendar {
  getHolidays(year?: number): HolidaysTypes.Holiday[] | undefined;
}

export function holidayCalendar(country: string, state?: string): HolidayCalendar;

export function knownHolidayRegion(country: string, state?: string): boolean;
