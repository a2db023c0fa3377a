import type loadHighs from 'highs';

declare const load: typeof loadHighs;
export = load;
