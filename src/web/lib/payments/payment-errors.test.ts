import { describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api-client';
import { describePaymentError } from './payment-errors';

describe('describePaymentError', () => {
  it("shows the server's reason", () => {
    const error = new ApiError(
      'Insufficient funds for the transfer and its fee',
      400,
      '{}',
      'TRANSACTION_FAILED',
    );
    expect(describePaymentError(error)).toBe('Insufficient funds for the transfer and its fee');
  });

  it("shows the wallet's rejection, whether an Error or a plain object", () => {
    const rejected = Object.assign(new Error('User rejected the request.'), { code: 4001 });
    expect(describePaymentError(rejected)).toBe('User rejected the request.');
    expect(describePaymentError({ code: 4001, message: 'User rejected the request.' })).toBe(
      'User rejected the request.',
    );
  });

  it('falls back to a generic text for anything else', () => {
    expect(describePaymentError(undefined)).toBe('Something went wrong. Please try again.');
    expect(describePaymentError(new Error(''))).toBe('Something went wrong. Please try again.');
  });
});
