import { CallBudget, callWindows, OPEN_METEO_FREE_TIER, openMeteoCallWeight } from '../../../shared/weather-providers/call-budget';

describe('openMeteoCallWeight', () => {
  it('counts Open-Meteo’s way: variables over 10 and days over 14 multiply', () => {
    expect(openMeteoCallWeight(8, 7)).toBe(1);
    expect(openMeteoCallWeight(15, 14)).toBe(1.5); // Open-Meteo's own example
    expect(openMeteoCallWeight(15, 28)).toBe(3); // and its other
    expect(openMeteoCallWeight(8, 366)).toBeCloseTo(26.14, 2);
  });
});

describe('CallBudget', () => {
  it('allows the free tier: 600 calls in a minute, then refuses the 601st until the minute refills', () => {
    let now = 0;
    const budget = new CallBudget(callWindows(OPEN_METEO_FREE_TIER), () => now);
    for (let i = 0; i < 600; i++) expect(budget.take()).toBeNull();
    expect(budget.take()).toEqual({ window: 'minute', retryAfterMs: 100 });
    now += 100; // 600 a minute: one call back every 100 ms
    expect(budget.take()).toBeNull();
    expect(budget.remaining().hour).toBeCloseTo(5000 - 601, 0);
  });

  it('refuses by the hour once its 5,000 calls are spent, however they were spread over the minutes', () => {
    let now = 0;
    const budget = new CallBudget(callWindows(OPEN_METEO_FREE_TIER), () => now);
    let granted = 0;
    let refusal = null;
    // 500 calls a minute, under the minute's 600: the hour's allowance (refilled at 5000/60 a minute) runs out first.
    for (let minute = 0; minute < 20 && !refusal; minute++, now += 60_000) {
      for (let i = 0; i < 500 && !refusal; i++) {
        refusal = budget.take();
        if (!refusal) granted++;
      }
    }
    expect(refusal?.window).toBe('hour');
    expect(granted).toBe(Math.floor(5000 + (11 * 5000) / 60)); // the hour's 5,000 and 11 minutes of its refill
  });

  it('takes a weight from every window or from none', () => {
    const budget = new CallBudget(callWindows({ perMinute: 10, perHour: 12, perDay: 100 }), () => 0);
    expect(budget.take(10)).toBeNull();
    expect(budget.take(3)?.window).toBe('minute');
    expect(budget.remaining()).toEqual({ minute: 0, hour: 2, day: 90 });
    expect(budget.take(200)).toEqual({ window: 'minute', retryAfterMs: 60_000 });
  });
});
