import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FeedSource } from '../../../shared/domain/regulatory/types';

export function feedFixture(name: string): string {
  return readFileSync(path.join(__dirname, '../../fixtures/feeds', name), 'utf8');
}

export const ferc: FeedSource = {
  id: 'federal-register-ferc',
  name: 'Federal Register: FERC (configured)',
  url: 'https://www.federalregister.gov/api/v1/documents.rss?conditions[agencies][]=federal-energy-regulatory-commission',
  region: 'NA',
  jurisdiction: 'US',
};

export const commission: FeedSource = { id: 'ec-energy', name: 'European Commission energy', url: 'https://energy.ec.europa.eu/feed', region: 'EU', jurisdiction: 'EU' };

export const regulator: FeedSource = { id: 'regulator', name: 'Energy regulator', url: 'https://regulator.example.org/feed.rdf', region: 'SSA', jurisdiction: 'KE' };
