import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { GuardianStatus } from './guardian-status';

const address = 'Gu4rd1an1111111111111111111111111111111111';

describe('GuardianStatus', () => {
  it('warns, as an alert, when the guardian cannot pay for ten vetoes', () => {
    const html = renderToStaticMarkup(
      <GuardianStatus guardian={{ ok: false, address, balance: '0', minBalance: '50000' }} />,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain('The guardian cannot pay for 10 vetoes');
    expect(html).toContain(address);
    expect(html).toContain('data-low="true"');
  });

  it('shows the balance and no warning when it can', () => {
    const html = renderToStaticMarkup(
      <GuardianStatus guardian={{ ok: true, address, balance: '1000000000', minBalance: '50000' }} />,
    );
    expect(html).toContain('holds <strong class="tabular-nums">1 SOL</strong>');
    expect(html).not.toContain('role="alert"');
  });

  it('warns when the chain did not answer with its balance', () => {
    const html = renderToStaticMarkup(
      <GuardianStatus guardian={{ ok: false, address, minBalance: '50000' }} />,
    );
    expect(html).toContain('balance unknown');
    expect(html).toContain('role="alert"');
  });
});
