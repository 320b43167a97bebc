import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RejectedProof } from './submit-video-dialog';

describe('RejectedProof', () => {
  it("shows the status and the admin's reason, and that no other proof can follow", () => {
    const html = renderToStaticMarkup(<RejectedProof reason="The video <b>cuts</b> before the end" />);
    expect(html).toContain('Rejected');
    // The reason is text, never markup.
    expect(html).toContain('The video &lt;b&gt;cuts&lt;/b&gt; before the end');
    expect(html).toContain('A new proof cannot be submitted for this dare');
    expect(html).not.toContain('Already Submitted');
  });

  it('says when no reason was given', () => {
    const html = renderToStaticMarkup(<RejectedProof reason={null} />);
    expect(html).toContain('The admin gave no reason.');
    expect(html).not.toContain('Reason:');
  });
});
