import { describe, expect, it } from 'vitest';
import { phantomBrowseLink } from './phantom-link';

describe('phantomBrowseLink', () => {
  it('encodes the page and the app as the browse deeplink wants them', () => {
    expect(phantomBrowseLink('https://darepool.example/dare/7?x=1', 'https://darepool.example')).toBe(
      'https://phantom.app/ul/browse/https%3A%2F%2Fdarepool.example%2Fdare%2F7%3Fx%3D1?ref=https%3A%2F%2Fdarepool.example',
    );
  });
});
