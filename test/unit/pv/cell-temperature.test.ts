/** Faiman (2008) cell temperature against pvlib's test values (tests/test_temperature.py). */
import { faimanCellTemperature } from '../../../shared/domain/pv/cell-temperature';

describe('Faiman cell temperature', () => {
  it('900 W/m2, 20 C, 5 m/s, default u0 25 and u1 6.84: 35.203 (test_faiman_default)', () => {
    expect(Math.abs(faimanCellTemperature(900, 20, 5) - 35.203)).toBeLessThan(0.001);
  });

  it('same with u0 22, u1 6: 37.308 (test_faiman_kwargs)', () => {
    expect(Math.abs(faimanCellTemperature(900, 20, 5, 22, 6) - 37.308)).toBeLessThan(0.001);
  });

  it('[0, 500, 0] W/m2 at [0, 10, 5] C and [10, 5, 0] m/s: [0, 18.446, 5] (test_faiman_list)', () => {
    expect(faimanCellTemperature(0, 0, 10)).toBe(0);
    expect(Math.abs(faimanCellTemperature(500, 10, 5) - 18.446)).toBeLessThan(0.001);
    expect(faimanCellTemperature(0, 5, 0)).toBe(5);
  });

  it('cools with wind, and treats a negative wind reading as calm', () => {
    expect(faimanCellTemperature(800, 25, 1)).toBeGreaterThan(faimanCellTemperature(800, 25, 5));
    expect(faimanCellTemperature(800, 25, -3)).toBe(25 + 800 / 25);
  });
});
