// date-holidays is its parser (date-holidays-parser) plus an 800 KB table of every country's rules, and the
// parser's moment-timezone carries 700 KB of zones: inlined, the two were a third of a forecasting bundle.
// Here the parser is required on first use and both tables are read then (shared/package-data.cjs), so a
// function that never asks for a holiday loads neither. The rules are date-holidays' own, unchanged.
const { readPackageJson } = require('../../package-data.cjs');

let Parser;
let rules;

function load() {
  // The bundles alias moment-timezone to its core without data (lib/bundling.ts); from the sources the
  // package's index has loaded its zones already.
  const moment = require('moment-timezone');
  if (moment.tz.names().length === 0) moment.tz.load(readPackageJson('moment-timezone', 'data/packed/latest.json'));
  Parser = require('date-holidays-parser').default;
  rules = readPackageJson('date-holidays', 'data/holidays.json');
}

/** date-holidays' calendar of a country (ISO 3166-1) and optionally a state, as `new Holidays(country, state)`. */
function holidayCalendar(country, state) {
  if (!Parser) load();
  return state ? new Parser(rules, country, state) : new Parser(rules, country);
}

/** Whether date-holidays has rules for the country (ISO 3166-1) and, when given, its subdivision. */
function knownHolidayRegion(country, state) {
  if (!Parser) load();
  const calendar = new Parser(rules);
  if (!calendar.getCountries()[country]) return false;
  return !state || Boolean(calendar.getStates(country)?.[state]);
}

module.exports = { holidayCalendar, knownHolidayRegion };
