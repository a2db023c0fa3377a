import { weatherCell } from '../../../shared/weather-providers/weather-cell-cache';

describe('weatherCell', () => {
  it('rounds to the 0.1-degree cell and asks for its centre', () => {
    expect(weatherCell(52.52, 13.405)).toEqual({ key: '52.5,13.4', latitude: 52.5, longitude: 13.4 });
    expect(weatherCell(52.549, 13.449)).toEqual(weatherCell(52.52, 13.405));
    expect(weatherCell(52.551, 13.405).key).toBe('52.6,13.4');
    expect(weatherCell(-33.9249, 18.4241)).toEqual({ key: '-33.9,18.4', latitude: -33.9, longitude: 18.4 });
  });

  it('has no negative zero and wraps longitude into [-180, 180)', () => {
    expect(weatherCell(-0.04, -0.04).key).toBe('0.0,0.0');
    expect(weatherCell(10, 179.97).key).toBe('10.0,-180.0');
    expect(weatherCell(10, 190.02).key).toBe('10.0,-170.0');
    expect(weatherCell(90, -180).key).toBe('90.0,-180.0');
  });
});
